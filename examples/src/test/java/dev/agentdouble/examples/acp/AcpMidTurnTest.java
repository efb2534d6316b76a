package dev.agentdouble.examples.acp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.examples.acp.AcpUpdate.Message;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallStarted;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallUpdated;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** A turn while it runs: what the client shows mid-stream, and cancelling it. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class AcpMidTurnTest {
  static final Path SHOP = CursorAcpClientTest.SHOP;

  @Test
  void cancellingAHangingTurnEndsItCancelled(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("hang-mid-stream")); // starts the dev server, then never ends

    try (CursorAcpClient client =
            CursorAcpClient.builder(agent.acpCommand())
                .permissions(PermissionPolicy.allowOnce())
                .connect();
        Turn turn = client.newSession(SHOP).start("Start the dev server and check the home page")) {
      // the agent has the answer (the client notes its choice before it is sent: cancelling on
      // that could reach the agent first)
      await().atMost(Duration.ofSeconds(30)).until(() -> !agent.permissionAnswers().isEmpty());

      turn.cancel();
      TurnResult done = turn.await();

      assertThat(done.stopReason()).isEqualTo(StopReason.CANCELLED);
      assertThat(done.toolCalls())
          .singleElement()
          .satisfies(server -> assertThat(server.status()).isEqualTo("in_progress"));
    }
    // what the fake recorded: invocations() has each turn with its answers
    assertThat(agent.invocations())
        .singleElement()
        .satisfies(turn -> assertThat(turn.permissionAnswers()).containsExactly("allow-once"));
  }

  @Test
  void theClientShowsTheFirstUpdatesWhileTheAgentIsHeld(FakeAgent agent) throws Exception {
    agent.enqueue(
        Script.of("What does cart.ts export?")
            .init()
            .user()
            .assistant("I'll read `src/cart.ts`.")
            .start("read", ToolCall.read("src/cart.ts", "export function total() {}\n"))
            .gate("mid")
            .complete("read")
            .assistant("It exports `total()`.")
            .result()
            .exit(0)
            .build());

    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect();
        Turn turn = client.newSession(SHOP).start("What does cart.ts export?")) {
      await().atMost(Duration.ofSeconds(30)).until(agent.reached("mid"));
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(() -> assertThat(turn.updates()).hasSize(3));
      assertThat(turn.updates())
          .hasExactlyElementsOfTypes(Message.class, ToolCallStarted.class, ToolCallUpdated.class);
      assertThat(turn.text()).isEqualTo("I'll read `src/cart.ts`.");
      assertThat(turn.toolCalls())
          .singleElement()
          .extracting(AcpToolCall::status)
          .isEqualTo("in_progress");

      agent.release("mid");
      TurnResult done = turn.await();

      assertThat(done.text()).isEqualTo("I'll read `src/cart.ts`.It exports `total()`.");
      assertThat(done.toolCalls())
          .singleElement()
          .extracting(AcpToolCall::status)
          .isEqualTo("completed");
    }
  }

  @Test
  void aTurnPastItsTimeoutIsCancelledAndReported(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("hang-mid-stream")).enqueue(Catalog.tape("documented-minimal"));

    try (CursorAcpClient client =
        CursorAcpClient.builder(agent.acpCommand())
            .permissions(PermissionPolicy.allowOnce())
            .turnTimeout(Duration.ofSeconds(3))
            .connect()) {
      AgentSession session = client.newSession(SHOP);

      assertThatThrownBy(() -> session.prompt("Start the dev server and check the home page"))
          .isInstanceOfSatisfying(
              AcpAgentException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(AcpAgentException.Kind.TIMED_OUT);
                assertThat(e)
                    .hasMessage("cursor-agent acp did not answer session/prompt within 3000ms");
                assertThat(e.updates()).isNotEmpty();
              });
      // the client cancelled the turn: the session takes the next prompt
      assertThat(session.prompt("Say hello").text()).isEqualTo("Hello, world!");
    }
  }
}
