package dev.agentdouble.examples.acp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.examples.acp.AcpUpdate.Message;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallStarted;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallUpdated;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** How the client reports an agent that cannot log in, fails a turn, or dies in one. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(60)
class AcpFailuresTest {
  static final Path SHOP = CursorAcpClientTest.SHOP;

  @Test
  void aSignedOutAccountFailsToConnect(FakeAgent agent, @TempDir Path dir) throws Exception {
    Path signedOut = Files.writeString(dir.resolve("signed-out.json"), "{\"loggedIn\":false}");
    CursorAcpClient.Builder builder =
        CursorAcpClient.builder(agent.acpCommand())
            .environment(FakeEnvironment.PROFILE, signedOut.toString());

    assertThatThrownBy(builder::connect)
        .isInstanceOfSatisfying(
            AcpAgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AcpAgentException.Kind.AUTH_FAILED);
              assertThat(e.errorCode()).hasValue(-32603);
              assertThat(e.details()).isEqualTo(CursorAcp.AUTH_FAILURE_DETAILS);
              assertThat(e)
                  .hasMessage(
                      "cursor-agent acp: cursor_login failed (authenticate failed: Internal"
                          + " error (-32603): "
                          + CursorAcp.AUTH_FAILURE_DETAILS
                          + "); log in with `agent login`, or set CURSOR_API_KEY");
            });
    assertThat(agent.invocations()).isEmpty();
  }

  @Test
  void aTurnThatFailsIsAnErrorAndTheAgentLivesOn(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("usage-limit")).enqueue(Catalog.tape("documented-minimal"));

    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect()) {
      AgentSession session = client.newSession(SHOP);

      assertThatThrownBy(() -> session.prompt("Refactor the checkout flow"))
          .isInstanceOfSatisfying(
              AcpAgentException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(AcpAgentException.Kind.ERROR);
                assertThat(e.errorCode()).hasValue(-32603);
                assertThat(e.details())
                    .startsWith("ActionRequiredError: You've hit your usage limit");
              });
      assertThat(session.prompt("Say hello").text()).isEqualTo("Hello, world!");
    }
  }

  @Test
  void anAgentKilledMidTurnIsReportedWithTheUpdatesBeforeIt(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("killed-mid-tool-call"));

    try (CursorAcpClient client =
        CursorAcpClient.builder(agent.acpCommand())
            .permissions(PermissionPolicy.allowOnce())
            .connect()) {
      AgentSession session = client.newSession(SHOP);

      assertThatThrownBy(() -> session.prompt("Run the tests"))
          .isInstanceOfSatisfying(
              AcpAgentException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(AcpAgentException.Kind.DIED);
                assertThat(e.exitCode()).hasValue(128 + 9);
                assertThat(e)
                    .hasMessage(
                        "cursor-agent acp was killed by signal 9 while the client waited for"
                            + " session/prompt, after 3 updates");
                assertThat(e.updates())
                    .hasExactlyElementsOfTypes(
                        Message.class, ToolCallStarted.class, ToolCallUpdated.class);
              });
      assertThat(ProcessHandle.of(client.pid()).filter(ProcessHandle::isAlive)).isEmpty();
    }
    // what the fake recorded: invocations() has each turn with its answers
    assertThat(agent.invocations())
        .singleElement()
        .satisfies(turn -> assertThat(turn.permissionAnswers()).containsExactly("allow-once"));
  }

  @Test
  void aLineThatIsNotAMessageIsSkippedAndTheTurnGoesOn(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("non-json-line")); // "Update available: ..." on stdout

    try (CursorAcpClient client = CursorAcpClient.builder(agent.acpCommand()).connect()) {
      TurnResult turn = client.newSession(SHOP).prompt("Say hello");

      assertThat(turn.text()).isEqualTo("Hello!");
      assertThat(client.skippedLines()).isEqualTo(1);
    }
  }
}
