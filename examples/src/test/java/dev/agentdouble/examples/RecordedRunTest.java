package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.agentdouble.examples.AgentEvent.Unknown;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.AgentTape;
import dev.agentdouble.junit.FakeAgent;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * VCR style: {@code @AgentTape} answers every invocation of the test with the tape in {@code
 * src/test/resources/agentdouble/RecordedRunTest/}.
 */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class RecordedRunTest {

  @Test
  @AgentTape("explain-failing-test")
  void explainsWhyTheCartTestFails(FakeAgent agent) throws Exception {
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("Why does src/cart.test.ts fail?");

    assertThat(run.text())
        .contains("`0.1 * 3` is `0.30000000000000004`")
        .endsWith("or assert with `toBeCloseTo(0.3)`.");
    // parallel calls complete out of order; the client keeps the order they started in
    assertThat(run.toolCalls())
        .extracting(ToolCall::tool, ToolCall::outcome)
        .containsExactly(
            tuple("globToolCall", "success"),
            tuple("readToolCall", "success"),
            tuple("shellToolCall", "rejected"));
    // the recorded cwd is a variable: paths under it now point into this workspace
    assertThat(run.toolCalls().get(1).args().path("path").asText())
        .isEqualTo(Path.of("").toAbsolutePath() + "/src/cart.test.ts");
    // a rejected call's completion has no args; they come from its start
    assertThat(run.toolCalls().get(2).args().path("command").asText())
        .isEqualTo("npx vitest run src/cart.test.ts");
    assertThat(run.events())
        .filteredOn(Unknown.class::isInstance)
        .extracting(e -> ((Unknown) e).type() + "/" + ((Unknown) e).subtype())
        .containsExactly("thinking/completed", "connection/reconnecting", "connection/reconnected");
  }
}
