package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One fake for the whole class (a static field), scripted once. The tests run in parallel, so each
 * keeps to its own prompt.
 */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class SharedAgentTest {
  static FakeAgent agent;
  static CursorAgentClient client;

  @BeforeAll
  static void script() {
    agent
        .when(invocation().prompt(containing("hello")))
        .reply(Tapes.answers("say hello", "Hello!"))
        .repeatLast();
    agent
        .when(invocation().prompt(containing("goodbye")))
        .reply(Tapes.answers("say goodbye", "Goodbye!"))
        .repeatLast();
    client = CursorAgentClient.builder(agent.executable()).build();
  }

  @Test
  void answersHello() throws Exception {
    assertThat(client.run("say hello").text()).isEqualTo("Hello!");
    assertThat(client.run("say hello again").text()).isEqualTo("Hello!");
  }

  @Test
  void answersGoodbye() throws Exception {
    assertThat(client.run("say goodbye").text()).isEqualTo("Goodbye!");
  }
}
