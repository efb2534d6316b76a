package dev.agentdouble.fake;

import static dev.agentdouble.fake.AcpPeer.prompt;
import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in tape answers a turn over ACP, failures included: a run that ends well ends the
 * turn ({@code end_turn}), a failed run fails the prompt with its error, a crash kills the agent,
 * and a run that never ends lasts until the client cancels it.
 */
@Timeout(300)
class AcpCatalogTest {
  static Stream<String> names() {
    return Catalog.entries().stream()
        .filter(CatalogReplayTest::cursors) // ACP is Cursor's
        .map(Catalog.Entry::name);
  }

  @ParameterizedTest
  @MethodSource("names")
  void everyCatalogTapeAnswersATurn(String name) {
    Tape tape = Catalog.tape(name);
    Frame ending = tape.ending();
    boolean result =
        tape.frames().stream()
            .anyMatch(
                f ->
                    f instanceof Frame.Out out
                        && out.json().startsWith("{\"type\":\"result\"")
                        && out.json().contains("\"is_error\":false"));
    Map<String, String> env =
        env("AGENTDOUBLE_TAPE", "builtin:" + name, "AGENTDOUBLE_TIMING", "fast");
    try (AcpPeer agent = new AcpPeer(env, "--force", "acp")) {
      String session = agent.open("/w");
      int id = agent.send("session/prompt", prompt(session, "go"));
      if (result || (ending instanceof Frame.Exit exit && exit.code() == 0)) {
        assertThat(agent.response(id).path("result").path("stopReason").asText())
            .isEqualTo("end_turn");
        assertThat(agent.finish()).isZero();
      } else if (ending instanceof Frame.Exit exit) {
        JsonNode failed = agent.response(id);
        assertThat(failed.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(failed.path("error").path("data").path("details").asText()).isNotBlank();
        assertThat(agent.finish()).isZero();
      } else if (ending instanceof Frame.Kill kill) {
        assertThat(agent.awaitExit()).isEqualTo(kill.shellStatus());
      } else {
        agent.notify("session/cancel", "{\"sessionId\":\"" + session + "\"}");
        assertThat(agent.response(id).path("result").path("stopReason").asText())
            .isEqualTo("cancelled");
        assertThat(agent.finish()).isZero();
      }
    }
  }
}
