package dev.agentdouble.examples.acp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.examples.acp.AcpUpdate.Message;
import dev.agentdouble.examples.acp.AcpUpdate.ModeChanged;
import dev.agentdouble.examples.acp.AcpUpdate.Thought;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallStarted;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallUpdated;
import dev.agentdouble.examples.acp.AcpUpdate.UserMessage;
import dev.agentdouble.examples.acp.PermissionPolicy.Choice;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.junit.Invocation;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link CursorAcpClient} against the fake agent's ACP server: turns, permissions, sessions. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class CursorAcpClientTest {
  static final Path SHOP = Path.of("/home/dev/shop");

  @Test
  void aTurnGivesTheThoughtsTheAnswerAndTheToolCalls(FakeAgent agent) throws Exception {
    agent.enqueue(
        Script.of("What does cart.ts export?")
            .init()
            .user()
            .thinking("The user asks about cart.ts.", " I should read it.")
            .assistant("I'll read `src/cart.ts`.")
            .tool(ToolCall.read("src/cart.ts", "export function total() {}\n"))
            .assistant("It exports `total()`.")
            .result()
            .exit(0)
            .build());

    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect()) {
      TurnResult turn = client.newSession(SHOP).prompt("What does cart.ts export?");

      assertThat(turn.stopReason()).isEqualTo(StopReason.END_TURN);
      assertThat(turn.thoughts()).isEqualTo("The user asks about cart.ts. I should read it.");
      assertThat(turn.text()).isEqualTo("I'll read `src/cart.ts`.It exports `total()`.");
      assertThat(turn.toolCalls())
          .singleElement()
          .satisfies(
              read -> {
                assertThat(read.title()).isEqualTo("Read src/cart.ts");
                assertThat(read.kind()).isEqualTo("read");
                assertThat(read.status()).isEqualTo("completed");
                assertThat(read.rawInput().path("path").asText()).isEqualTo("src/cart.ts");
                assertThat(read.rawOutput().orElseThrow().path("content").asText())
                    .isEqualTo("export function total() {}\n");
                assertThat(read.permission()).isEmpty(); // reading asks no permission
              });
    }
    Invocation invocation = agent.takeInvocation();
    assertThat(invocation.prompt()).isEqualTo("What does cart.ts export?");
    assertThat(invocation.outputFormat()).isEqualTo("acp");
    assertThat(invocation.cwd()).isEqualTo("/home/dev/shop");
  }

  @Test
  void updatesArriveInTheOrderTheAgentSentThem(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("tool-read"));
    List<AcpUpdate> heard = new CopyOnWriteArrayList<>();

    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect();
        Turn turn = client.newSession(SHOP).start("What does cart.ts export?", heard::add)) {
      TurnResult done = turn.await();

      assertThat(done.updates())
          .hasExactlyElementsOfTypes(
              Message.class,
              ToolCallStarted.class,
              ToolCallUpdated.class,
              ToolCallUpdated.class,
              Message.class);
      assertThat(heard).containsExactlyElementsOf(done.updates());
    }
  }

  @Test
  void aShellCommandRunsWhenThePolicyAllowsIt(FakeAgent agent) throws Exception {
    agent.enqueue(
        Script.of("Run the cart tests")
            .init()
            .user()
            .assistant("I'll run them.")
            .tool(ToolCall.shell("npm test -- cart", 0, "4 passing\n", ""))
            .assistant("The 4 cart tests pass.")
            .result()
            .exit(0)
            .build());
    List<PermissionRequest> asked = new CopyOnWriteArrayList<>();
    PermissionPolicy allowAndNote =
        request -> {
          asked.add(request);
          return Choice.ALLOW_ONCE;
        };

    try (CursorAcpClient client =
        CursorAcpClient.builder(agent.acpCommand()).permissions(allowAndNote).connect()) {
      TurnResult turn = client.newSession(SHOP).prompt("Run the cart tests");

      assertThat(asked)
          .singleElement()
          .satisfies(
              request -> {
                assertThat(request.title()).isEqualTo("`npm test -- cart`");
                assertThat(request.kind()).isEqualTo("execute");
                assertThat(request.reason()).isEqualTo("Not in allowlist: npm");
                assertThat(request.options())
                    .containsExactly("allow-once", "allow-always", "reject-once");
              });
      assertThat(turn.toolCalls())
          .singleElement()
          .satisfies(
              shell -> {
                assertThat(shell.permission()).contains("allow-once");
                assertThat(shell.status()).isEqualTo("completed");
                assertThat(shell.rawOutput().orElseThrow().path("stdout").asText())
                    .isEqualTo("4 passing\n");
              });
      assertThat(turn.text()).endsWith("The 4 cart tests pass.");
    }
    // what the fake recorded: invocations() has each turn with its answers
    assertThat(agent.invocations())
        .singleElement()
        .satisfies(turn -> assertThat(turn.permissionAnswers()).containsExactly("allow-once"));
  }

  @Test
  void aShellCommandTheyRejectFailsAndTheTurnGoesOn(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("rejected-shell"));

    try (CursorAcpClient client =
        CursorAcpClient.builder(agent.acpCommand())
            .permissions(PermissionPolicy.rejectOnce())
            .connect()) {
      TurnResult turn = client.newSession(SHOP).prompt("Clean the build folder");

      assertThat(turn.stopReason()).isEqualTo(StopReason.END_TURN);
      assertThat(turn.toolCalls())
          .singleElement()
          .satisfies(
              shell -> {
                assertThat(shell.title()).isEqualTo("`rm -rf dist`");
                assertThat(shell.permission()).contains("reject-once");
                assertThat(shell.status()).isEqualTo("failed");
                assertThat(shell.rawOutput().orElseThrow().path("rejected").path("reason").asText())
                    .isEqualTo("Rejected by the user");
              });
    }
    // what the fake recorded: invocations() has each turn with its answers
    assertThat(agent.invocations())
        .singleElement()
        .satisfies(turn -> assertThat(turn.permissionAnswers()).containsExactly("reject-once"));
  }

  @Test
  void aSessionSwitchesToPlanMode(FakeAgent agent) throws Exception {
    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect()) {
      AgentSession session = client.newSession(SHOP);
      assertThat(session.mode()).isEqualTo("agent");
      assertThat(session.availableModes()).containsExactly("agent", "plan", "ask");

      session.setMode("plan");

      assertThat(session.mode()).isEqualTo("plan");
      assertThat(session.history()).containsExactly(new ModeChanged("plan"));
    }
  }

  @Test
  void aLoadedSessionReplaysItsConversationAndGoesOn(FakeAgent agent) throws Exception {
    agent
        .enqueue(
            Script.of("Add a discount to total()")
                .init()
                .user()
                .thinking("Editing cart.ts.")
                .assistant("total() now takes a discount.")
                .result()
                .exit(0)
                .build())
        .enqueue(
            Script.of("Now test it")
                .init()
                .user()
                .assistant("Added a test for the discount.")
                .result()
                .exit(0)
                .build());
    String sessionId;
    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect()) {
      AgentSession session = client.newSession(SHOP);
      session.prompt("Add a discount to total()");
      sessionId = session.id();
    }

    // the editor restarts: a new agent process continues the session
    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect()) {
      AgentSession session = client.loadSession(sessionId, SHOP);

      assertThat(session.history())
          .containsExactly(
              new UserMessage("Add a discount to total()"),
              new Thought("Editing cart.ts."),
              new Message("total() now takes a discount."));
      assertThat(session.prompt("Now test it").text()).isEqualTo("Added a test for the discount.");
    }
    assertThat(agent.invocations())
        .extracting(Invocation::prompt)
        .containsExactly("Add a discount to total()", "Now test it");
  }
}
