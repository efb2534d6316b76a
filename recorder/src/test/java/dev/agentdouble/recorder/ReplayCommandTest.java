package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code agentdouble replay} through the real fake agent launcher of this project. */
@Timeout(120)
class ReplayCommandTest {
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
  static final String INIT =
      "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
          + "\"cwd\":\"/home/dev/shop\",\"session_id\":\""
          + SID
          + "\",\"model\":\"Auto\","
          + "\"permissionMode\":\"default\"}";
  static final String USER =
      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
          + "[{\"type\":\"text\",\"text\":\"-v or not\"}]},\"session_id\":\""
          + SID
          + "\"}";
  static final String ASSISTANT =
      "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
          + "\"content\":[{\"type\":\"text\",\"text\":\"Item and total\"}]},\"session_id\":\""
          + SID
          + "\"}";
  static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":2250,"
          + "\"duration_api_ms\":2250,\"is_error\":false,\"result\":\"Item and total\",\"session_id\":\""
          + SID
          + "\",\"request_id\":\"r-1\"}";

  @TempDir Path dir;

  private Path tape(String... lines) {
    return Cli.write(dir, "run.tape.ndjson", String.join("\n", lines) + "\n");
  }

  @Test
  void aRawTapeReplaysByteForByteWithItsExitStatus() {
    Path tape =
        tape(
            "{\"tape\":1}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":1,\"outRaw\":\"not json\\n\"}",
            "{\"t\":2,\"outRaw\":\"{\\\"type\\\":\\\"assist\"}",
            "{\"t\":3,\"outRaw\":\"ant\\\"}\\n\"}",
            "{\"t\":4,\"outB64\":\"/+4K\"}",
            "{\"t\":5,\"err\":\"warning: slow\\n\"}",
            "{\"t\":6,\"exit\":3}");

    Cli.Result r = Cli.runInstalled("replay", "--timing", "fast", tape.toString());

    byte[] text =
        (INIT + "\nnot json\n{\"type\":\"assistant\"}\n").getBytes(StandardCharsets.UTF_8);
    byte[] expected = new byte[text.length + 3];
    System.arraycopy(text, 0, expected, 0, text.length);
    expected[text.length] = (byte) 0xff;
    expected[text.length + 1] = (byte) 0xee;
    expected[text.length + 2] = '\n';
    assertThat(r.stdout()).isEqualTo(expected);
    assertThat(r.err()).isEqualTo("warning: slow\n");
    assertThat(r.exit()).isEqualTo(3);
  }

  /**
   * A Claude Code tape replays through the fake's {@code claude}, with {@code --verbose} for
   * stream-json as that CLI needs it: {@code cursor-agent} refuses another CLI's tape.
   */
  @Test
  void aClaudeTapeReplaysThroughTheFakesClaude() {
    Cli.Result stream = Cli.runInstalled("replay", "--timing", "fast", "builtin:claude-answer");
    assertThat(stream.exit()).as(stream.err()).isZero();
    assertThat(stream.out().lines().toList())
        .hasSize(3)
        .first()
        .asString()
        .startsWith("{\"type\":\"system\",\"subtype\":\"init\"");

    Cli.Result text =
        Cli.runInstalled(
            "replay", "--timing", "fast", "--output-format", "text", "builtin:claude-answer");
    assertThat(text.exit()).as(text.err()).isZero();
    assertThat(text.out()).isEqualTo("Hello from the script.\n");
  }

  @Test
  void aTapeThatDiesBySigkillExits137() {
    Path tape =
        tape(
            "{\"tape\":1}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":1,\"outRaw\":\"{\\\"type\\\":\\\"tool_call\\\",\\\"subt\"}",
            "{\"t\":2,\"kill\":\"SIGKILL\"}");

    Cli.Result r = Cli.runInstalled("replay", "--timing", "fast", tape.toString());

    assertThat(r.exit()).isEqualTo(137);
    assertThat(r.out()).isEqualTo(INIT + "\n{\"type\":\"tool_call\",\"subt");
  }

