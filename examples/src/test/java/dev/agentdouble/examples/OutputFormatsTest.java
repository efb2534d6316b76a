package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** One stream-json tape answers in every format: the fake renders it as the CLI would. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class OutputFormatsTest {
  static final String DISCOUNT = CursorAgentClientTest.DISCOUNT;

  @Test
  void jsonFormatGivesTheWholeAnswerInOneResultObject(FakeAgent agent) throws Exception {
    agent.when(invocation().outputFormat("json")).replyResource("tapes/add-discount.tape.ndjson");
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    JsonResult result = client.json(DISCOUNT);

    assertThat(result.text())
        .isEqualTo(
            "I'll read `src/cart.ts` first."
                + "Adding the parameter with a default of 0, so existing callers keep working."
                + "Now the cart tests."
                + "`total(items, discountPercent = 0)` now applies the discount; the 4 cart tests pass.");
    assertThat(result.sessionId()).hasSize(36).isNotEqualTo("7c2e9a14-3b5d-4f8e-a1c6-0d9b8e7f6a52");
    assertThat(result.durationMs()).isEqualTo(5615);
    assertThat(agent.takeInvocation().argv()).containsSequence("--output-format", "json");
  }

  @Test
  void textFormatGivesWhatTheAgentPrinted(FakeAgent agent) throws Exception {
    agent.when(invocation().outputFormat("text")).replyResource("tapes/add-discount.tape.ndjson");
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    String text = client.text(DISCOUNT);

    // the 2026.10 CLI prints the final answer only, at the end: every segment, a line each
    assertThat(text.lines())
        .containsExactly(
            "I'll read `src/cart.ts` first.",
            "Adding the parameter with a default of 0, so existing callers keep working.",
            "Now the cart tests.",
            "`total(items, discountPercent = 0)` now applies the discount; the 4 cart tests pass.");
  }

  @Test
  void jsonFormatFailsWithTheCliMessageWhenNotLoggedIn(FakeAgent agent) {
    agent.enqueue(Tapes.notLoggedIn());
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.json("say hi"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e.exitCode()).isEqualTo(1);
              assertThat(e)
                  .hasMessage(
                      "cursor-agent failed with exit code 1: "
                          + CursorMessages.AUTH_REQUIRED.strip());
            });
  }
}
