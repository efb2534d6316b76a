package dev.agentdouble.fake.internal;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.QueueFiles;
import dev.agentdouble.fake.Main;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.process.Death;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.process.ProcessClock;
import dev.agentdouble.fake.internal.process.Signals;
import dev.agentdouble.fake.internal.profile.Profiles;
import dev.agentdouble.fake.internal.run.ValidationCache;
import dev.agentdouble.fake.internal.source.QueuedTapes;
import dev.agentdouble.fake.internal.source.TapeSelection;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The run the launcher makes its class-data sharing archive from: replays a small tape in every
 * output format and answers a subcommand, in-process, so the archive holds every class a real
 * invocation loads.
 */
public final class Training {
  private Training() {}

  static final String TAPE =
      String.join(
          "\n",
          "{\"tape\":1,\"outputFormat\":\"stream-json\",\"source\":\"scripted\",\"vars\":{\"sessionId\":\"11111111-2222-3333-4444-555555555555\",\"cwd\":\"/w\",\"prompt\":\"p\",\"epochMs\":1000}}",
          "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\",\"cwd\":\"/w\",\"session_id\":\"11111111-2222-3333-4444-555555555555\",\"model\":\"Auto\",\"permissionMode\":\"default\"}}",
          "{\"t\":0,\"out\":{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"p\"}]},\"session_id\":\"11111111-2222-3333-4444-555555555555\"}}",
          "{\"t\":0,\"out\":{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"t\",\"session_id\":\"11111111-2222-3333-4444-555555555555\",\"timestamp_ms\":1001}}",
          "{\"t\":0,\"out\":{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\",\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"/w/a\"}},\"startedAtMs\":\"1002\"},\"session_id\":\"11111111-2222-3333-4444-555555555555\",\"timestamp_ms\":1002}}",
          "{\"t\":0,\"out\":{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\",\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"/w/a\"},\"result\":{\"success\":{\"content\":\"x\",\"isEmpty\":false,\"exceededLimit\":false,\"totalLines\":1,\"totalChars\":1}}},\"startedAtMs\":\"1002\",\"completedAtMs\":\"1003\"},\"session_id\":\"11111111-2222-3333-4444-555555555555\",\"timestamp_ms\":1003}}",
          "{\"t\":0,\"out\":{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"done\"}]},\"session_id\":\"11111111-2222-3333-4444-555555555555\"}}",
          "{\"t\":0,\"outRaw\":\"raw\\n\"}",
          "{\"t\":0,\"err\":\"e\\n\"}",
          "{\"t\":0,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":1,\"duration_api_ms\":1,\"is_error\":false,\"result\":\"done\",\"session_id\":\"11111111-2222-3333-4444-555555555555\",\"request_id\":\"r\"}}",
          "{\"t\":1,\"exit\":0}",
          "");

  /**
   * A Claude Code run recorded in stream-json with partial messages: what a {@code claude} replay
   * reads, drops (its partial lines) and derives (json, its verbose array, text, with the note
   * before an unrecognised model's stderr line); its socket and its cwd inside a message live.
   */
  static final String CLAUDE_TAPE =
      String.join(
          "\n",
          "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\",\"argv\":[\"-p\",\"--output-format\",\"stream-json\",\"--verbose\",\"--include-partial-messages\",\"p\"],\"vars\":{\"epochMs\":1784000000000,\"cwd\":\"/w\"}}",
          "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\",\"capabilities\":[\"a\",\"lifecycle_wakeup_source_v1\"],\"messaging_socket_path\":\"/tmp/cc-socks/4242.sock\"}}",
          "{\"t\":0,\"err\":\"[claude-code:unrecognized_model] {\\\"model\\\":\\\"m\\\",\\\"query_source\\\":\\\"sdk\\\"}\\n\"}",
          "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"permission_denied\",\"message\":\"touch in '/w/made.txt' needs approval\",\"session_id\":\"s\"}}",
          "{\"t\":0,\"out\":{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"resetsAt\":1784018000},\"session_id\":\"s\",\"timestamp\":\"2026-07-14T03:33:20.005Z\"}}",
          "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"status\",\"status\":\"requesting\",\"session_id\":\"s\"}}",
          "{\"t\":0,\"out\":{\"type\":\"stream_event\",\"event\":{\"type\":\"message_start\"},\"session_id\":\"s\"}}",
          "{\"t\":0,\"out\":{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"done\"}]},\"session_id\":\"s\"}}",
          "{\"t\":0,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"done\",\"session_id\":\"s\",\"model_usage_since_last_result\":{}}}",
          "{\"t\":1,\"exit\":0}",
          "");

