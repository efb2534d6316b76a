package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code claude --input-format stream-json --output-format stream-json --verbose} through the real
 * launcher: one process, many turns, the client's lines on stdin. The real CLI's behaviour is
 * docs/claude-2.1.328-runs.md parts f, g, h and i (runs of the real 2.1.328 here) and
 * claude-code.md §2.
 */
@Timeout(120)
class ClaudeStdinSessionTest {
  private static final List<String> ARGV =
      List.of("--output-format", "stream-json", "--verbose", "--input-format", "stream-json");

  /** The SDK's argv (FINDINGS g.1): no {@code -p}, {@code =stdio} in one word. */
  private static final List<String> SDK_ARGV =
      List.of(
          "--output-format",
          "stream-json",
          "--verbose",
          "--input-format",
          "stream-json",
          "--permission-prompt-tool=stdio");

  private static final String RECORDED_SESSION = "5f0c3a9e-1b2d-4e6f-8a7b-9c0d1e2f3a4b";

  @TempDir Path dir;

  private static String user(String text) {
    return "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
        + "\""
        + text
        + "\""
        + "},\"parent_tool_use_id\":null,\"session_id\":\"\"}";
  }

  private static String init() {
    return "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/home/dev/shop\",\"session_id\":\""
        + RECORDED_SESSION
        + "\",\"model\":\"claude-opus-5-5\"}";
  }

  private static String result(String text) {
    return "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\""
        + text
        + "\",\"session_id\":\""
        + RECORDED_SESSION
        + "\"}";
  }

  private Path tape(String name, List<Frame> frames) throws IOException {
    Header header =
        Header.builder()
            .cli("claude")
            .cliVersion("2.1.328")
            .argv(SDK_ARGV)
            .outputFormat(OutputFormat.STREAM_JSON)
            .vars(
                new Vars(
                    Optional.of(RECORDED_SESSION),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    OptionalLong.empty(),
                    Map.of()))
            .build();
    Path file = dir.resolve(name + ".tape.ndjson");
    new Tape(header, frames).write(file);
    return file;
  }

  /** A print tape of one turn: init, the answer, its result. */
  private Path answer(String name, String text) throws IOException {
    return tape(
        name,
        List.of(
            new Frame.Out(0, init()),
            new Frame.Out(1, assistant(text)),
            new Frame.Out(2, result(text)),
            new Frame.Exit(3, 0)));
  }

  private static String assistant(String text) {
    return "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":"
        + "\"text\",\"text\":\""
        + text
        + "\"}]},\"session_id\":\""
        + RECORDED_SESSION
        + "\"}";
  }

  private FakeProcess.Result run(Map<String, String> env, List<String> argv, String... lines) {
    StringBuilder stdin = new StringBuilder();
    for (String line : lines) {
      stdin.append(line).append('\n');
    }
    return FakeProcess.run(
        ClaudeArgvTest.claude(),
        env,
        stdin.toString().getBytes(StandardCharsets.UTF_8),
        argv.toArray(String[]::new));
  }

  private static List<JsonNode> lines(FakeProcess.Result r) {
    return r.out().lines().map(AcpPeer::parse).toList();
  }

  @Test
  void eachUserLineIsATurnOfItsOwnWithInitAndResultUnderOneSessionId() throws IOException {
    // FINDINGS f.2: init, assistant, result per turn; init again per turn, one session id
    Path tape = answer("hello", "Hello.");
    Path journal = dir.resolve("journal.ndjson");
    FakeProcess.Result r =
        run(
            Map.of(
                "AGENTDOUBLE_TAPE", tape.toString(),
                "AGENTDOUBLE_TIMING", "fast",
                "AGENTDOUBLE_JOURNAL", journal.toString()),
            ARGV,
            user("First question"),
            user("Second question"));

    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> out = lines(r);
    assertThat(out)
        .extracting(l -> l.path("type").asText() + "/" + l.path("subtype").asText())
        .containsExactly(
            "system/init",
            "assistant/",
            "result/success",
            "system/init",
            "assistant/",
            "result/success");
    String session = out.get(0).path("session_id").asText();
    assertThat(session).isNotEqualTo(RECORDED_SESSION);
    assertThat(out).extracting(l -> l.path("session_id").asText()).containsOnly(session);
    // one journal line a turn, with its prompt
    assertThat(Files.readAllLines(journal, StandardCharsets.UTF_8))
        .extracting(l -> AcpPeer.parse(l).path("prompt").asText())
        .containsExactly("First question", "Second question");
  }

