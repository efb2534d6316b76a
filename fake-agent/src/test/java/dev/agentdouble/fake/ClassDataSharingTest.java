package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentdouble.contract.Launch;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data sharing archive the launcher makes from {@code Training} holds what a replay
 * loads, in every output format: a replay takes its classes from the archive, not from the jar (a
 * training that stops at the trust gate would leave the whole replay out, and every invocation
 * would load it from the jar, some 20 ms more per run). The archive is a static one, the JDK's
 * classes and ours in one file: it starts a replay faster than a dynamic one on top of the JDK's.
 */
@Timeout(300)
class ClassDataSharingTest {
  @TempDir Path dir;

  /**
   * Classes every replay loads, past the trust gate: its profile's reading, the tape's reading and
   * its playing.
   */
  private static final List<String> REPLAY =
      List.of(
          "dev.agentdouble.fake.internal.profile.ProfileResource",
          "dev.agentdouble.fake.internal.profile.PackageResource",
          "dev.agentdouble.fake.internal.profile.CompiledResources",
          "dev.agentdouble.fake.internal.source.TapeSelection",
          "dev.agentdouble.fake.internal.run.Player",
          "dev.agentdouble.tape.TapeScanner",
          "dev.agentdouble.tape.HeaderCodec");

  /** And what json and text add: the rendering. */
  private static final List<String> RENDERING =
      List.of("dev.agentdouble.render.Renderer", "dev.agentdouble.event.EventLine");

  @Test
  void aReplayInEveryFormatTakesItsClassesFromTheArchive() throws Exception {
    Path jar = FakeProcess.root().resolve("fake-agent/target/fake-agent.jar");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path archive = dir.resolve("fake-agent.jsa");
    for (List<String> step :
        Launch.archiveCommands(
            java.toString(), jar.toString(), dir.resolve("fake-agent.classes"), archive)) {
      assertThat(run(step, Map.of()).exit).as("%s", step).isZero();
    }
    assertThat(archive).isRegularFile();

    // "based": a run under a profile that names a base (2026.09), whose overlay is read too;
    // "non-ascii": a json run of a tape whose text is not ASCII (the JSON cursor's UTF-8 path)
    Path nonAscii = dir.resolve("non-ascii.tape.ndjson");
    Files.writeString(
        nonAscii,
        "{\"tape\":1}\n"
            + "{\"t\":0,\"outRaw\":\"{\\\"type\\\":\\\"system\\\",\\\"subtype\\\":\\\"init\\\","
            + "\\\"session_id\\\":\\\"s\\\"}\\n\"}\n"
            + "{\"t\":0,\"outRaw\":\"{\\\"type\\\":\\\"assistant\\\",\\\"message\\\":{\\\"content\\\":"
            + "[{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"café ⚠\\\"}]},\\\"session_id\\\":\\\"s\\\"}\\n\"}\n"
            + "{\"t\":1,\"outRaw\":\"{\\\"type\\\":\\\"result\\\",\\\"subtype\\\":\\\"success\\\","
            + "\\\"is_error\\\":false,\\\"result\\\":\\\"café ⚠\\\",\\\"session_id\\\":\\\"s\\\"}\\n\"}\n"
            + "{\"t\":1,\"exit\":0}\n",
        StandardCharsets.UTF_8);
    Path claudeTape = dir.resolve("claude.tape.ndjson");
    Files.writeString(claudeTape, CLAUDE_TAPE, StandardCharsets.UTF_8);
    for (String format :
        List.of(
            "stream-json",
            "json",
            "text",
            "gate",
            "based",
            "non-ascii",
            "claude-stream-json",
            "claude-json",
            "claude-text",
            "claude-session",
            "claude-turns",
            "claude-interrupt")) {
      if (format.equals("claude-interrupt")) {
        claudeInterrupt(java, jar, archive);
        continue;
      }
      if (format.equals("claude-session") || format.equals("claude-turns")) {
        claudeSession(java, jar, archive, format.equals("claude-session") ? null : claudeTape);
        continue;
      }
      if (format.startsWith("claude-")) {
        claudeReplay(java, jar, archive, claudeTape, format.substring("claude-".length()));
        continue;
      }
      List<String> replay =
          onTheArchive(java, jar, archive, dir.resolve(format + ".log"), false, "-p");
      // "gate": a fresh machine's run without --trust, stopped at the workspace trust gate
      replay.addAll(
          format.equals("gate")
              ? List.of("--output-format", "json")
              : List.of(
                  "--trust",
                  "--output-format",
                  switch (format) {
                    case "based" -> "stream-json";
                    case "non-ascii" -> "json";
                    default -> format;
                  }));
      replay.add("Say hello");
      Map<String, String> env = new HashMap<>();
      env.put(
          "AGENTDOUBLE_TAPE",
          format.equals("non-ascii") ? nonAscii.toString() : "builtin:documented-minimal");
      if (format.equals("based")) {
        env.put("AGENTDOUBLE_PROFILE", "2026.09");
      }
      Run r = run(replay, env);
      assertThat(r.exit).as("%s: %s", format, r.out).isEqualTo(format.equals("gate") ? 1 : 0);
      // not one class from the jar: the first one opens it, some 10 ms of every run
      noClassFromTheJar(dir.resolve(format + ".log"), format);
      noCostlySubsystem(dir.resolve(format + ".log"), format);
      if (format.equals("non-ascii")) {
        // a tape of its own, not the catalog's, which is read from the jar
        jarNeverOpened(dir.resolve(format + ".log"), format);
      }
      String log = Files.readString(dir.resolve(format + ".log"), StandardCharsets.UTF_8);
      if (format.equals("gate")) {
        continue;
      }
      List<String> wanted = new ArrayList<>(REPLAY);
      if (format.equals("based")) {
        // a profile that names a base is made as the build read it, overlay and all
        assertThat(log)
            .as("based: the overlay read at run time")
            .doesNotContain("] dev.agentdouble.fake.internal.profile.ProfileOverlay ");
      } else if (!format.equals("stream-json")) {
        wanted.addAll(RENDERING);
      }
      for (String name : wanted) {
        assertThat(log)
            .as("%s: where %s came from", format, name)
            // one static archive: a dynamic one, layered on the JDK's, says "(top)" after it
            .containsPattern(
                "(?m)\\] " + name.replace(".", "\\.") + " source: shared objects file$");
      }
    }
  }

