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
import dev.agentdouble.tape.Frame;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** What the client shows while a run is still going: a step gate holds the fake mid-stream. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class MidStreamTest {
  static final String CART = "/home/dev/shop/src/cart.ts";

  FakeAgent agent; // an instance field: a fresh fake for each test

  @Test
  void theClientShowsTheEventsSeenSoFarWhileTheAgentWorks() throws Exception {
    agent.enqueue(Tapes.tape(
        Tapes.init(150),
        Tapes.user(152, "what does cart.ts export?"),
        Tapes.assistant(600, "I'll read `src/cart.ts`."),
        Tapes.readStarted(620, "call_1", CART),
        new Frame.Gate(630, "mid"),
        Tapes.readCompleted(900, "call_1", CART, "export function total() {}\n"),
        Tapes.assistant(1500, "It exports `total()`."),
        Tapes.result(1510, "I'll read `src/cart.ts`.It exports `total()`."),
        new Frame.Exit(1520, 0)));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    try (AgentRun run = client.start("what does cart.ts export?")) {
      await().atMost(Duration.ofSeconds(30)).until(agent.reached("mid"));
      await().atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(run.events()).hasSize(4));
      assertThat(run.events()).hasExactlyElementsOfTypes(SystemInit.class, UserMessage.class,
          AssistantText.class, ToolCallStarted.class);

      agent.release("mid");
      Run done = run.await();

      assertThat(done.events()).hasSize(7).last().isInstanceOf(Result.class);
      assertThat(done.events().get(4)).isInstanceOf(ToolCallCompleted.class);
      assertThat(done.toolCalls()).singleElement()
          .satisfies(call -> assertThat(call.outcome()).isEqualTo("success"));
    }
  }
}
