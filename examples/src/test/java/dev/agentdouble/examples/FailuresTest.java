package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.examples.AgentEvent.AssistantText;
import dev.agentdouble.examples.AgentEvent.SystemInit;
import dev.agentdouble.examples.AgentEvent.ToolCallStarted;
import dev.agentdouble.examples.AgentEvent.UserMessage;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** How the client reports the ways a run of the CLI goes wrong. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class FailuresTest {

  @Test
  void notLoggedInFailsWithTheCliMessageAndIsNotRetried(FakeAgent agent) {
    agent.when(invocation()).reply(Tapes.notLoggedIn()).repeatLast();
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.runWithRetries("say hi", 3))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e.exitCode()).isEqualTo(1);
              assertThat(e.stderr()).isEqualTo(CursorMessages.AUTH_REQUIRED);
              assertThat(e.events()).isEmpty();
              assertThat(e.retryable()).isFalse();
            });
    agent.verify(1, invocation());
  }

  @Test
  void theUsageLimitFailsAfterInitAndUserAndKeepsThem(FakeAgent agent) {
    agent.enqueue(Tapes.usageLimit());
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("refactor checkout"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e)
                  .hasMessageStartingWith(
                      "cursor-agent failed with exit code 1: "
                          + "ActionRequiredError: You've hit your usage limit");
              assertThat(e.events()).hasExactlyElementsOfTypes(SystemInit.class, UserMessage.class);
              assertThat(e.retryable()).isFalse();
            });
  }

  @Test
  void aCrashMidStreamIsReportedAsKilledWithTheEventsBeforeIt(FakeAgent agent) {
    agent.enqueue(
        Tapes.run("read the cart")
            .pause(450)
            .assistant("I'll read `src/cart.ts`.")
            .start("read", ToolCall.read("src/cart.ts", "export function total() {}\n"))
            .pause(280)
            .stdoutRaw("{\"type\":\"tool_call\",\"subt") // cut mid-line
            .kill("SIGKILL")
            .build());
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("read the cart"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.KILLED);
              assertThat(e.exitCode()).isEqualTo(128 + 9);
              assertThat(e).hasMessage("cursor-agent was killed by signal 9 after 4 events");
              assertThat(e.events())
                  .hasExactlyElementsOfTypes(
                      SystemInit.class,
                      UserMessage.class,
                      AssistantText.class,
                      ToolCallStarted.class);
              assertThat(e.retryable()).isTrue();
            });
  }

  @Test
  void aRunThatExitsZeroWithoutAResultIsAnError(FakeAgent agent) {
    agent.enqueue(Tapes.run("say hi").pause(450).assistant("Hi").exit(0).build());
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("say hi"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.NO_RESULT);
              assertThat(e)
                  .hasMessage(
                      "cursor-agent exited with 0 but its output had no result, after 3 events");
            });
  }

  @Test
  void aMebibyteOfStderrBeforeTheFirstEventDoesNotBlockTheRun(FakeAgent agent) throws Exception {
    String warning = "(node:4242) Warning: something deprecated happened, here is a long stack\n";
    String flood = warning.repeat(1024 * 1024 / warning.length() + 1);
    agent.enqueue(
        Script.of("say hi")
            .cwd(Tapes.CWD)
            .pause(100)
            .stderr(flood)
            .init()
            .user()
            .pause(450)
            .assistant("Hi!")
            .result()
            .exit(0)
            .build());
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("say hi");

    assertThat(flood.length()).isGreaterThanOrEqualTo(1024 * 1024);
    assertThat(run.text()).isEqualTo("Hi!");
    // the client keeps the last 64 KiB of stderr, from the start of a line
    assertThat(run.stderr())
        .startsWith(warning)
        .endsWith(warning)
        .hasSizeLessThanOrEqualTo(64 * 1024);
  }
}
