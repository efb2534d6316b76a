package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.contract.Timing;
import dev.agentdouble.examples.AgentEvent.AssistantText;
import dev.agentdouble.examples.AgentEvent.Result;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client's timeout. A run killed early may die before the fake agent has asked for its tape
 * (its start-up is a JVM's), so these fakes allow enqueued tapes to stay unused.
 */
@Timeout(60)
class TimeoutTest {
  @RegisterExtension
  static AgentDoubleExtension agents = AgentDoubleExtension.builder().allowUnused().build();

  @Test
  void aHangingAgentIsKilledWhenTheTimeoutPasses(FakeAgent agent) {
    agent.enqueue(Tapes.run("say hi").pause(50).hang().build());
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).timeout(Duration.ofMillis(500)).build();

    AgentRun run = client.start("say hi");

    assertThatThrownBy(run::await)
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.TIMED_OUT);
              assertThat(e)
                  .hasMessageStartingWith(
                      "cursor-agent did not finish within 500ms and was killed");
              assertThat(e.retryable()).isTrue();
            });
    assertThat(ProcessHandle.of(run.pid()).filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Test
  void anAgentSlowerThanTheTimeoutIsKilledBeforeItAnswers(FakeAgent agent) {
    // with recorded timing the fake writes each frame at its time, never earlier
    agent.timing(Timing.RECORDED);
    agent.enqueue(
        Tapes.run("say hi")
            .pause(60_000)
            .assistant("Hi, a minute later.")
            .result()
            .exit(0)
            .build());
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).timeout(Duration.ofMillis(1500)).build();

    assertThatThrownBy(() -> client.run("say hi"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.TIMED_OUT);
              assertThat(e.events())
                  .noneMatch(event -> event instanceof AssistantText)
                  .noneMatch(event -> event instanceof Result);
            });
  }

  @Test
  void anAgentThatLingersAfterItsResultIsStoppedAndTheRunSucceeds(FakeAgent agent)
      throws Exception {
    agent.enqueue(
        Tapes.run("say hi").pause(450).assistant("Hi!").result().hangAfterClosingStdout().build());
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).timeout(Duration.ofSeconds(30)).build();

    AgentRun run = client.start("say hi");
    Run done = run.await();

    assertThat(done.text()).isEqualTo("Hi!");
    assertThat(done.exitCode()).isEqualTo(128 + 9);
    assertThat(ProcessHandle.of(run.pid()).filter(ProcessHandle::isAlive)).isEmpty();
  }
}