  /**
   * A Claude Code session recorded under the Agent SDK, in small: the client's lines as {@code in}
   * frames (initialize, a user message, the answer to the CLI's can_use_tool request) between the
   * CLI's own lines.
   */
  static final String CLAUDE_SESSION_TAPE =
      String.join(
          "\n",
          "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\",\"argv\":[\"--output-format\",\"stream-json\",\"--verbose\",\"--input-format\",\"stream-json\"],\"vars\":{\"sessionId\":\"11111111-2222-3333-4444-555555555555\",\"cwd\":\"/w\"}}",
          "{\"t\":0,\"in\":{\"request_id\":\"r0\",\"type\":\"control_request\",\"request\":{\"subtype\":\"initialize\"}}}",
          "{\"t\":0,\"in\":{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"p\"},\"parent_tool_use_id\":null,\"session_id\":\"\"}}",
          "{\"t\":0,\"out\":{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"r0\",\"response\":{}}}}",
          "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/w\",\"session_id\":\"11111111-2222-3333-4444-555555555555\"}}",
          "{\"t\":0,\"out\":{\"type\":\"control_request\",\"request_id\":\"c1\",\"request\":{\"subtype\":\"can_use_tool\",\"tool_name\":\"Bash\",\"input\":{},\"tool_use_id\":\"t1\"}}}",
          "{\"t\":0,\"in\":{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"c1\",\"response\":{\"behavior\":\"allow\",\"updatedInput\":{}}}}}",
          "{\"t\":0,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"done\",\"session_id\":\"11111111-2222-3333-4444-555555555555\"}}",
          "{\"t\":1,\"exit\":0}",
          "");

  /** The SDK's lines for {@link #CLAUDE_SESSION_TAPE}, under request ids of its own. */
  static final String CLAUDE_SESSION_STDIN =
      String.join(
          "\n",
          "{\"request_id\":\"live1\",\"type\":\"control_request\",\"request\":{\"subtype\":\"initialize\"}}",
          "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"p\"},\"parent_tool_use_id\":null,\"session_id\":\"\"}",
          "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\"c1\",\"response\":{\"behavior\":\"allow\",\"updatedInput\":{}}}}",
          "");

  /**
   * A client's lines for per-message turns: initialize, a request the CLI refuses, a type it
   * ignores, an interrupt between turns, two user messages (one with text blocks).
   */
  static final String CLAUDE_TURNS_STDIN =
      String.join(
          "\n",
          "{\"request_id\":\"live1\",\"type\":\"control_request\",\"request\":{\"subtype\":\"initialize\"}}",
          "{\"type\":\"control_request\",\"request_id\":\"x\",\"request\":{\"subtype\":\"no_such_subtype\"}}",
          "{\"type\":\"bogus\"}",
          "{\"type\":\"control_request\",\"request_id\":\"i\",\"request\":{\"subtype\":\"interrupt\"}}",
          "",
          "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"p\"},\"parent_tool_use_id\":null,\"session_id\":\"\"}",
          "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"q\"}]},\"parent_tool_use_id\":null,\"session_id\":\"\"}",
          "not json",
          "");

  /**
   * Sessions of {@code claude --input-format stream-json}: a recorded one in lockstep with stdin,
   * and a turn per user message.
   */
  private static void claudeSessions(Path dir, Path tape) throws IOException {
    Path session = dir.resolve("claude-session.tape.ndjson");
    List<String> argv =
        List.of(
            "--output-format",
            "stream-json",
            "--verbose",
            "--input-format",
            "stream-json",
            "--permission-prompt-tool=stdio");
    try {
      Files.writeString(session, CLAUDE_SESSION_TAPE, StandardCharsets.UTF_8);
      claudeSession(argv, session, CLAUDE_SESSION_STDIN);
      claudeSession(argv, tape, CLAUDE_TURNS_STDIN);
      claudeInterrupt(dir, argv);
    } finally {
      Files.deleteIfExists(session);
    }
  }

