package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link CursorAgentClient#runWithRetries}: a sequence of tapes answers one prompt. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class RetryTest {
  static final String PROMPT = "Refactor the checkout flow";

  @Test
  void retriesARunThatLostTheNetworkAndReturnsTheNextAnswer(FakeAgent agent) throws Exception {
    agent
        .when(invocation().prompt(containing("checkout")))
        .reply(Tapes.networkFailure(), Tapes.answers(PROMPT, "Done: checkout.ts is split."));
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).retryDelay(Duration.ofMillis(10)).build();

    Run run = client.runWithRetries(PROMPT, 3);

    assertThat(run.text()).isEqualTo("Done: checkout.ts is split.");
    agent.verify(2, invocation().prompt(containing("checkout")));
  }

  @Test
  void givesUpAfterTheLastAttemptWithItsFailure(FakeAgent agent) {
    agent.when(invocation()).reply(Tapes.networkFailure()).repeatLast();
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).retryDelay(Duration.ofMillis(10)).build();

    assertThatThrownBy(() -> client.runWithRetries(PROMPT, 3))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e.stderr()).isEqualTo(CursorMessages.RETRIES_EXHAUSTED);
              assertThat(e.retryable()).isTrue();
            });
    agent.verify(3, invocation());
  }
}
