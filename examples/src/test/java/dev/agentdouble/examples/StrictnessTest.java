package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** Relaxing the extension's end-of-test checks, where a test means it. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class StrictnessTest {

  @Test
  void aFailureNoRetryFixesLeavesTheNextTapeUnused(FakeAgent agent) {
    agent.allowUnused().enqueue(Tapes.notLoggedIn()).enqueue(Tapes.answers("say hi", "Hi!"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.runWithRetries("say hi", 3)).isInstanceOf(AgentException.class);
    assertThat(agent.invocations()).hasSize(1);
  }

  @Test
  void anInvocationNoTapeAnswersFailsWithExit70(FakeAgent agent) {
    agent.allowUnmatched().allowUnused(); // the deploy stub is there to be missed
    agent.when(invocation().prompt(containing("deploy"))).reply(Tapes.answers("deploy", "Done."));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("say hi"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.exitCode()).isEqualTo(70);
              assertThat(e.stderr()).startsWith("agentdouble: ");
            });
  }
}
