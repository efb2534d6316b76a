package dev.agentdouble.fake;

import static dev.agentdouble.fake.AcpPeer.prompt;
import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cancel and an answer belong to one session's turn and one request: {@code cursor-agent acp}
 * with two sessions whose turns wait on the client at once, through the real launcher and pipes.
 */
@Timeout(120)
class AcpTurnIsolationTest {
  static final String ALLOW_ONCE =
      "\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"allow-once\"}}";
  static final String REJECT_ONCE =
      "\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"reject-once\"}}";
  static final String CANCELLED = "\"result\":{\"outcome\":{\"outcome\":\"cancelled\"}}";

  @TempDir Path dir;

  /** A new session in {@code cwd} of an agent already initialised; its id. */
  static String newSession(AcpPeer agent, String cwd) {
    return agent
        .call("session/new", "{\"cwd\":\"" + cwd + "\",\"mcpServers\":[]}")
        .path("result")
        .path("sessionId")
        .asText();
  }

  /** The journal's lines: one per turn. */
  static List<JsonNode> turns(Path journal) throws IOException {
    List<JsonNode> turns = new ArrayList<>();
    for (String line : Files.readAllLines(journal)) {
      turns.add(AcpPeer.parse(line));
    }
    return turns;
  }

  static List<String> answers(JsonNode turn) {
    List<String> answers = new ArrayList<>();
    turn.path("permissionAnswers").forEach(a -> answers.add(a.asText()));
    return answers;
  }

  @Test
  void aCancelEndsTheTurnOfItsSessionAndNoOther() throws IOException {
    Path journal = dir.resolve("journal.ndjson");
    Map<String, String> env =
        env(
            "AGENTDOUBLE_TAPE",
            "builtin:tool-shell",
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_JOURNAL",
            journal.toString());
    try (AcpPeer agent = new AcpPeer(env)) {
      String a = agent.open("/a");
      String b = newSession(agent, "/b");
      int promptA = agent.send("session/prompt", prompt(a, "Run the tests"));
      JsonNode askedA = agent.request("session/request_permission");
      int promptB = agent.send("session/prompt", prompt(b, "Run the tests"));
      JsonNode askedB = agent.request("session/request_permission");
      assertThat(askedA.path("params").path("sessionId").asText()).isEqualTo(a);
      assertThat(askedB.path("params").path("sessionId").asText()).isEqualTo(b);

      agent.notify("session/cancel", "{\"sessionId\":\"" + a + "\"}");
      assertThat(agent.response(promptA).path("result").path("stopReason").asText())
          .isEqualTo("cancelled");
      // what ACP asks of a client that cancels: its pending requests answered cancelled
      agent.reply(askedA, CANCELLED);

      // B still waits for its own answer, and takes it
      agent.reply(askedB, ALLOW_ONCE);
      assertThat(agent.response(promptB).path("result").path("stopReason").asText())
          .isEqualTo("end_turn");
      // and its later prompts are answered
      JsonNode again = agent.call("session/prompt", prompt(b, "Run them again"));
      assertThat(again.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      // A's turn writes its line once it has stopped, after the cancel answered its prompt
      await().atMost(FakeProcess.TIMEOUT).until(() -> turns(journal).size() == 3);
      assertThat(agent.finish()).isZero();
      // the late "cancelled" answer is to a request the agent sent: dropped, not complained of
      assertThat(agent.err()).doesNotContain("never sent");
    }
    assertThat(turns(journal))
        .extracting(t -> t.path("cwd").asText() + " " + answers(t))
        .containsExactlyInAnyOrder("/a [cancelled]", "/b [allow-once]", "/b [allow-once]");
  }

  @Test
  void eachTurnsRequestGoesOutUnderItsOwnIdAndTakesOnlyItsOwnAnswer() throws IOException {
    // a recorded turn whose agent asks permission under its own recorded id, 0
    Files.writeString(
        dir.resolve("asks.tape.ndjson"),
        String.join(
            "\n",
            "{\"tape\":1,\"argv\":[\"acp\"],\"outputFormat\":\"acp\",\"source\":\"scripted\"}",
            "{\"t\":0,\"in\":{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/prompt\","
                + "\"params\":{\"sessionId\":\"s-1\"}}}",
            "{\"t\":1,\"out\":{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":"
                + "\"session/request_permission\",\"params\":{\"sessionId\":\"s-1\"}}}",
            "{\"t\":2,\"in\":{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":"
                + "{\"outcome\":\"selected\",\"optionId\":\"allow-once\"}}}}",
            "{\"t\":3,\"out\":{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":"
                + "{\"stopReason\":\"end_turn\"}}}",
            "{\"t\":4,\"exit\":0}",
            ""));
    Path journal = dir.resolve("journal.ndjson");
    Map<String, String> env =
        env(
            "AGENTDOUBLE_TAPES",
            dir.toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_JOURNAL",
            journal.toString());
    try (AcpPeer agent = new AcpPeer(env)) {
      String a = agent.open("/a");
      String b = newSession(agent, "/b");
      int promptA = agent.send("session/prompt", prompt(a, "hi"));
      JsonNode askedA = agent.request("session/request_permission");
      int promptB = agent.send("session/prompt", prompt(b, "hi"));
      JsonNode askedB = agent.request("session/request_permission");
      assertThat(askedA.path("params").path("sessionId").asText()).isEqualTo(a);
      assertThat(askedB.path("params").path("sessionId").asText()).isEqualTo(b);
      assertThat(askedA.get("id")).isNotEqualTo(askedB.get("id"));

      agent.reply(askedB, REJECT_ONCE);
      assertThat(agent.response(promptB).path("result").path("stopReason").asText())
          .isEqualTo("end_turn");
      agent.reply(askedA, ALLOW_ONCE);
      assertThat(agent.response(promptA).path("result").path("stopReason").asText())
          .isEqualTo("end_turn");
      assertThat(agent.finish()).isZero();
    }
    assertThat(turns(journal))
        .extracting(t -> t.path("cwd").asText() + " " + answers(t))
        .containsExactlyInAnyOrder("/a [allow-once]", "/b [reject-once]");
  }
}
