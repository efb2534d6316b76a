package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.agentdouble.examples.AgentEvent.AssistantText;
import dev.agentdouble.examples.AgentEvent.Result;
import dev.agentdouble.examples.AgentEvent.SystemInit;
import dev.agentdouble.examples.AgentEvent.ThinkingDelta;
import dev.agentdouble.examples.AgentEvent.ToolCallCompleted;
import dev.agentdouble.examples.AgentEvent.ToolCallStarted;
import dev.agentdouble.examples.AgentEvent.Unknown;
import dev.agentdouble.examples.AgentEvent.UserMessage;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.junit.Invocation;
import dev.agentdouble.script.Script;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class CursorAgentClientTest {
  static final String DISCOUNT =
      "Add an optional discount percentage to total() in src/cart.ts and run the cart tests";

  @Test
  void returnsTheAnswerAndTheToolCallsOfARun(FakeAgent agent) throws Exception {
    agent.enqueueResource("tapes/add-discount.tape.ndjson");
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).force(true).build();

    Run run = client.run(DISCOUNT);

    assertThat(run.text())
        .startsWith("I'll read `src/cart.ts` first.")
        .endsWith("the 4 cart tests pass.");
    assertThat(run.toolCalls())
        .extracting(ToolCall::tool, ToolCall::outcome)
        .containsExactly(
            tuple("readToolCall", "success"),
            tuple("editToolCall", "success"),
            tuple("shellToolCall", "success"));
    assertThat(run.toolCalls().get(2).args().path("command").asText())
        .isEqualTo("npm test -- cart");
    assertThat(run.exitCode()).isZero();
    assertThat(run.stderr()).isEmpty();
    assertThat(run.skippedLines()).isZero();
  }

  @Test
  void readsEveryKindOfEventInOrder(FakeAgent agent) throws Exception {
    agent.enqueue(Path.of("src/test/resources/tapes/add-discount.tape.ndjson"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run(DISCOUNT);

    assertThat(run.events())
        .first()
        .isInstanceOfSatisfying(
            SystemInit.class,
            init -> {
              assertThat(init.model()).isEqualTo("Auto");
              // the tape declares its session id and cwd as variables: the fake puts live values in
              assertThat(init.sessionId())
                  .isNotEqualTo("7c2e9a14-3b5d-4f8e-a1c6-0d9b8e7f6a52")
                  .isEqualTo(run.sessionId());
              assertThat(init.cwd()).isEqualTo(Path.of("").toAbsolutePath().toString());
            });
    assertThat(run.events()).element(1).isEqualTo(new UserMessage(DISCOUNT));
    assertThat(run.events()).filteredOn(ThinkingDelta.class::isInstance).hasSize(6);
    assertThat(run.events()).filteredOn(AssistantText.class::isInstance).hasSize(4);
    assertThat(run.events()).filteredOn(ToolCallStarted.class::isInstance).hasSize(3);
    assertThat(run.events()).filteredOn(ToolCallCompleted.class::isInstance).hasSize(3);
    assertThat(run.events()).last().isInstanceOf(Result.class);
  }

  @Test
  void passesEachEventToTheListenerAsItArrives(FakeAgent agent) throws Exception {
    agent.enqueue(Tapes.answers("say hi", "Hi!"));
    List<AgentEvent> heard = new CopyOnWriteArrayList<>();

    Run run = CursorAgentClient.builder(agent.executable()).build().run("say hi", heard::add);

    assertThat(heard).containsExactlyElementsOf(run.events()).hasSize(4);
    assertThat(run.text()).isEqualTo("Hi!");
  }

  @Test
  void survivesEventTypesAndFieldsItDoesNotKnow(FakeAgent agent) throws Exception {
    // event types and fields no library models: the subject of this test, written as JSON
    agent.enqueue(
        Tapes.run("plan it")
            .pause(250)
            .event(
                "{\"type\":\"connection\",\"subtype\":\"reconnecting\","
                    + "\"session_id\":\""
                    + Script.DEFAULT_SESSION_ID
                    + "\",\"attempt\":1}")
            .pause(300)
            .event(
                "{\"type\":\"interaction_query\",\"subtype\":\"request\","
                    + "\"query_type\":\"createPlanRequestQuery\",\"session_id\":\""
                    + Script.DEFAULT_SESSION_ID
                    + "\"}")
            .pause(100)
            .event(
                "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
                    + "\"content\":[{\"type\":\"text\",\"text\":\"A plan.\"}]},\"session_id\":\""
                    + Script.DEFAULT_SESSION_ID
                    + "\",\"sentiment\":\"calm\"}")
            .result("A plan.")
            .exit(0)
            .build());

    Run run = CursorAgentClient.builder(agent.executable()).build().run("plan it");

    assertThat(run.text()).isEqualTo("A plan.");
    assertThat(run.events())
        .filteredOn(Unknown.class::isInstance)
        .extracting(e -> ((Unknown) e).type())
        .containsExactly("connection", "interaction_query");
  }

  @Test
  void skipsAndCountsStdoutLinesThatAreNotJsonObjects(FakeAgent agent) throws Exception {
    // lines that are not events: the subject of this test, written as raw bytes
    agent.enqueue(
        Script.of("say hi")
            .cwd(Tapes.CWD)
            .init()
            .stdoutRaw("npm WARN config production Use `--omit=dev` instead.\n")
            .user()
            .stdoutRaw("{\"type\":\"assistant\",\"mess\n")
            .stdoutRaw("42\n")
            .pause(400)
            .assistant("Hi!")
            .result()
            .exit(0)
            .build());

    Run run = CursorAgentClient.builder(agent.executable()).build().run("say hi");

    assertThat(run.skippedLines()).isEqualTo(3);
    assertThat(run.events()).hasSize(4);
    assertThat(run.text()).isEqualTo("Hi!");
  }

  @Test
  void passesModelForceAndThePromptAfterADoubleDash(FakeAgent agent) throws Exception {
    agent.enqueue(Tapes.answers("fix the build", "Fixed."));
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable())
            .model("claude-4.6-sonnet-medium")
            .force(true)
            .build();

    client.run("fix the build");

    Invocation invocation = agent.takeInvocation();
    assertThat(invocation.argv())
        .containsExactly(
            "-p",
            "--output-format",
            "stream-json",
            "--trust",
            "--model",
            "claude-4.6-sonnet-medium",
            "--force",
            "--",
            "fix the build");
    assertThat(invocation.prompt()).isEqualTo("fix the build");
    assertThat(invocation.model()).contains("claude-4.6-sonnet-medium");
    // the 2026.10 CLI does not read stdin when the prompt is in argv (it waits for its end after)
    assertThat(invocation.stdin()).isEmpty();
    // argv(..) holds when some element of argv is the one given
    agent.verify(1, invocation().argv("--force").model(equalTo("claude-4.6-sonnet-medium")));
  }

  @Test
  void aPromptThatStartsWithADashIsNotTakenForAnOption(FakeAgent agent) throws Exception {
    agent.enqueue(Tapes.answers("--version in package.json is wrong", "Bumped it."));

    Run run =
        CursorAgentClient.builder(agent.executable())
            .build()
            .run("--version in package.json is wrong");

    assertThat(run.text()).isEqualTo("Bumped it.");
    assertThat(agent.takeInvocation().prompt()).isEqualTo("--version in package.json is wrong");
  }

  @Test
  void passesTheApiKeyInTheEnvironment(FakeAgent agent) throws Exception {
    agent.enqueue(Tapes.answers("say hi", "Hi!"));
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable())
            .environment("CURSOR_API_KEY", "key-from-the-vault")
            .build();

    client.run("say hi");

    // the fake never keeps a CURSOR_* value, only that it was set
    agent.verify(1, invocation().env("CURSOR_API_KEY", equalTo("REDACTED")));
  }
}
