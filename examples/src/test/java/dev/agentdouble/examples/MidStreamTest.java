package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentdouble.examples.AgentEvent.AssistantText;
import dev.agentdouble.examples.AgentEvent.Result;
import dev.agentdouble.examples.AgentEvent.SystemInit;
import dev.agentdouble.examples.AgentEvent.ToolCallCompleted;
import dev.agentdouble.examples.AgentEvent.ToolCallStarted;
import dev.agentdouble.examples.AgentEvent.UserMessage;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.script.ToolCall;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the client shows while a run is still going: a step gate holds the fake mid-stream. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class MidStreamTest {

  FakeAgent agent; // an instance field: a fresh fake for each test

  @Test
  void theClientShowsTheEventsSeenSoFarWhileTheAgentWorks() throws Exception {
    agent.enqueue(
        Tapes.run("what does cart.ts export?")
            .pause(450)
            .assistant("I'll read `src/cart.ts`.")
            .start("read", ToolCall.read("src/cart.ts", "export function total() {}\n"))
            .gate("mid")
            .pause(270)
            .complete("read")
            .pause(600)
            .assistant("It exports `total()`.")
            .result()
            .exit(0)
            .build());
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    try (AgentRun run = client.start("what does cart.ts export?")) {
      await().atMost(Duration.ofSeconds(30)).until(agent.reached("mid"));
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(run.events()).hasSize(4));
      assertThat(run.events())
          .hasExactlyElementsOfTypes(
              SystemInit.class, UserMessage.class, AssistantText.class, ToolCallStarted.class);

      agent.release("mid");
      Run done = run.await();

      assertThat(done.events()).hasSize(7).last().isInstanceOf(Result.class);
      assertThat(done.events().get(4)).isInstanceOf(ToolCallCompleted.class);
      assertThat(done.toolCalls())
          .singleElement()
          .satisfies(call -> assertThat(call.outcome()).isEqualTo("success"));
    }
  }
}