  /**
   * A Claude Code tape in stream-json with partial messages (what ClaudeDerivationTest replays, in
   * small): its partial lines are dropped, or it is derived into json or text (with the note before
   * an unrecognised model's stderr line); its times (an ISO {@code timestamp}, a {@code resetsAt})
   * move with the live clock, its socket and its cwd inside a message are the live ones.
   */
  private static final String CLAUDE_TAPE =
      "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\","
          + "\"vars\":{\"epochMs\":1784000000000,\"cwd\":\"/w\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\","
          + "\"messaging_socket_path\":\"/tmp/cc-socks/4242.sock\"}}\n"
          + "{\"t\":0,\"err\":\"[claude-code:unrecognized_model] {\\\"model\\\":\\\"m\\\"}\\n\"}\n"
          + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"permission_denied\","
          + "\"message\":\"touch in '/w/made.txt' needs approval\",\"session_id\":\"s\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"resetsAt\":"
          + "1784018000},\"session_id\":\"s\",\"timestamp\":\"2026-07-14T03:33:20.005Z\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"stream_event\",\"event\":{\"type\":\"message_stop\"},"
          + "\"session_id\":\"s\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
          + "\"result\":\"hi\",\"session_id\":\"s\"}}\n"
          + "{\"t\":1,\"exit\":0}\n";

  /** A replay of {@code claude} in {@code format}: not one class from the jar. */
  private void claudeReplay(Path java, Path jar, Path archive, Path tape, String format)
      throws Exception {
    Path log = dir.resolve("claude-" + format + ".log");
    List<String> replay =
        onTheArchive(
            java,
            jar,
            archive,
            log,
            true,
            "-p",
            "--output-format",
            format,
            "--verbose",
            "Say hello");
    Run r = run(replay, Map.of("AGENTDOUBLE_TAPE", tape.toString()));
    assertThat(r.exit).as("claude %s: %s", format, r.out).isZero();
    assertThat(r.out).as("claude %s", format).contains("hi").doesNotContain("message_stop");
    noClassFromTheJar(log, "claude " + format);
    noCostlySubsystem(log, "claude " + format);
    jarNeverOpened(log, "claude " + format);
    assertThat(Files.readString(log, StandardCharsets.UTF_8))
        .as("claude %s: the ISO timestamp moved, from the archive", format)
        .containsPattern(
            "(?m)\\] dev\\.agentdouble\\.fake\\.internal\\.run\\.IsoDigits source: shared objects"
                + " file$");
  }

