package dev.agentdouble.junit.internal.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.tape.Tape;
import org.junit.jupiter.api.Test;

/** Each answer waits as the tape's times say, under the timing asked for. */
class ModelScriptTest {
  // claude-tool-bash: init at 0, the CLI's thinking estimate at 605, the first message at 610, the
  // tool's result at 625, the second message at 1030
  private static final Tape TOOL_BASH = Catalog.tape("claude-tool-bash");

  @Test
  void recordedTimingWaitsTheGapBeforeEachMessage() {
    ModelScript script = ModelScript.of("t", TOOL_BASH, Timing.RECORDED);

    assertThat(script.answers()).extracting(ModelAnswer::delayMs).containsExactly(610L, 405L);
  }

  @Test
  void theOtherTimingsScaleCapOrDropTheGaps() {
    assertThat(ModelScript.of("t", TOOL_BASH, Timing.FAST).answers())
        .extracting(ModelAnswer::delayMs)
        .containsExactly(0L, 0L);
    assertThat(ModelScript.of("t", TOOL_BASH, new Timing.Scale(2)).answers())
        .extracting(ModelAnswer::delayMs)
        .containsExactly(1220L, 810L);
    assertThat(ModelScript.of("t", TOOL_BASH, new Timing.MaxGap(500)).answers())
        .extracting(ModelAnswer::delayMs)
        .containsExactly(500L, 405L);
  }

  @Test
  void anApiErrorStatusIsAnsweredWithAnthropicsErrorType() {
    assertThat(ApiErrors.type(400)).isEqualTo("invalid_request_error");
    assertThat(ApiErrors.type(401)).isEqualTo("authentication_error");
    assertThat(ApiErrors.type(404)).isEqualTo("not_found_error");
    assertThat(ApiErrors.type(429)).isEqualTo("rate_limit_error");
    assertThat(ApiErrors.type(500)).isEqualTo("api_error");
    assertThat(ApiErrors.type(529)).isEqualTo("overloaded_error");
  }
}
