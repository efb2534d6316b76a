package dev.agentdouble.fake.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.tape.FrameLine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PlayerTest {
  @Test
  void slicesTheWritersFormOfAnOutLine() {
    byte[] line = "xx{\"t\":1234,\"out\":{\"a\":[1]}}".getBytes(StandardCharsets.UTF_8);
    FrameLine f = new FrameLine();

    assertThat(Player.sliceOut(line, 2, line.length - 2, f)).isTrue();
    assertThat(f.kind).isEqualTo(FrameLine.Kind.OUT);
    assertThat(f.t).isEqualTo(1234);
    assertThat(new String(line, f.valueStart, f.valueEnd - f.valueStart, StandardCharsets.UTF_8))
        .isEqualTo("{\"a\":[1]}");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"t\":1,\"outRaw\":\"x\"}",
        "{\"out\":{},\"t\":1}",
        "{\"t\":1, \"out\":{}}",
        "{\"t\":,\"out\":{}}",
        "{\"t\":1,\"out\":{}} ",
        "{\"t\":1,\"exit\":0}"
      })
  void leavesEveryOtherShapeToTheParser(String text) {
    byte[] line = text.getBytes(StandardCharsets.UTF_8);

    assertThat(Player.sliceOut(line, 0, line.length, new FrameLine())).isFalse();
  }

  private static final byte[] MARKER = "\"type\":\"stream_event\"".getBytes(StandardCharsets.UTF_8);

  private static boolean outHolds(Path dir, String... frames) throws Exception {
    Path tape = dir.resolve("t.tape.ndjson");
    Files.writeString(
        tape,
        "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\"}\n"
            + String.join("\n", frames)
            + "\n",
        StandardCharsets.UTF_8);
    TapeSource source = TapeSource.of(tape);
    return Player.outHolds(source, Player.validate(source), MARKER);
  }

  @Test
  void findsAMarkerInAnOutValueInEitherFormOfTheLine(@TempDir Path dir) throws Exception {
    String event = "{\"type\":\"stream_event\",\"event\":{}}";

    assertThat(outHolds(dir, "{\"t\":0,\"out\":" + event + "}", "{\"t\":1,\"exit\":0}")).isTrue();
    assertThat(outHolds(dir, "{\"out\":" + event + ",\"t\":0}", "{\"t\":1,\"exit\":0}")).isTrue();
    assertThat(
            outHolds(
                dir,
                "{\"t\":0, \"out\": {\"type\": \"x\"}}",
                "{\"t\":0,\"out\":" + event + "}",
                "{\"t\":1,\"exit\":0}"))
        .isTrue();
  }

  @Test
  void findsTheMarkerInAnOutValueWrittenWithWhitespaceAsTheCliPrintedIt(@TempDir Path dir)
      throws Exception {
    assertThat(
            outHolds(
                dir, "{\"t\":0,\"out\":{ \"type\" : \"stream_event\" }}", "{\"t\":1,\"exit\":0}"))
        .isTrue();
    assertThat(
            outHolds(
                dir, "{\"t\":0, \"out\": {\"type\":\t\"stream_event\"}}", "{\"t\":1,\"exit\":0}"))
        .isTrue();
  }

  @Test
  void findsTheMarkerInTheBytesOfAnOutRawOrOutB64ValueNotOfStderr(@TempDir Path dir)
      throws Exception {
    String raw = "{\"t\":0,\"outRaw\":\"{\\\"type\\\":\\\"stream_event\\\"}\\n\"}";
    String err = "{\"t\":0,\"err\":\"{\\\"type\\\":\\\"stream_event\\\"}\\n\"}";

    String b64 =
        "{\"t\":0,\"outB64\":\""
            + Base64.getEncoder()
                .encodeToString("{\"type\":\"stream_event\"}\n".getBytes(StandardCharsets.UTF_8))
            + "\"}";

    assertThat(outHolds(dir, raw, "{\"t\":1,\"exit\":0}")).isTrue();
    assertThat(outHolds(dir, b64, "{\"t\":1,\"exit\":0}")).isTrue();
    assertThat(outHolds(dir, err, "{\"t\":1,\"exit\":0}")).isFalse();
    assertThat(outHolds(dir, "{\"t\":0,\"out\":{\"type\":\"stream\"}}", "{\"t\":1,\"exit\":0}"))
        .isFalse();
  }
}