  @Test
  void eachTurnsResultCountsTheSessionsResultsFromZero() throws IOException {
    // FINDINGS f.2 and f.4: result_index 0, then 1, ...; a tape of one turn holds its run's 0
    Path tape =
        tape(
            "indexed",
            List.of(
                new Frame.Out(0, init()),
                new Frame.Out(1, assistant("Hello.")),
                new Frame.Out(
                    2,
                    "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
                        + "\"result\":\"Hello.\",\"session_id\":\""
                        + RECORDED_SESSION
                        + "\",\"result_index\":0,\"model_usage_since_last_result\":{}}"),
                new Frame.Exit(3, 0)));
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            ARGV,
            user("First question"),
            user("Second question"),
            user("Third question"));

    assertThat(r.exit()).as(r.err()).isZero();
    List<JsonNode> results =
        lines(r).stream().filter(l -> l.path("type").asText().equals("result")).toList();
    assertThat(results).extracting(l -> l.path("result_index").asInt()).containsExactly(0, 1, 2);
    // the rest of the line as recorded, in its order
    assertThat(results.get(2).fieldNames())
        .toIterable()
        .containsExactly(
            "type",
            "subtype",
            "is_error",
            "result",
            "session_id",
            "result_index",
            "model_usage_since_last_result");
  }

  /**
   * A session's init names the live project folder, as a print run's does (runs part j: {@code
   * $HOME/.claude/projects/<the git root or cwd, every other character as ->/memory/}): in a turn
   * per user line and in a recorded session alike, never the tape's {@code /home/dev} form.
   */
  @Test
  void aSessionsInitNamesTheLiveProjectFolder() throws IOException {
    Path home = Files.createDirectories(dir.resolve("home"));
    String recordedInit =
        "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/home/dev/shop\",\"session_id\":\""
            + RECORDED_SESSION
            + "\",\"memory_paths\":{\"auto\":\"/home/dev/.claude/projects/-home-dev-shop/memory/\"}}";
    Vars vars =
        new Vars(
            Optional.of(RECORDED_SESSION),
            Optional.of("/home/dev/shop"),
            Optional.of("/home/dev"),
            Optional.empty(),
            OptionalLong.empty(),
            Map.of());
    Path perTurn = dir.resolve("turn.tape.ndjson");
    new Tape(
            Header.builder()
                .cli("claude")
                .argv(ARGV)
                .outputFormat(OutputFormat.STREAM_JSON)
                .vars(vars)
                .build(),
            List.of(
                new Frame.Out(0, recordedInit),
                new Frame.Out(1, result("Hi.")),
                new Frame.Exit(2, 0)))
        .write(perTurn);
    Path recorded = dir.resolve("recorded.tape.ndjson");
    new Tape(
            Header.builder()
                .cli("claude")
                .argv(SDK_ARGV)
                .outputFormat(OutputFormat.STREAM_JSON)
                .vars(vars)
                .build(),
            List.of(
                new Frame.In(0, user("Hello")),
                new Frame.Out(1, recordedInit),
                new Frame.Out(2, result("Hi.")),
                new Frame.Exit(3, 0)))
        .write(recorded);

    for (Path tape : List.of(perTurn, recorded)) {
      FakeProcess.Result r =
          run(
              Map.of(
                  "AGENTDOUBLE_TAPE", tape.toString(),
                  "AGENTDOUBLE_TIMING", "fast",
                  "HOME", home.toString()),
              tape == perTurn ? ARGV : SDK_ARGV,
              user("Hello"));

      assertThat(r.exit()).as(r.err()).isZero();
      String auto = lines(r).get(0).at("/memory_paths/auto").asText();
      assertThat(auto)
          .as("%s", tape.getFileName())
          .startsWith(home + "/.claude/projects/-")
          .endsWith("/memory/")
          .doesNotContain("-home-dev-shop");
    }
  }

  @Test
  void aTurnsTapeIsChosenByItsPromptFromTheTapesFolder() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("tapes"));
    Path first = answer("first", "One.");
    Path second = answer("second", "Two.");
    write(first, folder.resolve("a.tape.ndjson"), "First");
    write(second, folder.resolve("b.tape.ndjson"), "Second");
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPES", folder.toString(), "AGENTDOUBLE_TIMING", "fast"),
            ARGV,
            user("Second question"),
            user("First question"));

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(lines(r))
        .filteredOn(l -> l.path("type").asText().equals("result"))
        .extracting(l -> l.path("result").asText())
        .containsExactly("Two.", "One.");
  }

  /** {@code from} with a match on a prompt that contains {@code word}, written to {@code to}. */
  private static void write(Path from, Path to, String word) throws IOException {
    List<String> lines = Files.readAllLines(from, StandardCharsets.UTF_8);
    String header = lines.get(0);
    lines.set(
        0, header.substring(0, header.length() - 1) + ",\"match\":{\"prompt\":\"" + word + "\"}}");
    Files.write(to, lines, StandardCharsets.UTF_8);
  }

  @Test
  void aLineThatIsNotJsonEndsTheRunAsTheRealCliDoes() throws IOException {
    // FINDINGS i.1: stdout empty, exit 1, the parse error with the line's type and length
    Path tape = answer("hello", "Hello.");
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            ARGV,
            "this is not json");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("Error parsing streaming input line (type=unknown, 16 chars): SyntaxError\n");

    FakeProcess.Result truncated =
        run(
            Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            ARGV,
            "{\"type\":\"user\"");
    assertThat(truncated.err())
        .isEqualTo("Error parsing streaming input line (type=user, 14 chars): SyntaxError\n");
  }

  @Test
  void controlRequestsBetweenTurnsAreAnsweredAndUnknownOnesRefusedAsTheRealCliDoes()
      throws IOException {
    Path tape = answer("hello", "Hello.");
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            ARGV,
            "{\"type\":\"bogus\",\"x\":1}",
            "{\"type\":\"control_request\",\"request_id\":\"req_x\",\"request\":{\"subtype\":"
                + "\"no_such_subtype\"}}",
            "{\"request_id\":\"63e2ah5ce96\",\"type\":\"control_request\",\"request\":{\"subtype\":"
                + "\"initialize\",\"systemPrompt\":[\"\"]}}",
            user("First question"));

    assertThat(r.exit()).as(r.err()).isZero();
    List<String> out = r.out().lines().toList();
    // FINDINGS i.2 (the bogus type ignored) and i.3 (this line, byte for byte)
    assertThat(out.get(0))
        .isEqualTo(
            "{\"type\":\"control_response\",\"response\":{\"subtype\":\"error\",\"request_id\":"
                + "\"req_x\",\"error\":\"Unsupported control request subtype: no_such_subtype\","
                + "\"error_code\":\"unsupported_request\"}}");
    // FINDINGS g.5: the SDK takes a success with an empty response
    assertThat(AcpPeer.parse(out.get(1)).path("response").path("request_id").asText())
        .isEqualTo("63e2ah5ce96");
    assertThat(out.subList(2, out.size()))
        .extracting(l -> AcpPeer.parse(l).path("type").asText())
        .containsExactly("system", "assistant", "result");
  }

  @Test
  void initializeIsAnsweredWithTheRealClisLineUnderTheClientsIdThisPidAndHome()
      throws IOException, URISyntaxException {
    // FINDINGS f.3 and g.4: the real 2.1.328's line, the same in its own run and under the SDK;
    // the capture (claude-2.1.328/runs/f-initialize) has its home as TMP/home
    Path tape = answer("hello", "Hello.");
    Path journal = dir.resolve("journal.ndjson");
    Path home = dir.resolve("home");
    FakeProcess.Result r =
        run(
            Map.of(
                "AGENTDOUBLE_TAPE", tape.toString(),
                "AGENTDOUBLE_TIMING", "fast",
                "AGENTDOUBLE_JOURNAL", journal.toString(),
                "HOME", home.toString()),
            SDK_ARGV,
            initialize("63e2ah5ce96"),
            user("First question"));

    assertThat(r.exit()).as(r.err()).isZero();
    long pid =
        AcpPeer.parse(Files.readAllLines(journal, StandardCharsets.UTF_8).get(0))
            .path("pid")
            .asLong();
    Path capture =
        Path.of(getClass().getResource("/claude-2.1.328/runs/f-initialize/stdout-line-1").toURI());
    String real = Files.readString(capture, StandardCharsets.UTF_8);
    assertThat(r.out().lines().findFirst().orElseThrow() + "\n")
        .isEqualTo(
            real.replace("\"req_init_1\"", "\"63e2ah5ce96\"")
                .replace("\"pid\":16830", "\"pid\":" + pid)
                .replace("TMP/home", home.toString()));
    assertThat(pid).isPositive();
  }

  @Test
  void anInterruptStopsTheRunningTurnAsTheRealCliDoesAndTheNextLineStartsATurn() throws Exception {
    // FINDINGS f.4: the answer, the interrupted user line, the error_during_execution result;
    // the turn held open at a gate the test never releases
    Path gates = Files.createDirectories(dir.resolve("gates"));
    Path tape =
        tape(
            "gated",
            List.of(
                new Frame.Out(0, init()),
                new Frame.Gate(1, "thinking"),
                new Frame.Out(2, assistant("Late.")),
                new Frame.Out(3, result("Late.")),
                new Frame.Exit(4, 0)));
    Path second = answer("second", "Second answer.");
    Path folder = Files.createDirectories(dir.resolve("tapes"));
    write(tape, folder.resolve("a.tape.ndjson"), "First");
    write(second, folder.resolve("b.tape.ndjson"), "Second");
    try (TestProcess p =
        TestProcess.of(
                FakeProcess.builder(
                    ClaudeArgvTest.claude(),
                    Map.of(
                        "AGENTDOUBLE_TAPES", folder.toString(),
                        "AGENTDOUBLE_TIMING", "fast",
                        "AGENTDOUBLE_GATES", gates.toString()),
                    SDK_ARGV))
            .patience(Duration.ofSeconds(60))
            .start()) {
      p.send(user("First question"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.exists(gates.resolve("thinking.reached")));
      p.send(
          "{\"type\":\"control_request\",\"request_id\":\"req_int_1\",\"request\":"
              + "{\"subtype\":\"interrupt\"}}");
      p.awaitOut("error_during_execution");
      p.send(user("Second question"));
      p.closeStdin();
      assertThat(p.waitFor()).as(p.err()).isZero();

      List<String> out = p.out().lines().toList();
      assertThat(out).noneMatch(l -> l.contains("Late."));
      assertThat(out.get(1))
          .isEqualTo(
              "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\","
                  + "\"request_id\":\"req_int_1\",\"response\":{\"still_queued\":[]}}}");
      JsonNode user = AcpPeer.parse(out.get(2));
      String session = AcpPeer.parse(out.get(0)).path("session_id").asText();
      assertThat(user.path("message").toString())
          .isEqualTo(
              "{\"role\":\"user\",\"content\":[{\"type\":\"text\","
                  + "\"text\":\"[Request interrupted by user]\"}]}");
      assertThat(user.path("session_id").asText()).isEqualTo(session);
      JsonNode result = AcpPeer.parse(out.get(3));
      assertThat(result.path("subtype").asText()).isEqualTo("error_during_execution");
      assertThat(result.path("is_error").asBoolean()).isTrue();
      assertThat(result.path("terminal_reason").asText()).isEqualTo("aborted_streaming");
      assertThat(result.path("errors").get(0).asText())
          .isEqualTo("[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null");
      assertThat(result.path("result_index").asInt()).isZero();
      assertThat(result.path("session_id").asText()).isEqualTo(session);
      // the next user line is a turn of its own under the same session
      assertThat(out.subList(4, out.size()))
          .extracting(l -> AcpPeer.parse(l).path("type").asText())
          .containsExactly("system", "assistant", "result");
      assertThat(AcpPeer.parse(out.get(6)).path("result").asText()).isEqualTo("Second answer.");
    }
  }

  private static String interrupt(String id) {
    return "{\"type\":\"control_request\",\"request_id\":\""
        + id
        + "\",\"request\":{\"subtype\":\"interrupt\"}}";
  }

  /**
   * The output of a turn that an interrupt stopped (FINDINGS f.4): the answer to {@code id}, the
   * interrupted user line, the error_during_execution result; nothing of the tape's after it.
   */
  private static void assertInterrupted(List<String> out, String id, String late) {
    assertThat(out).noneMatch(l -> l.contains(late));
    assertThat(out)
        .contains(
            "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\","
                + "\"request_id\":\""
                + id
                + "\",\"response\":{\"still_queued\":[]}}}");
    List<JsonNode> results =
        out.stream()
            .map(AcpPeer::parse)
            .filter(l -> l.path("type").asText().equals("result"))
            .toList();
    assertThat(results).hasSize(1);
    assertThat(results.get(0).path("subtype").asText()).isEqualTo("error_during_execution");
    assertThat(results.get(0).path("terminal_reason").asText()).isEqualTo("aborted_streaming");
  }

  @Test
  void anInterruptWrittenWithTheUserLineInterruptsThatLinesTurn() throws IOException {
    // the real CLI interrupts the turn it accepted: the interrupt comes before any answer could;
    // the two lines in one write are read together, so the turn cannot end before the interrupt
    Path tape = answer("hello", "Hello.");
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            SDK_ARGV,
            user("First question"),
            interrupt("req_int_1"));

    // an interrupted last turn: exit 1 at EOF (runs part o.1, p)
    assertThat(r.exit()).as(r.err()).isEqualTo(1);
    assertInterrupted(r.out().lines().toList(), "req_int_1", "Hello.");
  }

  @Test
  void aTurnInterruptedBeforeItPlayedPrintsItsInitAfterTheAnswerAsTheRealCliDoes()
      throws IOException {
    // runs part o.1: the answer, system/init, the interrupted user line, the result; the two lines
    // in one write are read together, so the interrupt reaches the turn before its first frame
    Path tape = answer("hello", "Hello.");
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            SDK_ARGV,
            user("First question"),
            interrupt("req_int_1"));

    List<JsonNode> out = lines(r);
    assertThat(out)
        .extracting(l -> l.path("type").asText() + "/" + l.path("subtype").asText())
        .containsExactly(
            "control_response/", "system/init", "user/", "result/error_during_execution");
    assertThat(out.get(1).path("model").asText()).isEqualTo("claude-opus-5-5");
    String session = out.get(1).path("session_id").asText();
    assertThat(session).isNotEmpty();
    assertThat(out.get(2).path("session_id").asText()).isEqualTo(session);
    assertThat(out.get(3).path("session_id").asText()).isEqualTo(session);
  }

  @Test
  void theExitAtTheEndOfStdinIsTheLastTurnsAsTheRealClisIs() throws IOException {
    // runs part q: 1 when the last turn's result is an error, whatever came before; else 0
    Path folder = Files.createDirectories(dir.resolve("tapes"));
    write(answer("pass", "Passed."), folder.resolve("a.tape.ndjson"), "Pass");
    Path fail =
        tape(
            "fail",
            List.of(
                new Frame.Out(0, init()),
                new Frame.Out(
                    1,
                    "{\"type\":\"result\",\"subtype\":\"error_max_turns\",\"is_error\":true,"
                        + "\"session_id\":\""
                        + RECORDED_SESSION
                        + "\"}"),
                new Frame.Exit(2, 1)));
    write(fail, folder.resolve("b.tape.ndjson"), "Fail");
    Map<String, String> env =
        Map.of("AGENTDOUBLE_TAPES", folder.toString(), "AGENTDOUBLE_TIMING", "fast");

    FakeProcess.Result failedLast = run(env, ARGV, user("Pass one"), user("Fail one"));
    FakeProcess.Result passedLast = run(env, ARGV, user("Fail one"), user("Pass one"));

    assertThat(failedLast.exit()).as(failedLast.err()).isEqualTo(1);
    assertThat(passedLast.exit()).as(passedLast.err()).isZero();
    assertThat(lines(passedLast))
        .filteredOn(l -> l.path("type").asText().equals("result"))
        .extracting(l -> l.path("is_error").asBoolean())
        .containsExactly(true, false);
  }

  @Test
  void anInterruptWrittenJustAfterTheUserLineInterruptsThatLinesTurn() throws IOException {
    // the turn is held at a gate the test never releases: it cannot end before the interrupt,
    // which may come before the turn started to play
    Path gates = Files.createDirectories(dir.resolve("gates"));
    Path tape =
        tape(
            "gated",
            List.of(
                new Frame.Out(0, init()),
                new Frame.Gate(1, "thinking"),
                new Frame.Out(2, assistant("Late.")),
                new Frame.Out(3, result("Late.")),
                new Frame.Exit(4, 0)));
    try (TestProcess p =
        TestProcess.of(
                FakeProcess.builder(
                    ClaudeArgvTest.claude(),
                    Map.of(
                        "AGENTDOUBLE_TAPE", tape.toString(),
                        "AGENTDOUBLE_TIMING", "fast",
                        "AGENTDOUBLE_GATES", gates.toString()),
                    SDK_ARGV))
            .patience(Duration.ofSeconds(30))
            .start()) {
      p.send(user("First question"));
      p.send(interrupt("req_int_1"));
      p.awaitOut("error_during_execution");
      p.closeStdin();
      assertThat(p.waitFor()).as(p.err()).isEqualTo(1);
      assertInterrupted(p.out().lines().toList(), "req_int_1", "Late.");
    }
  }

  @Test
  void linesThatComeDuringATurnAreBoundedAndTheSessionEndsWithOneLineOfOurs() throws IOException {
    // in a heap of 64 MiB, 96 MiB of control requests while a turn is held at a gate: at most
    // 256 wait for the session; the next ends it, exit 70, said in one line, never an OOM
    Path gates = Files.createDirectories(dir.resolve("gates"));
    Path tape =
        tape(
            "gated",
            List.of(
                new Frame.Out(0, init()),
                new Frame.Gate(1, "thinking"),
                new Frame.Out(2, result("Late.")),
                new Frame.Exit(3, 0)));
    String pad = "x".repeat(8 << 10);
    try (TestProcess p =
        TestProcess.of(
                FakeProcess.builder(
                    ClaudeArgvTest.claude(),
                    Map.of(
                        "AGENTDOUBLE_TAPE",
                        tape.toString(),
                        "AGENTDOUBLE_TIMING",
                        "fast",
                        "AGENTDOUBLE_GATES",
                        gates.toString(),
                        "JAVA_TOOL_OPTIONS",
                        "-Xmx64m"),
                    SDK_ARGV))
            .patience(Duration.ofSeconds(60))
            .start()) {
      p.send(user("First question"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.exists(gates.resolve("thinking.reached")));
      StringBuilder batch = new StringBuilder();
      try {
        for (int i = 0; i < 12_000; i++) {
          batch
              .append("{\"type\":\"control_request\",\"request_id\":\"r")
              .append(i)
              .append("\",\"request\":{\"subtype\":\"no_such_subtype\",\"pad\":\"")
              .append(pad)
              .append("\"}}\n");
          if (batch.length() > 1 << 16) {
            p.stdin().write(batch.toString().getBytes(StandardCharsets.UTF_8));
            batch.setLength(0);
          }
        }
        p.closeStdin();
      } catch (IOException | UncheckedIOException e) {
        // the fake stopped reading and ended: the rest is never read
      }

      assertThat(p.waitFor()).isEqualTo(70);
      assertThat(p.err().lines().filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS")))
          .containsExactly(
              "agentdouble: stdin line 258: 256 lines already wait for the session, the most"
                  + " this fake keeps (a turn was running); send the next message after the"
                  + " turn's result");
      assertThat(p.out()).doesNotContain("Late.");
    }
  }

  /** A recorded session: initialize, a turn with a can_use_tool request and its answer. */
  private Path session() throws IOException {
    String canUseTool =
        "{\"type\":\"control_request\",\"request_id\":\"00000000-0000-4000-8000-000000000006\","
            + "\"request\":{\"subtype\":\"can_use_tool\",\"tool_name\":\"Bash\",\"input\":"
            + "{\"command\":\"touch made.txt\"},\"tool_use_id\":\"toolu_01\"}}";
    return tape(
        "session",
        List.of(
            new Frame.In(2, initialize("905uk22uf7g")),
            new Frame.In(2, user("Make a file")),
            new Frame.Out(357, initialized("905uk22uf7g")),
            new Frame.Out(423, init()),
            new Frame.Out(538, canUseTool),
            new Frame.In(542, allow("00000000-0000-4000-8000-000000000006")),
            new Frame.Out(616, result("Done with the file.")),
            new Frame.Exit(727, 0)));
  }

  private static String initialize(String id) {
    return "{\"request_id\":\""
        + id
        + "\",\"type\":\"control_request\",\"request\":{\"subtype\":\"initialize\"}}";
  }

  private static String initialized(String id) {
    return "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\""
        + id
        + "\",\"response\":{\"pid\":4242}}}";
  }

  private static String allow(String id) {
    return "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":\""
        + id
        + "\",\"response\":{\"behavior\":\"allow\",\"updatedInput\":{\"command\":\"touch"
        + " made.txt\"}}}}";
  }

  @Test
  void aRecordedSessionPlaysInLockstepUnderTheClientsRequestIds() throws IOException {
    // FINDINGS h: the SDK's request ids are its own; the CLI's can_use_tool id is answered as is
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", session().toString(), "AGENTDOUBLE_TIMING", "fast"),
            SDK_ARGV,
            initialize("live0000001"),
            user("Make a file"),
            allow("00000000-0000-4000-8000-000000000006"));

    assertThat(r.exit()).as(r.err()).isZero();
    List<String> out = r.out().lines().toList();
    assertThat(out.get(0)).isEqualTo(initialized("live0000001"));
    assertThat(AcpPeer.parse(out.get(2)).path("request_id").asText())
        .isEqualTo("00000000-0000-4000-8000-000000000006");
    String session = AcpPeer.parse(out.get(1)).path("session_id").asText();
    assertThat(session).isNotEqualTo(RECORDED_SESSION);
    assertThat(AcpPeer.parse(out.get(3)).path("session_id").asText()).isEqualTo(session);
  }

  @Test
  void aClientThatDeniesWhatTheSessionAllowedFailsWithTheTapesLine() throws IOException {
    String deny =
        allow("00000000-0000-4000-8000-000000000006")
            .replace("\"behavior\":\"allow\"", "\"behavior\":\"deny\"");
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", session().toString(), "AGENTDOUBLE_TIMING", "fast"),
            SDK_ARGV,
            initialize("live0000001"),
            user("Make a file"),
            deny);

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err())
        .contains(
            "session.tape.ndjson:7: the client sent control_response to"
                + " \"00000000-0000-4000-8000-000000000006\" (deny), the tape has"
                + " control_response to \"00000000-0000-4000-8000-000000000006\" (allow)");
  }

  @Test
  void stdinEndingWhereTheSessionWaitsEndsItAsTheRealCliEndsAtEof() throws IOException {
    // FINDINGS f.1-2: EOF ends the process, exit 0
    FakeProcess.Result r =
        run(
            Map.of("AGENTDOUBLE_TAPE", session().toString(), "AGENTDOUBLE_TIMING", "fast"),
            SDK_ARGV,
            initialize("live0000001"));
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEmpty();
  }
}