  /**
   * {@code claude --input-format stream-json} under the Agent SDK's argv: a recorded session played
   * in lockstep with stdin ({@code turnTape} null), or a turn per user message on {@code turnTape};
   * not one class from the jar.
   */
  private void claudeSession(Path java, Path jar, Path archive, Path turnTape) throws Exception {
    String name = turnTape == null ? "claude-session" : "claude-turns";
    Path log = dir.resolve(name + ".log");
    Path tape = turnTape;
    String stdin = USER + "\n" + USER.replace("Say hello", "Say more") + "\n";
    if (tape == null) {
      tape = dir.resolve("claude-session.tape.ndjson");
      Files.writeString(tape, CLAUDE_SESSION, StandardCharsets.UTF_8);
      stdin = INITIALIZE + "\n" + USER + "\n";
    }
    List<String> command =
        onTheArchive(
            java,
            jar,
            archive,
            log,
            true,
            "--output-format",
            "stream-json",
            "--verbose",
            "--input-format",
            "stream-json",
            "--permission-prompt-tool=stdio");
    TestProcess.Result r =
        TestProcess.command(command)
            .directory(dir)
            .mergeErrors()
            .stdin(stdin.getBytes(StandardCharsets.UTF_8))
            .withoutEnv("AGENTDOUBLE_")
            .env(Map.of("AGENTDOUBLE_TAPE", tape.toString()))
            .patience(Duration.ofSeconds(120))
            .run();
    assertThat(r.exit()).as("%s: %s", name, r.out()).isZero();
    assertThat(r.out().lines().filter(l -> l.contains("\"type\":\"result\"")).count())
        .as("%s: its results", name)
        .isEqualTo(turnTape == null ? 1 : 2);
    noClassFromTheJar(log, name);
  }

