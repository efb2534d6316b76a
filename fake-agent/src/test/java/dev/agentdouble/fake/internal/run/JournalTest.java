package dev.agentdouble.fake.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JournalTest {
  @ParameterizedTest
  @ValueSource(
      longs = {
        0L,
        1L,
        951_782_400_000L,
        1_709_164_800_123L,
        1_795_298_467_916L,
        4_102_444_799_999L,
        253_402_300_799_999L
      })
  void formatsInstantsAsJavaTimeDoesWithMilliseconds(long epochMs) {
    String expected = Instant.ofEpochMilli(epochMs).truncatedTo(ChronoUnit.MILLIS).toString();
    String withMillis = expected.contains(".") ? expected : expected.replace("Z", ".000Z");

    assertThat(Journal.isoInstant(epochMs)).isEqualTo(withMillis);
  }

  @Test
  void aRunEndedBeforeItsInvocationWasKnownHasOnlyWhatTheProcessIs() {
    Journal journal = new Journal(7, 0, List.of("--bogus"), "/w", Map.of("HOME", "/h"));

    assertThat(line(journal, new Frame.Exit(0, 1), null))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:00.000Z\",\"argv\":[\"--bogus\"],"
                + "\"cwd\":\"/w\",\"env\":{},\"exit\":1}\n");
  }

  @Test
  void aPrintRunHasEveryFieldInTheLinesOrder() {
    List<String> argv = List.of("-p", "--model", "m", "hi \"you\"");
    Map<String, String> env =
        Map.of("CURSOR_B", "b", "CURSOR_A", "a", "KEPT", "k", FakeEnvironment.FORWARD_ENV, "KEPT");
    Journal journal = new Journal(7, 1_000, argv, "/w", env);
    journal.invocation(
        Turn.invocation(
            InvocationRecord.CLI_CURSOR,
            Optional.empty(),
            argv,
            "hi \"you\"",
            "/workspace",
            OutputFormat.JSON,
            Optional.of("m"),
            Optional.of(""),
            7,
            env));
    journal.sessionId = "s-1";
    journal.tape = "/t/a.tape.ndjson";
    journal.renderedFrom = "stream-json";
    journal.derived = "stream-partial-output";

    assertThat(line(journal, new Frame.Kill(0, "SIGTERM"), "gate g: not released"))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:01.000Z\","
                + "\"argv\":[\"-p\",\"--model\",\"m\",\"hi \\\"you\\\"\"],\"cwd\":\"/w\","
                + "\"cli\":\"cursor-agent\",\"prompt\":\"hi \\\"you\\\"\",\"stdin\":\"\",\"outputFormat\":\"json\","
                + "\"model\":\"m\",\"sessionId\":\"s-1\","
                + "\"env\":{\"CURSOR_A\":\"REDACTED\",\"CURSOR_B\":\"REDACTED\"},"
                + "\"tape\":\"/t/a.tape.ndjson\",\"renderedFrom\":\"stream-json\","
                + "\"derived\":\"stream-partial-output\",\"signal\":\"SIGTERM\","
                + "\"error\":\"gate g: not released\"}\n");
  }

  @Test
  void anAcpTurnHasItsPermissionAnswersAndAStoppedRunItsReason() {
    Journal acp = new Journal(7, 0, List.of("acp"), "/s", Map.of());
    acp.invocation(
        Turn.invocation(
            InvocationRecord.CLI_CURSOR,
            Optional.of("sess"),
            List.of("acp"),
            "go",
            "/s",
            OutputFormat.ACP,
            Optional.of("auto"),
            Optional.empty(),
            7,
            Map.of()));
    acp.sessionId = "sess";
    acp.tape = "control tape";
    acp.keepPermissionAnswers();
    acp.permissionAnswer("allow-once");
    acp.permissionAnswer("cancelled");
    Journal stopped = new Journal(7, 0, List.of("-p", "x"), "/w", Map.of());
    stopped.invocation(
        Turn.invocation(
            InvocationRecord.CLI_CLAUDE,
            Optional.of("asked"),
            List.of("-p", "x"),
            "x",
            "/w",
            OutputFormat.TEXT,
            Optional.empty(),
            Optional.empty(),
            7,
            Map.of()));
    stopped.stoppedBy = "trust-gate";

    assertThat(line(acp, new Frame.Hang(0, true), null))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:00.000Z\",\"argv\":[\"acp\"],"
                + "\"cwd\":\"/s\",\"cli\":\"cursor-agent\",\"prompt\":\"go\",\"outputFormat\":\"acp\",\"model\":\"auto\","
                + "\"sessionId\":\"sess\",\"env\":{},\"tape\":\"control tape\",\"hang\":true,"
                + "\"closeStdout\":true,\"permissionAnswers\":[\"allow-once\",\"cancelled\"]}\n");
    assertThat(line(stopped, new Frame.Exit(0, 1), null))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:00.000Z\",\"argv\":[\"-p\",\"x\"],"
                + "\"cwd\":\"/w\",\"cli\":\"claude\",\"prompt\":\"x\",\"outputFormat\":\"text\","
                + "\"env\":{},"
                + "\"stoppedBy\":\"trust-gate\",\"exit\":1}\n");
  }

  @Test
  void theControlServerIsToldTheSameInvocationWithTheWorkspaceAndTheForwardedVariables() {
    Map<String, String> env =
        Map.of("CURSOR_A", "a", "KEPT", "k", FakeEnvironment.FORWARD_ENV, "KEPT, CURSOR_A");

    assertThat(
            new String(
                Turn.invocation(
                        InvocationRecord.CLI_CLAUDE,
                        Optional.of("s-2"),
                        List.of("-p", "x"),
                        "x",
                        "/workspace",
                        OutputFormat.TEXT,
                        Optional.empty(),
                        Optional.empty(),
                        7,
                        env)
                    .json(),
                StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"argv\":[\"-p\",\"x\"],\"prompt\":\"x\",\"cwd\":\"/workspace\","
                + "\"outputFormat\":\"text\",\"pid\":7,\"env\":{\"CURSOR_A\":\"a\",\"KEPT\":\"k\"},"
                + "\"cli\":\"claude\",\"sessionId\":\"s-2\"}");
  }

  private static String line(Journal journal, Frame.Ending ending, String error) {
    return new String(journal.line(ending, error), StandardCharsets.UTF_8);
  }
}
