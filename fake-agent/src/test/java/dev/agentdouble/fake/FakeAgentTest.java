package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.run;
import static dev.agentdouble.fake.FakeProcess.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.testing.TestProcess;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class FakeAgentTest {
  static final String SID = "0f6fa7cf-4483-4a6d-ab20-21fb703f6e97";
  static final String INIT =
      "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
          + "\"cwd\":\"/rec/project\",\"session_id\":\""
          + SID
          + "\",\"model\":\"Auto\",\"permissionMode\":\"default\"}";
  static final String USER =
      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\","
          + "\"text\":\"recorded prompt\"}]},\"session_id\":\""
          + SID
          + "\"}";
  static final String ASSISTANT =
      "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":"
          + "[{\"type\":\"text\",\"text\":\"recorded prompt is in /rec/project/a.txt\"}]},\"session_id\":\""
          + SID
          + "\",\"timestamp_ms\":1000500}";
  static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":9,\"duration_api_ms\":9,"
          + "\"is_error\":false,\"result\":\"recorded prompt is in /rec/project/a.txt\",\"session_id\":\""
          + SID
          + "\",\"request_id\":\"r-1\"}";
  static final String VARS_HEADER =
      "{\"tape\":1,\"outputFormat\":\"stream-json\",\"vars\":{\"sessionId\":\""
          + SID
          + "\",\"cwd\":\"/rec/project\",\"prompt\":\"recorded prompt\",\"epochMs\":1000000}}\n";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private Path tape(String body) {
    return write(dir, "run.tape.ndjson", body);
  }

  private static String frames(String... lines) {
    return String.join("\n", lines) + "\n";
  }

  @Test
  void replaysStdoutStderrAndExitByteForByte() {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0,\"out\":" + INIT + "}",
                "{\"t\":1,\"outRaw\":\"not json\\n\"}",
                "{\"t\":2,\"err\":\"warning: slow\\n\"}",
                "{\"t\":3,\"outRaw\":\"{\\\"type\\\":\\\"assist\"}",
                "{\"t\":3,\"outRaw\":\"ant\\\"}\\n\"}",
                "{\"t\":4,\"outB64\":\"/+4K\"}",
                "{\"t\":5,\"exit\":3}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "hello");

    byte[] expected =
        (INIT + "\nnot json\n{\"type\":\"assistant\"}\n").getBytes(StandardCharsets.UTF_8);
    byte[] tail = {(byte) 0xff, (byte) 0xee, '\n'};
    assertThat(r.stdout()).startsWith(expected).endsWith(tail).hasSize(expected.length + 3);
    assertThat(r.err()).isEqualTo("warning: slow\n");
    assertThat(r.exit()).isEqualTo(3);
  }

  /**
   * The launcher's own JVM options never clash with a user's: a small {@code -Xmx} in {@code
   * JAVA_TOOL_OPTIONS} (which the JVM reads before them) once met {@code -Xms32m} and the JVM did
   * not start ("Initial heap size set to a larger value than the maximum heap size").
   */
  @Test
  void aUsersSmallMaximumHeapStillStartsTheFake() {
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"out\":" + INIT + "}", "{\"t\":1,\"exit\":0}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "JAVA_TOOL_OPTIONS", "-Xmx8m"),
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "hi");

    assertThat(r.err()).doesNotContain("Error occurred during initialization of VM");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"subtype\":\"init\"");
  }

  @Test
  void writesOutValuesCompactlyWhateverTheTapesSpacingAndKeepsEverythingElse() {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0, \"out\": {\"type\": \"a b\", \"n\": [1.50, 2e3], \"s\": \"\\u00e9 \\\" x\"}}",
                "{\"out\":{\"type\":\"second\"},\"t\":1}",
                "{\"t\":2,\"out\":{\"type\":\"third\"}}",
                "{\"t\":3,\"exit\":0}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "x");

    assertThat(r.out())
        .isEqualTo(
            "{\"type\":\"a b\",\"n\":[1.50,2e3],\"s\":\"\\u00e9 \\\" x\"}\n"
                + "{\"type\":\"second\"}\n{\"type\":\"third\"}\n");
  }

  @Test
  void substitutesAFreshSessionIdTheLiveCwdAndThePrompt() throws Exception {
    Path tape =
        tape(
            VARS_HEADER
                + frames(
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":0,\"out\":" + USER + "}",
                    "{\"t\":5,\"out\":" + ASSISTANT + "}",
                    "{\"t\":9,\"out\":" + RESULT + "}",
                    "{\"t\":9,\"exit\":0}"));

    FakeProcess.Result r =
        run(
            env(
                "AGENTDOUBLE_TAPE",
                tape.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_EPOCH_MS",
                "2000000"),
            "-p",
            "--output-format",
            "stream-json",
            "--workspace",
            "/live/ws",
            "what is live");

    List<JsonNode> events = events(r.out());
    String sessionId = events.get(0).get("session_id").asText();
    assertThat(sessionId).isNotEqualTo(SID).matches("[0-9a-f-]{36}");
    assertThat(events)
        .allSatisfy(e -> assertThat(e.get("session_id").asText()).isEqualTo(sessionId));
    assertThat(events.get(0).get("cwd").asText()).isEqualTo("/live/ws");
    assertThat(events.get(1).at("/message/content/0/text").asText()).isEqualTo("what is live");
    // the prompt is replaced only in the user event; cwd only where a string starts with it
    assertThat(events.get(2).at("/message/content/0/text").asText())
        .isEqualTo("recorded prompt is in /rec/project/a.txt");
    assertThat(events.get(2).get("timestamp_ms").asLong()).isEqualTo(2000500);
    assertThat(r.exit()).isZero();
  }

  @Test
  void resumeWithAnIdKeepsThatSessionId() throws Exception {
    Path tape =
        tape(VARS_HEADER + frames("{\"t\":0,\"out\":" + INIT + "}", "{\"t\":0,\"exit\":0}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "--resume",
            "9e3a7c1d-aaaa-bbbb-cccc-000000000001",
            "go on");

    assertThat(events(r.out()).get(0).get("session_id").asText())
        .isEqualTo("9e3a7c1d-aaaa-bbbb-cccc-000000000001");
  }

  @Test
  void diesByTheTapesSignal() throws Exception {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0,\"out\":" + INIT + "}",
                "{\"t\":1,\"kill\":\"SIGKILL\"}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "x");
    assertThat(r.exit()).isEqualTo(137);
    assertThat(r.out()).isEqualTo(INIT + "\n");

    // perl (part of every Debian) tells a death by signal from an exit status
    TestProcess.Result perl =
        TestProcess.command(
                "perl",
                "-e",
                "system(@ARGV); print $? & 127, \" \", $? >> 8",
                FakeProcess.launcher().toString(),
                "-p",
                "--output-format",
                "stream-json",
                "x")
            .mergeErrors()
            .env(env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"))
            .stdin(new byte[0])
            .patience(FakeProcess.TIMEOUT)
            .run();
    assertThat(perl.out()).endsWith("9 0");
  }

  @Test
  void hangsAfterItsOutputUntilKilled() throws Exception {
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"out\":" + INIT + "}", "{\"t\":0,\"hang\":true}"));

    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
                List.of("-p", "--output-format", "stream-json", "x"))
            .start();
    try {
      p.getOutputStream().close();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo(INIT);
      assertThat(p.waitFor(500, TimeUnit.MILLISECONDS))
          .as("still running after its output")
          .isFalse();
    } finally {
      FakeProcess.kill(p);
    }
    assertThat(p.isAlive()).isFalse();
  }

  @Test
  void lingersWithStdoutClosedAfterTheResult() throws Exception {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0,\"out\":" + RESULT + "}",
                "{\"t\":0,\"hang\":true,\"closeStdout\":true}"));

    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
                List.of("-p", "--output-format", "stream-json", "x"))
            .start();
    try {
      p.getOutputStream().close();
      byte[] all = p.getInputStream().readAllBytes(); // returns at EOF: stdout was closed
      assertThat(new String(all, StandardCharsets.UTF_8)).isEqualTo(RESULT + "\n");
      assertThat(p.isAlive()).isTrue();
    } finally {
      FakeProcess.kill(p);
    }
  }

  @Test
  void recordedTimingWritesEachFrameNoEarlierThanItsTimeAfterTheProcessStarted() throws Exception {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0,\"outRaw\":\"a\\n\"}",
                "{\"t\":400,\"outRaw\":\"b\\n\"}",
                "{\"t\":400,\"exit\":0}"));

    long started = System.nanoTime();
    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "recorded"),
                List.of("-p", "--output-format", "stream-json", "x"))
            .start();
    try {
      p.getOutputStream().close();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("a");
      assertThat(out.readLine()).isEqualTo("b");
      long sinceStartMs = (System.nanoTime() - started) / 1_000_000;
      // t counts from the process start, which began after `started`: never earlier than 400 ms
      assertThat(sinceStartMs)
          .as("time from start to the frame at t=400")
          .isGreaterThanOrEqualTo(400);
    } finally {
      FakeProcess.kill(p);
    }
  }

  @Test
  void fastTimingKeepsOrderAndChunkingWithoutWaiting() throws Exception {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0,\"outRaw\":\"a\"}",
                "{\"t\":60000,\"outRaw\":\"b\\n\"}",
                "{\"t\":60000,\"exit\":0}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "x");

    assertThat(r.out()).isEqualTo("ab\n");
  }

  @Test
  void aPositionalPromptWithAnOpenStdinWaitsForItsEndBeforeRunningUnderTheDocumentedProfile()
      throws Exception {
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"outRaw\":\"answer\\n\"}", "{\"t\":0,\"exit\":0}"));
    Path journal = dir.resolve("journal.ndjson");

    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env(
                    "AGENTDOUBLE_TAPE",
                    tape.toString(),
                    "AGENTDOUBLE_TIMING",
                    "fast",
                    "AGENTDOUBLE_JOURNAL",
                    journal.toString(),
                    "AGENTDOUBLE_PROFILE",
                    "documented"),
                List.of("-p", "hi"))
            .start();
    try {
      CompletableFuture<byte[]> out = FakeProcess.drain(p.getInputStream());
      assertThat(p.waitFor(700, TimeUnit.MILLISECONDS)).as("blocked reading stdin").isFalse();
      assertThat(out).isNotDone();
      try (OutputStream in = p.getOutputStream()) {
        in.write("context from stdin".getBytes(StandardCharsets.UTF_8));
      }
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(new String(out.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8))
          .isEqualTo("answer\n");
    } finally {
      FakeProcess.kill(p);
    }
    JsonNode entry = JSON.readTree(Files.readString(journal));
    assertThat(entry.get("prompt").asText()).isEqualTo("hi");
    assertThat(entry.get("stdin").asText()).isEqualTo("context from stdin");
  }

  @Test
  void aPositionalPromptWithAnOpenStdinRunsAtOnceAndThenWaitsForItsEndUnder2026_10()
      throws Exception {
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"outRaw\":\"answer\\n\"}", "{\"t\":0,\"exit\":0}"));
    Path journal = dir.resolve("journal.ndjson");

    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env(
                    "AGENTDOUBLE_TAPE",
                    tape.toString(),
                    "AGENTDOUBLE_TIMING",
                    "fast",
                    "AGENTDOUBLE_JOURNAL",
                    journal.toString()),
                List.of("-p", "--output-format", "stream-json", "hi"))
            .start();
    try {
      FakeProcess.Drain out = new FakeProcess.Drain(p.getInputStream());
      out.awaitSize("answer\n".length()); // the whole run, while stdin is still open
      assertThat(p.isAlive()).as("lingers until stdin ends").isTrue();
      p.getOutputStream().close();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
      assertThat(out.awaitEnd()).isEqualTo("answer\n".getBytes(StandardCharsets.UTF_8));
    } finally {
      FakeProcess.kill(p);
    }
    JsonNode entry = JSON.readTree(Files.readString(journal));
    assertThat(entry.get("prompt").asText()).isEqualTo("hi");
    assertThat(entry.has("stdin")).as("stdin is not read for the run").isFalse();
  }

  @Test
  void readsThePromptFromStdinWhenNoneIsGiven() throws Exception {
    Path tape = tape(frames("{\"tape\":1}", "{\"t\":0,\"exit\":0}"));
    Path journal = dir.resolve("journal.ndjson");

    FakeProcess.Result r =
        FakeProcess.run(
            FakeProcess.launcher(),
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_JOURNAL", journal.toString()),
            "explain this\n".getBytes(StandardCharsets.UTF_8),
            "-p",
            "--output-format",
            "stream-json");

    assertThat(r.exit()).isZero();
    assertThat(JSON.readTree(Files.readString(journal)).get("prompt").asText())
        .isEqualTo("explain this");
  }

  @Test
  void unknownOptionsFailLikeTheRealCli() {
    FakeProcess.Result r =
        run(env(), "-p", "--output-format", "stream-json", "--format", "json", "hi");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(CursorMessages.unknownOption("--format", "--force"));
  }

  @Test
  void withoutATapeItFailsWithExit70AndSaysHowToConfigureIt() {
    FakeProcess.Result r = run(env(), "-p", "--output-format", "stream-json", "hello");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("agentdouble: no tape configured: set AGENTDOUBLE_TAPE=FILE");
  }

  @Test
  void aBadTapeWritesNothingOnStdoutAndNamesFileAndLine() {
    Path tape =
        tape(
            frames(
                "{\"tape\":1}",
                "{\"t\":0,\"out\":" + INIT + "}",
                "{\"t\":1,\"outRaw\":\"x\\n\"}",
                "{\"t\":2,\"exit\":0}",
                "{\"t\":3,\"outRaw\":\"late\\n\"}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "x");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: " + tape + ":5: frame after the terminal \"exit\" frame (line 4)\n");
  }

  @Test
  void picksTheFirstMatchingTapeInAFolderAndReportsTheNearestMiss() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    write(
        tapes,
        "10-auth.tape.ndjson",
        frames(
            "{\"tape\":1,\"match\":{\"prompt\":\"^log ?in\"}}",
            "{\"t\":0,\"outRaw\":\"auth\\n\"}",
            "{\"t\":0,\"exit\":0}"));
    write(
        tapes,
        "20-json.tape.ndjson",
        frames(
            "{\"tape\":1,\"match\":{\"prompt\":\"fix\",\"outputFormat\":\"json\","
                + "\"argv\":[\"--force\"]}}",
            "{\"t\":0,\"outRaw\":\"fixed\\n\"}",
            "{\"t\":0,\"exit\":0}"));

    FakeProcess.Result hit =
        run(
            env("AGENTDOUBLE_TAPES", tapes.toString()),
            "-p",
            "--force",
            "--output-format",
            "json",
            "fix the bug");
    FakeProcess.Result miss =
        run(
            env("AGENTDOUBLE_TAPES", tapes.toString()),
            "-p",
            "--output-format",
            "json",
            "fix the bug");

    assertThat(hit.out()).isEqualTo("fixed\n");
    assertThat(miss.exit()).isEqualTo(70);
    assertThat(miss.err())
        .contains(
            "no tape in " + tapes + " matches this invocation (2 tapes)",
            "closest: 20-json.tape.ndjson",
            "argv has no \"--force\"",
            "prompt \"fix the bug\"");
  }

  @Test
  void journalsEveryInvocationOnItsOwnLineUnderConcurrency() throws Exception {
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"outRaw\":\"ok\\n\"}", "{\"t\":0,\"exit\":4}"));
    Path journal = dir.resolve("journal.ndjson");
    List<CompletableFuture<FakeProcess.Result>> runs = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      String prompt = "prompt " + i;
      runs.add(
          CompletableFuture.supplyAsync(
              () ->
                  run(
                      env(
                          "AGENTDOUBLE_TAPE",
                          tape.toString(),
                          "AGENTDOUBLE_TIMING",
                          "fast",
                          "AGENTDOUBLE_JOURNAL",
                          journal.toString(),
                          "CURSOR_API_KEY",
                          "sk-secret-value"),
                      "-p",
                      "--output-format",
                      "stream-json",
                      "--model",
                      "gpt-5.5-medium",
                      prompt)));
    }
    runs.forEach(CompletableFuture::join);

    List<String> lines = Files.readAllLines(journal);
    assertThat(lines).hasSize(8);
    List<String> prompts = new ArrayList<>();
    for (String line : lines) {
      JsonNode e = JSON.readTree(line);
      prompts.add(e.get("prompt").asText());
      assertThat(e.get("exit").asInt()).isEqualTo(4);
      assertThat(e.get("model").asText()).isEqualTo("gpt-5.5-medium");
      assertThat(e.get("outputFormat").asText()).isEqualTo("stream-json");
      assertThat(e.get("tape").asText()).isEqualTo(tape.toString());
      assertThat(e.get("pid").asLong()).isPositive();
      assertThat(e.get("env").get("CURSOR_API_KEY").asText()).isEqualTo("REDACTED");
    }
    assertThat(line(lines)).doesNotContain("sk-secret-value");
    assertThat(prompts)
        .containsExactlyInAnyOrder(
            "prompt 0",
            "prompt 1",
            "prompt 2",
            "prompt 3",
            "prompt 4",
            "prompt 5",
            "prompt 6",
            "prompt 7");
  }

  private static String line(List<String> lines) {
    return String.join("\n", lines);
  }

  @Test
  void rendersAStreamJsonTapeAsJsonAndAsText() throws Exception {
    Path tape =
        tape(
            VARS_HEADER
                + frames(
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":0,\"out\":" + USER + "}",
                    "{\"t\":5,\"out\":" + ASSISTANT + "}",
                    "{\"t\":9,\"out\":" + RESULT + "}",
                    "{\"t\":9,\"exit\":0}"));

    FakeProcess.Result json =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "json",
            "--resume",
            SID,
            "recorded prompt");
    FakeProcess.Result text =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "text",
            "recorded prompt");

    assertThat(json.out())
        .isEqualTo(
            "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
                + "\"duration_ms\":9,\"duration_api_ms\":9,\"result\":\"recorded prompt is in /rec/project/a.txt\","
                + "\"session_id\":\""
                + SID
                + "\",\"request_id\":\"r-1\"}\n");
    assertThat(text.out()).contains("recorded prompt is in ");
    assertThat(text.exit()).isZero();
  }

  @Test
  void aLoggedOutProfileFailsPrintRunsLikeTheRealCli() {
    Path profile = write(dir, "profile.json", "{\"loggedIn\":false}");
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"outRaw\":\"never\\n\"}", "{\"t\":0,\"exit\":0}"));

    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_PROFILE", profile.toString(), "AGENTDOUBLE_TAPE", tape.toString()),
            "-p",
            "--output-format",
            "stream-json",
            "hi");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("Error: Authentication required.");
  }

  @Test
  void anAuthTokenOrApiKeyCountsAsLoggedIn() {
    Path profile = write(dir, "profile.json", "{\"loggedIn\":false}");
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"outRaw\":\"answer\\n\"}", "{\"t\":0,\"exit\":0}"));

    FakeProcess.Result token =
        run(
            env("AGENTDOUBLE_PROFILE", profile.toString(), "AGENTDOUBLE_TAPE", tape.toString()),
            "-p",
            "--output-format",
            "stream-json",
            "--auth-token",
            "tok-123",
            "hi");
    FakeProcess.Result key =
        run(
            env("AGENTDOUBLE_PROFILE", profile.toString(), "AGENTDOUBLE_TAPE", tape.toString()),
            "-p",
            "--output-format",
            "stream-json",
            "--api-key",
            "key-123",
            "hi");

    assertThat(token.out()).isEqualTo("answer\n");
    assertThat(key.out()).isEqualTo("answer\n");
  }

  @Test
  void aBadTextStyleIsAnErrorWhateverTheFormat() {
    Path tape =
        tape(
            VARS_HEADER
                + frames(
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":9,\"out\":" + RESULT + "}",
                    "{\"t\":9,\"exit\":0}"));

    FakeProcess.Result json =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TEXT_STYLE", "bogus"),
            "-p",
            "--output-format",
            "json",
            "x");
    FakeProcess.Result text =
        run(
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TEXT_STYLE", "bogus"),
            "-p",
            "--output-format",
            "text",
            "x");

    // docs/cli.md: a value the fake cannot use is its own problem, whether this run reads it or not
    assertThat(json.exit()).isEqualTo(70);
    assertThat(json.out()).isEmpty();
    assertThat(json.err())
        .isEqualTo("agentdouble: AGENTDOUBLE_TEXT_STYLE=bogus: use actions or final\n");
    assertThat(text.exit()).isEqualTo(70);
    assertThat(text.err()).contains("AGENTDOUBLE_TEXT_STYLE=bogus: use actions or final");
  }

  @Test
  void theJournalNamesTheSessionIdOnlyWhenTheTapeDeclaresOne() throws Exception {
    Path journal = dir.resolve("journal.ndjson");
    Path raw =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"out\":" + INIT + "}", "{\"t\":0,\"exit\":0}"));
    run(
        env("AGENTDOUBLE_TAPE", raw.toString(), "AGENTDOUBLE_JOURNAL", journal.toString()),
        "-p",
        "--output-format",
        "stream-json",
        "x");
    Path withVars =
        write(
            dir,
            "vars.tape.ndjson",
            VARS_HEADER + frames("{\"t\":0,\"out\":" + INIT + "}", "{\"t\":0,\"exit\":0}"));
    FakeProcess.Result r =
        run(
            env("AGENTDOUBLE_TAPE", withVars.toString(), "AGENTDOUBLE_JOURNAL", journal.toString()),
            "-p",
            "--output-format",
            "stream-json",
            "x");

    List<String> lines = Files.readAllLines(journal);
    assertThat(JSON.readTree(lines.get(0)).has("sessionId")).isFalse();
    assertThat(JSON.readTree(lines.get(1)).get("sessionId").asText())
        .isEqualTo(events(r.out()).get(0).get("session_id").asText());
  }

  @Test
  void derivesThePartialOutputFormWhenAskedForItOnATapeRecordedWithout() throws Exception {
    Path tape =
        tape(
            VARS_HEADER
                + frames(
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":5,\"out\":"
                        + "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\","
                        + "\"text\":\"one two three four\"}]},\"session_id\":\""
                        + SID
                        + "\"}}",
                    "{\"t\":9,\"exit\":0}"));
    Path journal = dir.resolve("journal.ndjson");

    FakeProcess.Result r =
        run(
            env(
                "AGENTDOUBLE_TAPE",
                tape.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_JOURNAL",
                journal.toString()),
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "x");

    List<JsonNode> events = events(r.out());
    assertThat(events).hasSizeGreaterThan(3);
    assertThat(events.get(1).has("timestamp_ms")).isTrue();
    assertThat(events.get(events.size() - 1).at("/message/content/0/text").asText())
        .isEqualTo("one two three four");
    assertThat(JSON.readTree(Files.readString(journal)).get("derived").asText())
        .isEqualTo("stream-partial-output");
  }

  @Test
  void theAgentNameRunsTheSameProgram() {
    FakeProcess.Result r =
        FakeProcess.run(
            FakeProcess.launcher().resolveSibling("agent"), env(), new byte[0], "--version");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).matches("\\d{4}\\.\\d{2}\\.\\d{2}-[0-9a-f]+\\n");
  }

  @Test
  void printModeIsInferredWhenStdoutIsNotATerminal() {
    Path tape =
        tape(frames("{\"tape\":1}", "{\"t\":0,\"outRaw\":\"printed\\n\"}", "{\"t\":0,\"exit\":0}"));

    FakeProcess.Result r =
        run(env("AGENTDOUBLE_TAPE", tape.toString()), "--output-format", "stream-json", "hi");

    assertThat(r.out()).isEqualTo("printed\n");
  }

  @Test
  void refusesTheInteractiveModeOnATerminal() throws Exception {
    // script(1) gives the fake a pseudo-terminal for stdin and stdout
    TestProcess.Result r =
        TestProcess.command("script", "-qec", FakeProcess.launcher() + " hello", "/dev/null")
            .withoutEnv("AGENTDOUBLE_")
            .mergeErrors()
            .stdin(new byte[0])
            .patience(FakeProcess.TIMEOUT)
            .run();
    assertThat(r.out())
        .contains("agentdouble: the interactive mode is not impersonated; run with -p");
    assertThat(r.exit()).isEqualTo(70);
  }

  @Test
  void theProfilePicksTheDefaultOutputFormat() {
    Path tape =
        tape(
            VARS_HEADER
                + frames(
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":5,\"out\":" + ASSISTANT + "}",
                    "{\"t\":9,\"out\":" + RESULT + "}",
                    "{\"t\":9,\"exit\":0}"));

    FakeProcess.Result documented =
        run(
            env(
                "AGENTDOUBLE_TAPE",
                tape.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_PROFILE",
                "documented"),
            "-p",
            "x");
    FakeProcess.Result byDefault =
        run(env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"), "-p", "x");

    assertThat(documented.out()).startsWith("{\"type\":\"system\"");
    // the default profile is 2026.10: text by default, and only the final answer
    assertThat(byDefault.out()).isEqualTo("recorded prompt is in /rec/project/a.txt\n");
  }

  @Test
  void refusesAConversionThatCannotBeFaithful() {
    Path tape =
        tape(
            frames(
                "{\"tape\":1,\"outputFormat\":\"text\"}",
                "{\"t\":0,\"outRaw\":\"Read file\\n\"}",
                "{\"t\":0,\"exit\":0}"));

    FakeProcess.Result r =
        run(env("AGENTDOUBLE_TAPE", tape.toString()), "-p", "--output-format", "stream-json", "x");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .contains(tape + ": recorded in text, which cannot be rendered faithfully as stream-json");
  }

  @Test
  void theLauncherSaysHowToBuildWhenTheJarIsMissing() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("fake-agent/bin"));
    Path launcher = Files.copy(FakeProcess.launcher(), bin.resolve("cursor-agent"));

    FakeProcess.Result r =
        FakeProcess.run(launcher, env(), new byte[0], "-p", "--output-format", "stream-json", "x");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err()).contains("the fake agent is not built", "build it with");
  }

  private static List<JsonNode> events(String stdout) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String line : stdout.split("\n")) {
      events.add(JSON.readTree(line));
    }
    return events;
  }
}
