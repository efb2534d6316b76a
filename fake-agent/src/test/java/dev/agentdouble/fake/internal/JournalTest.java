package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Frame;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
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
    byte[] line =
        Journal.line(
            new Journal.Entry(
                7,
                Journal.isoInstant(0),
                List.of("--bogus"),
                "/w",
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                null,
                null,
                null,
                null,
                new Frame.Exit(0, 1),
                null,
                null));

    assertThat(new String(line, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:00.000Z\",\"argv\":[\"--bogus\"],"
                + "\"cwd\":\"/w\",\"env\":{},\"exit\":1}\n");
  }

  @Test
  void aPrintRunHasEveryFieldInTheLinesOrder() {
    byte[] line =
        Journal.line(
            new Journal.Entry(
                7,
                Journal.isoInstant(1_000),
                List.of("-p", "--model", "m", "hi \"you\""),
                "/w",
                "hi \"you\"",
                "",
                "json",
                "m",
                "s-1",
                Map.of("CURSOR_B", "REDACTED", "CURSOR_A", "REDACTED"),
                "/t/a.tape.ndjson",
                "stream-json",
                "stream-partial-output",
                null,
                new Frame.Kill(0, "SIGTERM"),
                "gate g: not released",
                null));

    assertThat(new String(line, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:01.000Z\","
                + "\"argv\":[\"-p\",\"--model\",\"m\",\"hi \\\"you\\\"\"],\"cwd\":\"/w\","
                + "\"prompt\":\"hi \\\"you\\\"\",\"stdin\":\"\",\"outputFormat\":\"json\","
                + "\"model\":\"m\",\"sessionId\":\"s-1\","
                + "\"env\":{\"CURSOR_A\":\"REDACTED\",\"CURSOR_B\":\"REDACTED\"},"
                + "\"tape\":\"/t/a.tape.ndjson\",\"renderedFrom\":\"stream-json\","
                + "\"derived\":\"stream-partial-output\",\"signal\":\"SIGTERM\","
                + "\"error\":\"gate g: not released\"}\n");
  }

  @Test
  void anAcpTurnHasItsPermissionAnswersAndAStoppedRunItsReason() {
    byte[] acp =
        Journal.line(
            new Journal.Entry(
                7,
                Journal.isoInstant(0),
                List.of("acp"),
                "/s",
                "go",
                null,
                "acp",
                "auto",
                "sess",
                Map.of(),
                "control tape",
                null,
                null,
                null,
                new Frame.Hang(0, true),
                null,
                List.of("allow-once", "cancelled")));
    byte[] stopped =
        Journal.line(
            new Journal.Entry(
                7,
                Journal.isoInstant(0),
                List.of("-p", "x"),
                "/w",
                "x",
                null,
                "text",
                null,
                null,
                Map.of(),
                null,
                null,
                null,
                "trust-gate",
                new Frame.Exit(0, 1),
                null,
                null));

    assertThat(new String(acp, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:00.000Z\",\"argv\":[\"acp\"],"
                + "\"cwd\":\"/s\",\"prompt\":\"go\",\"outputFormat\":\"acp\",\"model\":\"auto\","
                + "\"sessionId\":\"sess\",\"env\":{},\"tape\":\"control tape\",\"hang\":true,"
                + "\"closeStdout\":true,\"permissionAnswers\":[\"allow-once\",\"cancelled\"]}\n");
    assertThat(new String(stopped, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"pid\":7,\"startedAt\":\"1970-01-01T00:00:00.000Z\",\"argv\":[\"-p\",\"x\"],"
                + "\"cwd\":\"/w\",\"prompt\":\"x\",\"outputFormat\":\"text\",\"env\":{},"
                + "\"stoppedBy\":\"trust-gate\",\"exit\":1}\n");
  }
}
