package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TextStyle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in tape replayed through the real launcher ({@code AGENTDOUBLE_TAPE=builtin:NAME}) in
 * every output format it declares: stdout and stderr byte for byte as the tape renders, and the
 * ending (exit status, death by signal, hang) as the tape says. Then the properties consumers rely
 * on, scenario by scenario.
 */
@Timeout(300)
class CatalogReplayTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** How long a hanging fake is watched to see that it does not exit. */
  static final Duration STILL_RUNNING = Duration.ofMillis(500);

  @TempDir Path dir;

  /** Claude Code's tapes are replayed by the fake's {@code claude}, not by cursor-agent. */
  static boolean cursors(Catalog.Entry entry) {
    return !entry.name().startsWith("claude-");
  }

  static Stream<Arguments> entriesInTheirFormats() {
    return Catalog.entries().stream()
        .filter(CatalogReplayTest::cursors)
        .flatMap(
            entry -> entry.formats().stream().map(format -> Arguments.of(entry.name(), format)));
  }

  /**
   * The environment and arguments under which a replay is byte-identical to the tape: its session
   * id, cwd, prompt and start time given back to the fake.
   */
  private static List<String> args(Tape tape, OutputFormat format, String... more) {
    Header header = tape.header();
    List<String> args =
        new ArrayList<>(
            List.of(
                "-p",
                "--output-format",
                format.cliName(),
                "--resume",
                header.vars().sessionId().orElseThrow(),
                "--workspace",
                header.vars().cwd().orElseThrow()));
    args.addAll(List.of(more));
    args.add("--");
    args.add(header.vars().prompt().orElseThrow());
    return args;
  }

  private static Map<String, String> builtin(String name, Tape tape, String... more) {
    Map<String, String> env =
        new HashMap<>(
            env(
                "AGENTDOUBLE_TAPE",
                "builtin:" + name,
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_EPOCH_MS",
                Long.toString(tape.header().vars().epochMs().orElseThrow())));
    env.putAll(env(more));
    return env;
  }

  private static byte[] stdout(Tape rendered) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame frame : rendered.frames()) {
      if (frame instanceof Frame.Out out) {
        bytes.writeBytes((out.json() + "\n").getBytes(StandardCharsets.UTF_8));
      } else if (frame instanceof Frame.OutBytes raw) {
        bytes.writeBytes(raw.bytes());
      }
    }
    return bytes.toByteArray();
  }

  private static byte[] stderr(Tape tape) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame frame : tape.frames()) {
      if (frame instanceof Frame.Err err) {
        bytes.writeBytes(err.bytes());
      }
    }
    return bytes.toByteArray();
  }

  private static FakeProcess.Result run(Map<String, String> env, List<String> args) {
    return FakeProcess.run(FakeProcess.launcher(), env, new byte[0], args.toArray(String[]::new));
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("entriesInTheirFormats")
  void replaysAsItsTapeRendersAndEndsAsItSays(String name, OutputFormat format) throws Exception {
    Tape tape = Catalog.tape(name);
    Tape rendered =
        Renderer.render(
            tape,
            format,
            tape.header().textStyle().orElse(TextStyle.FINAL)); // the default profile's
    Map<String, String> env = builtin(name, tape);
    // a run in a workspace not trusted yet plays behind the gate with --trust (the gate itself:
    // CliChecksTest); text mode moves the connection lines to stderr, so stderr is the rendered one
    List<String> args =
        tape.header().extras().containsKey("trust")
            ? args(tape, format, "--trust")
            : args(tape, format);

    if (tape.ending() instanceof Frame.Hang hang) {
      Hanging run = Hanging.start(env, args, dir);
      try {
        if (hang.closeStdout()) {
          run.stdout.awaitEnd();
        } else {
          run.awaitJournaledHang();
          run.stdout.awaitSize(stdout(rendered).length);
        }
        assertThat(run.process.waitFor(STILL_RUNNING.toMillis(), TimeUnit.MILLISECONDS))
            .as("%s still running after its output", name)
            .isFalse();
      } finally {
        FakeProcess.kill(run.process);
      }
      assertThat(run.stdout.bytes()).isEqualTo(stdout(rendered));
      assertThat(run.stderr.awaitEnd()).isEqualTo(stderr(rendered));
      return;
    }
    FakeProcess.Result r = run(env, args);

    assertThat(r.stdout()).as("stdout of %s as %s", name, format).isEqualTo(stdout(rendered));
    assertThat(r.err()).isEqualTo(new String(stderr(rendered), StandardCharsets.UTF_8));
    int expected =
        tape.ending() instanceof Frame.Kill kill
            ? kill.shellStatus()
            : ((Frame.Exit) tape.ending()).code();
    assertThat(r.exit()).as("exit status of %s as %s", name, format).isEqualTo(expected);
  }

  @Test
  void anUnknownBuiltinNameExits70AndNamesTheClosestOnes() {
    FakeProcess.Result r =
        FakeProcess.run(env("AGENTDOUBLE_TAPE", "builtin:usage-limits"), "-p", "hi");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.err())
        .startsWith(
            "agentdouble: AGENTDOUBLE_TAPE=builtin:usage-limits: no"
                + " built-in tape named \"usage-limits\"; did you mean usage-limit")
        .endsWith("\n");
    assertThat(r.err()).contains("`agentdouble catalog` lists all");
  }

  @Test
  void notLoggedInWritesNothingOnStdoutAndExits1() {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:not-logged-in", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "hi");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err()).startsWith("Error: Authentication required.");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void theUsageLimitWritesInitAndUserThenStderrAndExits1() throws Exception {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:usage-limit", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "refactor it");

    assertThat(types(r.out())).containsExactly("system/init", "user");
    assertThat(events(r.out()).get(1).at("/message/content/0/text").asText())
        .isEqualTo("refactor it");
    assertThat(r.err()).startsWith("ActionRequiredError: You've hit your usage limit");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void retriesExhaustedReconnectsThreeTimesThenFails() throws Exception {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:retries-exhausted", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "go");

    assertThat(types(r.out())).filteredOn("connection/reconnecting"::equals).hasSize(3);
    assertThat(types(r.out())).doesNotContain("result/success");
    assertThat(r.err()).contains("exceeded max retries");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void killedMidToolCallDiesBySigkillAfterAWholeLine() throws Exception {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:killed-mid-tool-call", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "test it");

    assertThat(r.exit()).isEqualTo(137);
    assertThat(r.out()).endsWith("\n");
    assertThat(types(r.out())).last().isEqualTo("tool_call/started");
  }

  @Test
  void killedMidLineDiesBySigkillInsideALine() {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:killed-mid-line", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "find it");

    assertThat(r.exit()).isEqualTo(137);
    assertThat(r.out()).doesNotEndWith("\n");
    assertThat(r.out().substring(r.out().lastIndexOf('\n') + 1))
        .startsWith("{\"type\":\"tool_call\",\"subtype\":\"completed\"");
  }

  @Test
  void lingeringAfterResultClosesStdoutAndStaysAlive() throws Exception {
    Hanging run =
        Hanging.start(
            env("AGENTDOUBLE_TAPE", "builtin:lingering-after-result", "AGENTDOUBLE_TIMING", "fast"),
            List.of("-p", "--output-format", "stream-json", "hi"),
            dir);
    try {
      byte[] out = run.stdout.awaitEnd(); // end of file: stdout was closed

      assertThat(types(new String(out, StandardCharsets.UTF_8))).last().isEqualTo("result/success");
      assertThat(run.process.isAlive()).isTrue();
      assertThat(run.process.waitFor(STILL_RUNNING.toMillis(), TimeUnit.MILLISECONDS)).isFalse();
    } finally {
      FakeProcess.kill(run.process);
    }
    assertThat(run.process.isAlive()).isFalse();
  }

  @Test
  void hangMidStreamNeverExitsUntilKilled() throws Exception {
    Tape tape = Catalog.tape("hang-mid-stream");
    Hanging run =
        Hanging.start(builtin("hang-mid-stream", tape), args(tape, OutputFormat.STREAM_JSON), dir);
    try {
      run.stdout.awaitSize(stdout(tape).length);

      assertThat(run.process.waitFor(STILL_RUNNING.toMillis(), TimeUnit.MILLISECONDS))
          .as("exited although the tape hangs")
          .isFalse();
      assertThat(types(new String(run.stdout.bytes(), StandardCharsets.UTF_8)))
          .last()
          .isEqualTo("tool_call/started");
      assertThat(Files.readString(run.journal()))
          .contains("\"tape\":\"builtin:hang-mid-stream\"", "\"hang\":true");
    } finally {
      FakeProcess.kill(run.process);
    }
    assertThat(run.process.isAlive()).isFalse();
  }

  @Test
  void textModeIsSilentUntilTheRunEnds() throws Exception {
    // the built-in tape with a gate before its ending, to look at stdout just before the exit
    Tape tape = Catalog.tape("text-silent-until-exit");
    List<Frame> frames = new ArrayList<>(tape.frames());
    frames.add(frames.size() - 1, new Frame.Gate(tape.ending().t(), "ending"));
    Path gated = dir.resolve("gated.tape.ndjson");
    new Tape(tape.header(), frames).write(gated);
    Path gates = Files.createDirectory(dir.resolve("gates"));

    Hanging run =
        Hanging.start(
            env(
                "AGENTDOUBLE_TAPE",
                gated.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_GATES",
                gates.toString()),
            List.of("-p", "--output-format", "text", "Run the tests"),
            dir);
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.exists(gates.resolve("ending.reached")));
      assertThat(run.stdout.bytes()).as("text written before the end").isEmpty();

      Files.createFile(gates.resolve("ending.release"));

      assertThat(new String(run.stdout.awaitEnd(), StandardCharsets.UTF_8))
          .isEqualTo("I'll run `npm test`.\nAll 12 tests pass.\n");
      assertThat(run.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(run.process.exitValue()).isZero();
    } finally {
      FakeProcess.kill(run.process);
    }
  }

  /** What the 2026.10 text format prints for the retries-exhausted tape's three cycles. */
  static final String RECONNECT_LINES =
      "Connection lost, reconnecting to https://agentn.global.api5.cursor.sh (attempt 1)...\n"
          + "Retry attempt 1...\n"
          + "Connection lost, reconnecting to https://agentn.global.api5.cursor.sh (attempt 2)...\n"
          + "Retry attempt 2...\n"
          + "Connection lost, reconnecting to https://agentn.global.api5.cursor.sh (attempt 3)...\n"
          + "Retry attempt 3...\n";

  @Test
  void text2026PrintsTheReconnectAndRetryLinesOfARunThatRunsOutOfRetriesOnStderr() {
    FakeProcess.Result r =
        FakeProcess.run(
            env(
                "AGENTDOUBLE_TAPE",
                "builtin:retries-exhausted",
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_PROFILE",
                "2026.10"),
            "-p",
            "--output-format",
            "text",
            "Refactor the checkout flow");

    // on stderr, as a real 2026 text run whose answer and stderr were kept apart shows them
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(RECONNECT_LINES + CursorMessages.RETRIES_EXHAUSTED);
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void text2026PrintsAReconnectLineWhenItHappensNotAtTheEnd() throws Exception {
    // the built-in tape with a gate after its first reconnect, to look at stdout there
    Tape tape = Catalog.tape("retries-exhausted");
    List<Frame> frames = new ArrayList<>(tape.frames());
    frames.add(3, new Frame.Gate(frames.get(2).t(), "reconnecting"));
    Path gated = dir.resolve("gated.tape.ndjson");
    new Tape(tape.header(), frames).write(gated);
    Path gates = Files.createDirectory(dir.resolve("gates"));

    Hanging run =
        Hanging.start(
            env(
                "AGENTDOUBLE_TAPE",
                gated.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_PROFILE",
                "2026.10",
                "AGENTDOUBLE_GATES",
                gates.toString()),
            List.of("-p", "--output-format", "text", "Refactor the checkout flow"),
            dir);
    try {
      await()
          .atMost(FakeProcess.TIMEOUT)
          .until(() -> Files.exists(gates.resolve("reconnecting.reached")));
      String first = RECONNECT_LINES.substring(0, RECONNECT_LINES.indexOf('\n') + 1);
      run.stderr.awaitSize(first.length());
      assertThat(new String(run.stderr.bytes(), StandardCharsets.UTF_8)).isEqualTo(first);

      Files.createFile(gates.resolve("reconnecting.release"));

      assertThat(new String(run.stderr.awaitEnd(), StandardCharsets.UTF_8))
          .isEqualTo(RECONNECT_LINES + CursorMessages.RETRIES_EXHAUSTED);
      assertThat(run.stdout.awaitEnd()).isEmpty();
      assertThat(run.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(run.process.exitValue()).isEqualTo(1);
    } finally {
      FakeProcess.kill(run.process);
    }
  }

  @Test
  void showThinkingAddsTheThinkingBlocksToTheJsonResult() throws Exception {
    Map<String, String> env =
        env("AGENTDOUBLE_TAPE", "builtin:thinking-then-answer", "AGENTDOUBLE_TIMING", "fast");
    FakeProcess.Result shown =
        FakeProcess.run(
            env, "-p", "--output-format", "json", "--show-thinking", "Is 2026 a leap year?");
    FakeProcess.Result plain =
        FakeProcess.run(env, "-p", "--output-format", "json", "Is 2026 a leap year?");

    assertThat(shown.out())
        .contains(
            ",\"result\":\"No. 2026 is not divisible by 4, so it is not"
                + " a leap year.\",\"thinking_blocks\":[{\"text\":\"The user asks whether 2026 is a leap"
                + " year. 2026 is not divisible by 4, so it is not.\"}],\"session_id\":");
    assertThat(shown.exit()).isZero();
    assertThat(plain.out()).startsWith("{\"type\":\"result\"").doesNotContain("thinking_blocks");
  }

  @Test
  void theResumePairKeepsOneSessionAcrossTurns() throws Exception {
    FakeProcess.Result first =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:resume-first-turn", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "My name is Ada.");
    String session = events(first.out()).get(0).get("session_id").asText();
    FakeProcess.Result second =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:resume-second-turn", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "--resume",
            session,
            "What is my name?");

    assertThat(session).matches("[0-9a-f-]{36}");
    assertThat(events(second.out()))
        .allSatisfy(e -> assertThat(e.get("session_id").asText()).isEqualTo(session));
    assertThat(events(second.out()))
        .last()
        .satisfies(
            result -> assertThat(result.get("result").asText()).isEqualTo("Your name is Ada."));
  }

  @Test
  void hugeLineArrivesAsOneLineOfOver32MiB() {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:huge-line", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "check the log");

    int longest = 0;
    int start = 0;
    byte[] out = r.stdout();
    for (int i = 0; i < out.length; i++) {
      if (out[i] == '\n') {
        longest = Math.max(longest, i - start);
        start = i + 1;
      }
    }
    assertThat(longest).isGreaterThan(32 << 20);
    assertThat(r.exit()).isZero();
  }

  @Test
  void stderrFloodWritesOneMibOfStderrAndThenARun() throws Exception {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", "builtin:stderr-flood", "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "what is it");

    assertThat(r.stderr()).hasSize(1 << 20);
    assertThat(types(r.out())).first().isEqualTo("system/init");
    assertThat(types(r.out())).last().isEqualTo("result/success");
    assertThat(r.exit()).isZero();
  }

  private static List<JsonNode> events(String stdout) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    for (String line : stdout.split("\n")) {
      events.add(JSON.readTree(line));
    }
    return events;
  }

  private static List<String> types(String stdout) throws IOException {
    return events(stdout).stream()
        .map(
            e ->
                e.path("type").asText()
                    + (e.has("subtype") ? "/" + e.path("subtype").asText() : ""))
        .toList();
  }

  /** A fake that may never exit: its output drained as it comes, its journal in {@code dir}. */
  private record Hanging(
      Process process, FakeProcess.Drain stdout, FakeProcess.Drain stderr, Path journal) {
    static Hanging start(Map<String, String> env, List<String> args, Path dir) throws IOException {
      Path journal = Files.createTempFile(dir, "journal", ".ndjson");
      Map<String, String> withJournal = new HashMap<>(env);
      withJournal.put("AGENTDOUBLE_JOURNAL", journal.toString());
      Process p = FakeProcess.builder(FakeProcess.launcher(), withJournal, args).start();
      p.getOutputStream().close();
      return new Hanging(
          p,
          new FakeProcess.Drain(p.getInputStream()),
          new FakeProcess.Drain(p.getErrorStream()),
          journal);
    }

    /** Waits until the fake has journaled that it replays a hanging tape. */
    void awaitJournaledHang() {
      await()
          .atMost(FakeProcess.TIMEOUT)
          .until(() -> Files.readString(journal).contains("\"hang\":true"));
    }
  }
}