  /**
   * A per-message turn held at a gate and interrupted there: the client's interrupt comes once the
   * turn reached the gate, as a test sends it.
   */
  private static void claudeInterrupt(Path dir, List<String> argv) throws IOException {
    Path tape = dir.resolve("claude-gated.tape.ndjson");
    Path gates = dir.resolve("gates");
    Path reached = gates.resolve(GateFiles.reached("g"));
    try {
      Files.createDirectories(gates);
      Files.writeString(
          tape,
          "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\"}\n"
              + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}}\n"
              + "{\"t\":0,\"gate\":\"g\"}\n"
              + "{\"t\":0,\"exit\":0}\n",
          StandardCharsets.UTF_8);
      String[] lines = CLAUDE_TURNS_STDIN.split("\n");
      play(
          "claude",
          argv,
          Map.of(
              FakeEnvironment.TAPE,
              tape.toString(),
              FakeEnvironment.TIMING,
              "fast",
              FakeEnvironment.GATES,
              gates.toString(),
              FakeEnvironment.GATE_TIMEOUT_MS,
              "10000"),
          new HeldStdin(lines[5] + "\n", lines[3] + "\n", reached),
          OutputStream.nullOutputStream());
    } finally {
      Files.deleteIfExists(reached);
      Files.deleteIfExists(gates);
      Files.deleteIfExists(tape);
    }
  }

  /** Stdin that gives its first line, then its second once {@code until} exists, then ends. */
  private static final class HeldStdin extends InputStream {
    private final byte[] first;
    private final byte[] second;
    private final Path until;
    private int read;

    HeldStdin(String first, String second, Path until) {
      this.first = first.getBytes(StandardCharsets.UTF_8);
      this.second = second.getBytes(StandardCharsets.UTF_8);
      this.until = until;
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (read == 0) {
        read = 1;
        System.arraycopy(first, 0, b, off, first.length);
        return first.length;
      }
      if (read == 1) {
        read = 2;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!Files.exists(until) && System.nanoTime() < deadline) {
          try {
            Thread.sleep(1);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
          }
        }
        System.arraycopy(second, 0, b, off, second.length);
        return second.length;
      }
      return -1;
    }
  }

  private static void claudeSession(List<String> argv, Path tape, String stdin) {
    play(
        "claude",
        argv,
        Map.of(FakeEnvironment.TAPE, tape.toString(), FakeEnvironment.TIMING, "fast"),
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        OutputStream.nullOutputStream());
  }

  /** Runs of {@code claude}: every print format, the partial lines asked and not, its answers. */
  private static void claude(Path dir) throws IOException {
    Path tape = dir.resolve("claude.tape.ndjson");
    try {
      Files.writeString(tape, CLAUDE_TAPE, StandardCharsets.UTF_8);
      Map<String, String> env =
          Map.of(FakeEnvironment.TAPE, tape.toString(), FakeEnvironment.TIMING, "fast");
      for (List<String> argv :
          List.of(
              List.of("-p", "--output-format", "stream-json", "--verbose", "p"),
              List.of(
                  "-p",
                  "--output-format",
                  "stream-json",
                  "--verbose",
                  "--include-partial-messages",
                  "--model",
                  "sonnet",
                  "p"),
              List.of("-p", "--output-format", "json", "p"),
              List.of(
                  "-p", "--output-format=json", "--verbose", "--allowedTools", "Read", "--", "p"),
              List.of("-p", "--resume", "11111111-2222-4333-8444-555555555555", "p"),
              List.of("-p", "--output-format", "stream-json", "p"),
              List.of("--version"),
              List.of("-p", "--bogus"))) {
        play("claude", argv, env);
      }
      claudeSessions(dir, tape);
    } finally {
      Files.deleteIfExists(tape);
    }
  }

  /** A run of {@code program} in process, its output dropped, stdin at its end. */
  private static void play(String program, List<String> argv, Map<String, String> env) {
    play(
        program, argv, env, new ByteArrayInputStream(new byte[0]), OutputStream.nullOutputStream());
  }

  /**
   * A run of {@code program} in process in {@code /w}, reading {@code stdin} (not a terminal) and
   * writing its output to {@code stdout}, its errors dropped.
   */
  private static void play(
      String program,
      List<String> argv,
      Map<String, String> env,
      InputStream stdin,
      OutputStream stdout) {
    new Impersonation(
            program,
            argv,
            env,
            "/w",
            "/h",
            false,
            false,
            stdin,
            stdout,
            OutputStream.nullOutputStream(),
            System.nanoTime(),
            1)
        .run();
  }

  /** Answers one HTTP request with {@code body}, as the control plane would. */
  private static void serveOnce(ServerSocket server, byte[] body) {
    try (Socket socket = server.accept()) {
      InputStream in = socket.getInputStream();
      byte[] buf = new byte[8192];
      int total = 0;
      int headerEnd = -1;
      int length = 0;
      while (headerEnd < 0 || total < headerEnd + length) {
        int n = in.read(buf, total, buf.length - total);
        if (n < 0) {
          break;
        }
        total += n;
        String head = new String(buf, 0, total, StandardCharsets.ISO_8859_1);
        int end = head.indexOf("\r\n\r\n");
        if (headerEnd < 0 && end >= 0) {
          headerEnd = end + 4;
          for (String line : head.substring(0, end).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
              length = Integer.parseInt(line.substring(15).strip());
            }
          }
        }
      }
      OutputStream out = socket.getOutputStream();
      out.write(
          ("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: "
                  + body.length
                  + "\r\nX-AgentDouble-Tape: training\r\nConnection: close\r\n\r\n")
              .getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
    } catch (IOException | RuntimeException e) {
      // training only: the archive is made from whatever ran
    }
  }

  /**
   * A big tape's path: validated and kept in the replay cache, then replayed twice onto a file,
   * taken from it, with its big value copied by the kernel.
   */
  private static void bigTape(Path dir) throws IOException {
    Path tape = dir.resolve("big.tape.ndjson");
    Path cache = dir.resolve("cache");
    Path stdout = dir.resolve("stdout");
    String value = "{\"type\":\"assistant\",\"text\":\"" + "x".repeat(300 * 1024) + "\"}";
    try {
      Files.writeString(
          tape,
          "{\"tape\":1}\n{\"t\":0,\"out\":" + value + "}\n{\"t\":0,\"exit\":0}\n",
          StandardCharsets.UTF_8);
      // an entry is kept for a tape that stood unchanged a while: on a clock set that much ahead
      try (TapeSource source = TapeSource.of(tape)) {
        new ValidationCache(cache, new Ahead(ValidationCache.SETTLED_MS + 20)).checked(source);
      }
      for (int run = 0; run < 2; run++) {
        try (OutputStream out = new FileOutputStream(stdout.toFile())) {
          play(
              "cursor-agent",
              List.of("-p", "--trust", "p"),
              Map.of(
                  FakeEnvironment.TAPE,
                  tape.toString(),
                  FakeEnvironment.TIMING,
                  "fast",
                  FakeEnvironment.CACHE_DIR,
                  cache.toString()),
              new ByteArrayInputStream(new byte[0]),
              out);
        }
      }
    } finally {
      deleteTree(cache.toFile()); // the cache's own folder inside, with its entries
      Files.deleteIfExists(stdout);
      Files.deleteIfExists(tape);
    }
  }

  /**
   * A tape chosen from a folder ({@code AGENTDOUBLE_TAPES}): one whose {@code match} misses every
   * condition, then one without.
   */
  private static void tapesFolder(Path dir) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("tapes"));
    Path missed = folder.resolve("a.tape.ndjson");
    Path chosen = folder.resolve("b.tape.ndjson");
    try {
      Files.writeString(
          missed,
          "{\"tape\":1,\"match\":{\"prompt\":\"^q\",\"argv\":[\"-f\"],\"outputFormat\":\"json\","
              + "\"model\":\"m\"}}\n{\"t\":0,\"exit\":0}\n",
          StandardCharsets.UTF_8);
      Files.writeString(chosen, TAPE, StandardCharsets.UTF_8);
      TapeSelection.Result result =
          TapeSelection.select(
              Map.of(FakeEnvironment.TAPES, folder.toString()),
              InvocationRecord.builder()
                  .argv(List.of("-p", "p"))
                  .prompt("p")
                  .outputFormat(OutputFormat.STREAM_JSON.cliName())
                  .cli("cursor-agent")
                  .build());
      if (result instanceof TapeSelection.Selected selected) {
        selected.source().close();
      }
    } finally {
      Files.deleteIfExists(missed);
      Files.deleteIfExists(chosen);
      Files.deleteIfExists(folder);
    }
  }

  /** The wall clock {@code ms} ahead: a class, not a lambda, as on the replay path. */
  private static final class Ahead implements LongSupplier {
    private final long ms;

    Ahead(long ms) {
      this.ms = ms;
    }

    @Override
    public long getAsLong() {
      return System.currentTimeMillis() + ms;
    }
  }

  private static void deleteTree(File file) throws IOException {
    File[] inside = file.listFiles();
    for (File f : inside == null ? new File[0] : inside) {
      deleteTree(f);
    }
    Files.deleteIfExists(file.toPath());
  }

  public static void main(String[] args) throws IOException {
    // what FakeAgent.main touches besides Impersonation.run: its own class, the process
    // environment,
    // the signal handlers
    Signals.install(Impersonation.aborting());
    // a run's environment is the process's, whose names a run goes through (Turn, Journal); the
    // runs below are handed maps of their own
    System.getenv().keySet().iterator().hasNext();
    ProcessClock.originNanos();
    String mainClass = Main.class.getName();
    Path dir = Files.createTempDirectory("agentdouble-cds");
    Path tape = dir.resolve("training.tape.ndjson");
    Path journal = dir.resolve("journal.ndjson");
    try {
      Files.writeString(tape, TAPE, StandardCharsets.UTF_8);
      // the default timing, recorded, as most runs have it (the tape's gaps are 1 ms at most)
      Map<String, String> env =
          Map.of(
              FakeEnvironment.TAPE, tape.toString(), FakeEnvironment.JOURNAL, journal.toString());
      for (List<String> argv :
          List.of(
              // --trust: the fake plays a fresh machine, where a run without it stops at the
              // workspace trust gate before it reads a tape (and the archive would miss the replay)
              List.of(
                  "-p",
                  "--trust",
                  "--output-format",
                  "stream-json",
                  "--model",
                  "composer-2.5",
                  "p"),
              List.of("-p", "--trust", "--output-format", "json", "p"),
              List.of("-p", "--trust", "--output-format", "text", "p"),
              // a fresh machine's run: the workspace trust gate
              List.of("-p", "--output-format", "json", "p"),
              List.of("--version"),
              List.of("status"),
              List.of("-p", "--bogus"))) {
        play("cursor-agent", argv, env);
      }
      // the JUnit extension's path: the tape comes from a control server over HTTP
      try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        Thread answer = new Thread(() -> serveOnce(server, TAPE.getBytes(StandardCharsets.UTF_8)));
        answer.setDaemon(true);
        answer.start();
        Map<String, String> url =
            Map.of(
                FakeEnvironment.URL,
                "http://127.0.0.1:" + server.getLocalPort() + "/agentdouble/training",
                FakeEnvironment.SECRET,
                "training",
                FakeEnvironment.TIMING,
                "fast");
        // as a process of its own does first thing (Impersonation.fromProcess)
        ControlClient.warmUp(url.get(FakeEnvironment.URL));
        play("cursor-agent", List.of("-p", "--trust", "p"), url);
      }
      // the JUnit extension's path for an enqueued tape: taken from its queue folder, no request
      Path queue =
          Files.createDirectories(dir.resolve("queue").resolve(QueueFiles.TAKEN)).getParent();
      String entry = QueueFiles.entry(1);
      Files.writeString(queue.resolve(entry + QueueFiles.META), "training\nfast\n");
      Files.writeString(queue.resolve(entry + QueueFiles.TAPE), TAPE, StandardCharsets.UTF_8);
      QueuedTapes.ready(queue.toString());
      play(
          "cursor-agent",
          List.of("-p", "--trust", "p"),
          Map.of(
              FakeEnvironment.URL,
              "http://127.0.0.1:9/agentdouble/training",
              FakeEnvironment.QUEUE,
              queue.toString(),
              FakeEnvironment.TIMING,
              "fast"));
      deleteTree(queue.toFile());
      // a built-in tape: the catalog's index and a tape read from the jar
      play(
          "cursor-agent",
          List.of("-p", "--trust", "p"),
          Map.of(
              FakeEnvironment.TAPE,
              FakeEnvironment.BUILTIN + "documented-minimal",
              FakeEnvironment.TIMING,
              "fast"));
      // every built-in profile: a run under one that names a base (ProfileOverlay) takes its
      // classes from the archive too
      for (String name : Profiles.builtInNames()) {
        Profiles.builtIn(name);
      }
      // what only a process of its own loads, which the runs above, made in process, never do:
      // Main's last step tells the endings apart (each class it names is loaded by every run) and
      // ends as the tape says (Death), a waiting run watches its parent. Loaded, not run: one class
      // outside the archive opens the jar, some 10 ms of a run.
      for (String name :
          List.of(
              Frame.Exit.class.getName(),
              Frame.Kill.class.getName(),
              Frame.Hang.class.getName(),
              Owner.class.getName() + "$Watcher",
              Death.class.getName())) {
        try {
          Class.forName(name, false, Training.class.getClassLoader());
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException(e);
        }
      }
      bigTape(dir);
      tapesFolder(dir);
      claude(dir);
      if (mainClass.isEmpty()) {
        throw new AssertionError();
      }
    } finally {
      Files.deleteIfExists(tape);
      Files.deleteIfExists(journal);
      Files.deleteIfExists(dir);
    }
  }
}