  /**
   * A per-message turn held at a gate and interrupted there (the session's reading thread, the
   * stopped turn's lines): not one class from the jar.
   */
  private void claudeInterrupt(Path java, Path jar, Path archive) throws Exception {
    Path log = dir.resolve("claude-interrupt.log");
    Path gates = Files.createDirectories(dir.resolve("gates"));
    Path tape = dir.resolve("claude-gated.tape.ndjson");
    Files.writeString(
        tape,
        "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\"}\n"
            + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}}\n"
            + "{\"t\":0,\"gate\":\"g\"}\n"
            + "{\"t\":0,\"exit\":0}\n",
        StandardCharsets.UTF_8);
    List<String> command =
        onTheArchive(
            java,
            jar,
            archive,
            log,
            true,
            "--output-format",
            "stream-json",
            "--verbose",
            "--input-format",
            "stream-json");
    try (TestProcess p =
        TestProcess.command(command)
            .directory(dir)
            .withoutEnv("AGENTDOUBLE_")
            .env(Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_GATES", gates.toString()))
            .patience(Duration.ofSeconds(120))
            .start()) {
      p.send(USER);
      await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(gates.resolve("g.reached")));
      p.send(
          "{\"type\":\"control_request\",\"request_id\":\"i\",\"request\":"
              + "{\"subtype\":\"interrupt\"}}");
      p.awaitOut("error_during_execution");
      p.closeStdin();
      assertThat(p.waitFor()).as(p.err()).isEqualTo(1); // an interrupted last turn (runs part q)
    }
    noClassFromTheJar(log, "claude-interrupt");
  }

  /**
   * The fake on {@code archive} ({@code claude}: started as {@code bin/claude}), each class it
   * loads written to {@code log}, with {@code args}.
   */
  private static List<String> onTheArchive(
      Path java, Path jar, Path archive, Path log, boolean claude, String... args) {
    List<String> command =
        new ArrayList<>(
            List.of(
                java.toString(),
                "-XX:SharedArchiveFile=" + archive,
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-Xlog:class+load:file=" + log));
    if (claude) {
      command.add("-Dagentdouble.invokedAs=/bin/claude");
    }
    command.addAll(List.of("-cp", jar.toString(), Launch.FAKE_MAIN));
    command.addAll(List.of(args));
    return command;
  }

  /** The run {@code what} whose classes {@code log} lists loaded not one class from the jar. */
  private static void noClassFromTheJar(Path log, String what) throws IOException {
    assertThat(loaded(log, " source: file:"))
        .as("%s: classes loaded from the jar, not the archive", what)
        .isEmpty();
  }

  /** The lines of the class-load {@code log} that hold any of {@code parts}. */
  private static List<String> loaded(Path log, String... parts) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      for (String part : parts) {
        if (line.contains(part)) {
          lines.add(line);
          break;
        }
      }
    }
    return lines;
  }

  /**
   * What a replay never needs and each run would pay for, from archive or not (issue 34's
   * start-up): NIO's file channels for a tape or a {@code /proc} file (some forty classes, a
   * millisecond and more), the floating-point parser, and the {@code VarHandle}s that {@code
   * UUID.toString} makes on JDK 21 and later (some 2 ms). A kernel copy of a big value still opens
   * a channel: no tape here has one.
   */
  private static void noCostlySubsystem(Path log, String what) throws IOException {
    assertThat(
            loaded(
                log,
                "] java.nio.channels.FileChannel ",
                "] jdk.internal.math.FloatingDecimal ",
                "] java.lang.invoke.VarHandleByteArrayAs",
                "] java.util.SplittableRandom "))
        .as("%s: classes a replay does without", what)
        .isEmpty();
  }

  /**
   * The run {@code what} whose classes {@code log} lists never opened the jar: its profile came
   * from the archive's classes too, not from the jar's resources (its directory read, an entry
   * inflated: milliseconds of every run).
   */
  private static void jarNeverOpened(Path log, String what) throws IOException {
    assertThat(Files.readAllLines(log, StandardCharsets.UTF_8))
        .as("%s: a zip file opened (a resource read from the jar)", what)
        .noneMatch(l -> l.contains("] java.util.zip.ZipFile$Source "));
  }

  private static final String USER =
      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"Say hello\"},"
          + "\"parent_tool_use_id\":null,\"session_id\":\"\"}";

  private static final String INITIALIZE =
      "{\"request_id\":\"k3j5h6g7f8d\",\"type\":\"control_request\",\"request\":"
          + "{\"subtype\":\"initialize\"}}";

  /** A session recorded under the SDK, in small: initialize, a user message, its answer. */
  private static final String CLAUDE_SESSION =
      "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\"}\n"
          + "{\"t\":0,\"in\":"
          + INITIALIZE.replace("k3j5h6g7f8d", "r0")
          + "}\n"
          + "{\"t\":0,\"in\":"
          + USER
          + "}\n"
          + "{\"t\":0,\"out\":{\"type\":\"control_response\",\"response\":{\"subtype\":"
          + "\"success\",\"request_id\":\"r0\",\"response\":{}}}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
          + "\"result\":\"hi\",\"session_id\":\"s\"}}\n"
          + "{\"t\":1,\"exit\":0}\n";

  /**
   * No replay spins a class at run time: a lambda, a method reference or an invokedynamic string
   * concatenation on the start-up path costs some 90 classes and a bytecode generator per run (tens
   * of milliseconds), archive or not. Each format, over tapes that take the renderers' branches
   * (thinking, tools, unknown events, partial output).
   */
  @Test
  void aReplaySpinsNoClassAtRunTime() throws Exception {
    Path jar = FakeProcess.root().resolve("fake-agent/target/fake-agent.jar");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<List<String>> runs = new ArrayList<>();
    for (String tape :
        List.of(
            "documented-tools",
            "thinking-then-answer",
            "unknown-events-and-fields",
            "tool-shell",
            "stream-partial-output")) {
      for (String format : List.of("stream-json", "json", "text")) {
        runs.add(List.of(tape, "--output-format", format));
      }
    }
    runs.add(
        List.of("documented-minimal", "--output-format", "stream-json", "--stream-partial-output"));
    for (List<String> run : runs) {
      Path log = dir.resolve(String.join("-", run) + ".log");
      List<String> command =
          new ArrayList<>(
              List.of(
                  java.toString(),
                  "-Xshare:auto",
                  "-XX:TieredStopAtLevel=1",
                  "-Xlog:class+load:file=" + log,
                  "-cp",
                  jar.toString(),
                  Launch.FAKE_MAIN,
                  "-p",
                  "--trust"));
      command.addAll(run.subList(1, run.size()));
      command.add("Say hello");
      Run r = run(command, Map.of("AGENTDOUBLE_TAPE", "builtin:" + run.get(0)));
      assertThat(r.exit).as("%s: %s", run, r.out).isNotEqualTo(70);
      assertThat(
              loaded(
                  log, "$$Lambda", "__JVM_LookupDefineClass__", "jdk.internal.org.objectweb.asm."))
          .as("%s: classes made at run time", run)
          .isEmpty();
    }
  }

  record Run(int exit, String out) {}

  private Run run(List<String> command, Map<String, String> env) throws Exception {
    TestProcess.Result r =
        TestProcess.command(command)
            .directory(dir)
            .mergeErrors()
            .noStdin()
            .withoutEnv("AGENTDOUBLE_")
            .env(env)
            .patience(Duration.ofSeconds(120))
            .run();
    return new Run(r.exit(), r.out());
  }
}
