package dev.agentdouble.junit;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** verify as a WireMock user expects it: at least once, at least, at most, never; findAll. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class VerifyTimesTest {
  private static void run(FakeAgent agent, String prompt) {
    Runs.run(agent.executable(), "-p", "--trust", "--output-format", "json", prompt);
  }

  @Test
  void countsAreCheckedAsTheTimesSay(FakeAgent agent) {
    agent
        .enqueue(FakeAgentTest.says("one", 0))
        .enqueue(FakeAgentTest.says("two", 0))
        .enqueue(FakeAgentTest.says("three", 0));
    run(agent, "fix the cart");
    run(agent, "fix the checkout");
    run(agent, "deploy");

    InvocationPattern fixes = invocation().prompt(containing("fix"));
    agent.verify(fixes);
    agent.verify(2, fixes);
    agent.verify(Times.atLeast(2), fixes);
    agent.verify(Times.atMost(2), fixes);
    agent.verify(Times.between(1, 3), fixes);
    agent.verify(Times.never(), invocation().prompt(containing("rollback")));
    assertThat(agent.findAll(fixes))
        .extracting(Invocation::prompt)
        .containsExactly("fix the cart", "fix the checkout");

    assertThatThrownBy(() -> agent.verify(Times.atMost(1), fixes))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith("expected at most 1 invocation matching prompt fix, got 2 (of 3)");
    assertThatThrownBy(() -> agent.verify(Times.never(), fixes))
        .hasMessageStartingWith("expected no invocations matching prompt fix, got 2 (of 3)");
    assertThatThrownBy(() -> agent.verify(invocation().prompt(containing("rollback"))))
        .hasMessageStartingWith(
            "expected at least 1 invocation matching prompt rollback, got 0 (of 3)\nclosest:");
  }

  @Test
  void timesSayThemselves() {
    assertThat(Times.exactly(2)).hasToString("exactly 2");
    assertThat(Times.atLeast(1)).hasToString("at least 1");
    assertThat(Times.atMost(3)).hasToString("at most 3");
    assertThat(Times.between(1, 3)).hasToString("between 1 and 3");
    assertThat(Times.never()).hasToString("never");
    assertThatThrownBy(() -> Times.between(3, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("times must be 0 <= min <= max, was min 3, max 1");
  }
}
