package dev.agentdouble.fake.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.FrameLine;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
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
}