  @Test
  void rendersAStreamJsonTapeAsTheJsonFormat() {
    Path tape =
        tape(
            "{\"tape\":1}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":1,\"out\":" + USER + "}",
            "{\"t\":2,\"out\":" + ASSISTANT + "}",
            "{\"t\":3,\"out\":" + RESULT + "}",
            "{\"t\":3,\"exit\":0}");

    Cli.Result r =
        Cli.runInstalled("replay", "--timing", "fast", "--output-format", "json", tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out())
        .isEqualTo(
            "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
                + "\"duration_ms\":2250,\"duration_api_ms\":2250,\"result\":\"Item and total\","
                + "\"session_id\":\""
                + SID
                + "\",\"request_id\":\"r-1\"}\n");
  }

  @Test
  void rendersAStreamJsonTapeAsText() {
    Path tape =
        tape(
            "{\"tape\":1}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":2,\"out\":" + ASSISTANT + "}",
            "{\"t\":3,\"out\":" + RESULT + "}",
            "{\"t\":3,\"exit\":0}");

    Cli.Result r =
        Cli.runInstalled("replay", "--timing", "fast", "--output-format", "text", tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out()).contains("Item and total").doesNotContain("{\"type\"");
  }

  @Test
  void theTapesPromptIsPassedEvenWhenItStartsWithADash() {
    // vars.prompt "-v or not" must reach the fake as the prompt, not as --version
    Path tape =
        tape(
            "{\"tape\":1,\"vars\":{\"sessionId\":\"" + SID + "\",\"prompt\":\"-v or not\"}}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":1,\"out\":" + USER + "}",
            "{\"t\":3,\"out\":" + RESULT + "}",
            "{\"t\":3,\"exit\":0}");

    Cli.Result r = Cli.runInstalled("replay", "--timing", "fast", tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out()).contains("\"text\":\"-v or not\"").doesNotMatch("(?s)^\\d{4}\\.\\d{2}.*");
  }

  @Test
  void aPromptGivenWithPromptReplacesTheRecordedOne() {
    Path tape =
        tape(
            "{\"tape\":1,\"vars\":{\"sessionId\":\"" + SID + "\",\"prompt\":\"-v or not\"}}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":1,\"out\":" + USER + "}",
            "{\"t\":3,\"out\":" + RESULT + "}",
            "{\"t\":3,\"exit\":0}");

    Cli.Result r =
        Cli.runInstalled(
            "replay", "--timing", "fast", "--prompt", "a live prompt", tape.toString());

    assertThat(r.out()).contains("\"text\":\"a live prompt\"").doesNotContain("-v or not");
  }

  @Test
  void aTapeTheFakeRejectsExits70WithItsMessage() {
    Path tape =
        tape(
            "{\"tape\":1,\"outputFormat\":\"json\"}",
            "{\"t\":0,\"out\":" + RESULT + "}",
            "{\"t\":0,\"exit\":0}");

    Cli.Result r =
        Cli.runInstalled(
            "replay", "--timing", "fast", "--output-format", "stream-json", tape.toString());

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith(
            "agentdouble: "
                + tape.toAbsolutePath()
                + ": recorded in json, which cannot be rendered faithfully as stream-json");
  }

  @Test
  void aMalformedTapeIsReportedBeforeAnythingRunsAndExits70() {
    Path tape = tape("{\"tape\":1}", "{\"t\":0,\"exit\":0}", "{\"t\":1,\"outRaw\":\"late\\n\"}");

    Cli.Result r = Cli.runInstalled("replay", tape.toString());

    // the fake's own status for a bad tape, as if it had been handed the tape
    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: " + tape + ":3: frame after the terminal \"exit\" frame (line 2)\n");
  }

  @Test
  void aMissingTapeIsNamedAndExits70() {
    Path missing = dir.resolve("missing.tape.ndjson");

    Cli.Result r = Cli.runInstalled("replay", missing.toString());

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err()).isEqualTo("agentdouble: " + missing + ": no such file\n");
  }

  @Test
  void withoutAnInstallationItSaysHowToRun() {
    Path tape = tape("{\"tape\":1}", "{\"t\":0,\"exit\":0}");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

    int exit =
        AgentDoubleCommand.installedAt(dir.resolve("not-an-installation"))
            .run(
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                errStream,
                "replay",
                tape.toString());

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .startsWith(
            "agentdouble: "
                + dir.resolve("not-an-installation/fake-agent/bin/cursor-agent")
                + ": missing or not executable");
  }
}
