package dev.agentdouble.fake;

import static dev.agentdouble.fake.AcpPeer.prompt;
import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.cursor.CursorAcp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cursor-agent acp} through the real launcher and real pipes, driven as an ACP client. */
class AcpTest {
  @TempDir Path dir;

  private Map<String, String> builtin(String name, String... more) {
    Map<String, String> env = env(more);
    env.put("AGENTDOUBLE_TAPE", "builtin:" + name);
    env.put("AGENTDOUBLE_TIMING", "fast");
    return env;
  }

  @Test
  void answersTheHandshakeAsCursorDoes() {
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"))) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      agent.call("authenticate", "{\"methodId\":\"cursor_login\"}");
      JsonNode created = agent.call("session/new", "{\"cwd\":\"/w\",\"mcpServers\":[]}");
      String session = created.path("result").path("sessionId").asText();
      assertThat(agent.seen().get(0))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + CursorAcp.INITIALIZE_RESULT + "}");
      assertThat(agent.seen().get(1)).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}");
      assertThat(agent.seen().get(2))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":"
                  + CursorAcp.newSessionResult(session, "agent", CursorAcp.DEFAULT_MODEL)
                  + "}");
      assertThat(session)
          .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
      assertThat(agent.finish()).isZero();
    }
  }

  @Test
  void aSignedOutProfileFailsAuthenticateLikeTheRealTranscript() throws IOException {
    Path loggedOut = dir.resolve("logged-out.json");
    Files.writeString(loggedOut, "{\"loggedIn\":false}");
    try (AcpPeer agent =
        new AcpPeer(builtin("thinking-then-answer", "AGENTDOUBLE_PROFILE", loggedOut.toString()))) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      JsonNode auth = agent.call("authenticate", "{\"methodId\":\"cursor_login\"}");
      assertThat(agent.seen().get(1))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,\"message\":\"Internal"
                  + " error\",\"data\":{\"details\":\""
                  + CursorAcp.AUTH_FAILURE_DETAILS
                  + "\"}}}");
      assertThat(auth.path("error").path("code").asInt()).isEqualTo(-32603);
      JsonNode created = agent.call("session/new", "{\"cwd\":\"/w\",\"mcpServers\":[]}");
      assertThat(created.has("error")).isTrue();
    }
  }

  @Test
  void aTurnPlaysThoughtsAndTextAndEndsTheTurn() {
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"))) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", prompt(session, "Is 2026 a leap year?"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.updates("agent_thought_chunk"))
          .extracting(u -> u.path("content").path("text").asText())
          .containsExactly(
              "The user asks whether 2026 is a leap year. ",
              "2026 is not divisible by 4, so it is not.");
      assertThat(agent.updates("agent_message_chunk"))
          .extracting(u -> u.path("content").path("text").asText())
          .containsExactly("No. 2026 is not divisible by 4, so it is not a leap year.");
      assertThat(agent.finish()).isZero();
    }
  }

  @Test
  void aShellCommandAsksPermissionAndRunsWhenAllowed() throws IOException {
    Path journal = dir.resolve("journal.ndjson");
    try (AcpPeer agent =
        new AcpPeer(builtin("tool-shell", "AGENTDOUBLE_JOURNAL", journal.toString()))) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", prompt(session, "Run the tests"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.seen())
          .anySatisfy(
              l ->
                  assertThat(l)
                      .startsWith(
                          "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session/request_permission\"")
                      .contains("\"options\":" + CursorAcp.PERMISSION_OPTIONS)
                      .contains(CursorAcp.notInAllowlist("npm")));
      List<JsonNode> updates = agent.updates("tool_call_update");
      assertThat(updates)
          .extracting(u -> u.path("status").asText())
          .containsExactly("in_progress", "completed");
      JsonNode call = agent.updates("tool_call").get(0);
      assertThat(call.path("kind").asText()).isEqualTo("execute");
      assertThat(call.path("title").asText()).isEqualTo("`npm test`");
      assertThat(call.path("rawInput").toString()).isEqualTo("{\"command\":\"npm test\"}");
      assertThat(agent.finish()).isZero();
    }
    assertThat(Files.readString(journal))
        .contains("\"outputFormat\":\"acp\"")
        .contains("\"renderedFrom\":\"stream-json\"")
        .contains("\"tape\":\"builtin:tool-shell\"")
        .contains("\"permissionAnswers\":[\"allow-once\"]");
  }

  @Test
  void aRejectedCommandFailsAndDoesNotComplete() throws IOException {
    Path journal = dir.resolve("journal.ndjson");
    try (AcpPeer agent =
        new AcpPeer(builtin("tool-shell", "AGENTDOUBLE_JOURNAL", journal.toString()))
            .answering(request -> "reject-once")) {
      String session = agent.open("/w");
      agent.call("session/prompt", prompt(session, "Run the tests"));
      assertThat(agent.updates("tool_call_update"))
          .extracting(u -> u.path("status").asText())
          .containsExactly("in_progress", "failed");
      assertThat(agent.finish()).isZero();
    }
    assertThat(Files.readString(journal)).contains("\"permissionAnswers\":[\"reject-once\"]");
  }

  @Test
  void forceRunsCommandsWithoutAsking() {
    try (AcpPeer agent = new AcpPeer(builtin("tool-shell"), "--force", "acp")) {
      String session = agent.open("/w");
      agent.call("session/prompt", prompt(session, "Run the tests"));
      assertThat(agent.seen()).noneMatch(l -> l.contains("session/request_permission"));
      assertThat(agent.updates("tool_call_update"))
          .extracting(u -> u.path("status").asText())
          .containsExactly("in_progress", "completed");
    }
  }

  /**
   * The 2026.10 shapes of calls that did not run, over ACP: a shell call the permissions deny and a
   * read that failed each end {@code failed}, their outcome as {@code rawOutput}; the turn ends
   * well.
   */
  @Test
  void deniedAndFailedCallsFailTheirToolCallAndTheTurnEndsWell() {
    try (AcpPeer agent = new AcpPeer(builtin("permission-denied-shell"), "--force", "acp")) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", prompt(session, "Push the branch"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      List<JsonNode> updates = agent.updates("tool_call_update");
      assertThat(updates)
          .extracting(u -> u.path("status").asText())
          .containsExactly("in_progress", "failed");
      assertThat(updates.get(1).at("/rawOutput/permissionDenied/error").asText())
          .isEqualTo("Command blocked by permissions configuration");
      assertThat(updates.get(1).at("/rawOutput/permissionDenied/workingDirectory").asText())
          .isEqualTo("/w");
    }
    try (AcpPeer agent = new AcpPeer(builtin("permission-denied-read"), "acp")) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", prompt(session, "Which database?"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.seen()).noneMatch(l -> l.contains("session/request_permission"));
      List<JsonNode> updates = agent.updates("tool_call_update");
      assertThat(updates)
          .extracting(u -> u.path("status").asText())
          .containsExactly("in_progress", "failed");
      assertThat(updates.get(1).at("/rawOutput/error/errorMessage").asText()).isNotBlank();
    }
  }

  @Test
  void aTurnThatNeverEndsEndsWhenCancelled() {
    try (AcpPeer agent = new AcpPeer(builtin("hang-mid-stream"), "--force", "acp")) {
      String session = agent.open("/w");
      int id = agent.send("session/prompt", prompt(session, "Start the dev server"));
      agent.until(l -> l.contains("\"tool_call_update\""));
      agent.notify("session/cancel", "{\"sessionId\":\"" + session + "\"}");
      JsonNode done = agent.response(id);
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("cancelled");
      assertThat(agent.finish()).isZero();
    }
  }

  @Test
  void aCrashMidTurnKillsTheAgent() {
    try (AcpPeer agent = new AcpPeer(builtin("killed-mid-tool-call"), "--force", "acp")) {
      String session = agent.open("/w");
      agent.send("session/prompt", prompt(session, "Run the tests"));
      assertThat(agent.awaitExit()).isEqualTo(137);
    }
  }

  @Test
  void aFailedRunAnswersThePromptWithItsError() {
    try (AcpPeer agent = new AcpPeer(builtin("usage-limit"))) {
      String session = agent.open("/w");
      JsonNode failed = agent.call("session/prompt", prompt(session, "Refactor"));
      assertThat(failed.path("error").path("code").asInt()).isEqualTo(-32603);
      assertThat(failed.path("error").path("data").path("details").asText())
          .startsWith("ActionRequiredError: You've hit your usage limit.");
      // the agent lives on: the next request is answered
      assertThat(agent.call("session/list", "{}").path("result").path("sessions")).hasSize(1);
      assertThat(agent.finish()).isZero();
      assertThat(agent.err()).contains("You've hit your usage limit");
    }
  }

  @Test
  void aMalformedLineOfTheTapeReachesTheClientAsItIs() {
    try (AcpPeer agent = new AcpPeer(builtin("non-json-line"))) {
      String session = agent.open("/w");
      agent.call("session/prompt", prompt(session, "Say hello"));
      assertThat(agent.seen())
          .contains("Update available: 2026.10.08. Run `agent update` to install it.");
    }
  }

  @Test
  void badInputGetsJsonRpcErrorsAndTheAgentGoesOn() {
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"))) {
      agent.sendLine("{not json");
      assertThat(AcpPeer.parse(agent.next()).path("error").path("code").asInt()).isEqualTo(-32700);
      agent.sendLine("{\"id\":7,\"method\":\"initialize\"}");
      assertThat(AcpPeer.parse(agent.next()).path("error").path("code").asInt()).isEqualTo(-32600);
      JsonNode unknown = agent.call("cursor/no_such_method", "{}");
      assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);
      JsonNode noSession = agent.call("session/prompt", prompt("nope", "hi"));
      assertThat(noSession.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(agent.finish()).isZero();
    }
  }

  /**
   * The errors of 2026.09.18 (docs/cli.md, sources): an unknown method names itself in the message,
   * a session/load of an id the agent does not know is -32602 "Invalid params" with {@code
   * data.message}.
   */
  @Test
  void unknownMethodsAndSessionsAreRefusedWithTheRealCodesAndMessages() {
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"))) {
      agent.open("/w");
      JsonNode unknown = agent.call("session/resume", "{\"sessionId\":\"x\"}");
      assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32601);
      assertThat(unknown.path("error").path("message").asText())
          .isEqualTo("\"Method not found\": session/resume");
      String id = "96e7a8e2-1b7c-4a7e-9d39-0f1f6b8c2a10";
      JsonNode load = agent.call("session/load", "{\"sessionId\":\"" + id + "\",\"cwd\":\"/w\"}");
      assertThat(load.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(load.path("error").path("message").asText()).isEqualTo("Invalid params");
      assertThat(load.path("error").path("data").path("message").asText())
          .isEqualTo("Session \"" + id + "\" not found");
      assertThat(agent.finish()).isZero();
    }
  }

  /** {@code --model NAME} before {@code acp}: the session's model is the variant of that name. */
  @Test
  void aModelNamedOnTheCommandLineIsItsBracketVariant() {
    try (AcpPeer agent =
        new AcpPeer(builtin("thinking-then-answer"), "--model", "gpt-5.5", "acp")) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      JsonNode created = agent.call("session/new", "{\"cwd\":\"/w\",\"mcpServers\":[]}");
      assertThat(created.path("result").path("models").path("currentModelId").asText())
          .isEqualTo("gpt-5.5[context=272k,reasoning=medium,fast=false]");
    }
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"), "--model", "auto", "acp")) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      JsonNode created = agent.call("session/new", "{\"cwd\":\"/w\",\"mcpServers\":[]}");
      assertThat(created.path("result").path("models").path("currentModelId").asText())
          .isEqualTo("default[]");
    }
  }

  @Test
  void withoutATapeTheTurnFailsLoudlyNeverSucceeds() {
    Map<String, String> env = env("AGENTDOUBLE_TIMING", "fast");
    try (AcpPeer agent = new AcpPeer(env)) {
      String session = agent.open("/w");
      JsonNode failed = agent.call("session/prompt", prompt(session, "hi"));
      assertThat(failed.path("error").path("data").path("details").asText())
          .startsWith("agentdouble: no tape configured");
      assertThat(agent.finish()).isZero();
      assertThat(agent.err()).contains("agentdouble: no tape configured");
    }
  }

  @Test
  void modesChangeWithAnUpdate() {
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"))) {
      String session = agent.open("/w");
      agent.call("session/set_mode", "{\"sessionId\":\"" + session + "\",\"modeId\":\"plan\"}");
      assertThat(agent.updates("current_mode_update"))
          .extracting(u -> u.path("currentModeId").asText())
          .containsExactly("plan");
      JsonNode bad =
          agent.call("session/set_mode", "{\"sessionId\":\"" + session + "\",\"modeId\":\"x\"}");
      assertThat(bad.path("error").path("code").asInt()).isEqualTo(-32602);
      JsonNode options =
          agent.call(
              "session/set_config_option",
              "{\"sessionId\":\""
                  + session
                  + "\",\"configId\":\"model\",\"value\":\"gpt-5.5[context=272k,reasoning=medium,"
                  + "fast=false]\"}");
      assertThat(options.path("result").path("configOptions").get(1).path("currentValue").asText())
          .isEqualTo("gpt-5.5[context=272k,reasoning=medium,fast=false]");
      assertThat(options.path("result").path("configOptions").get(0).path("currentValue").asText())
          .isEqualTo("plan");
    }
  }

  @Test
  void aSessionLoadsInALaterAgentWithItsHistory() {
    Map<String, String> env = builtin("thinking-then-answer");
    env.put("AGENTDOUBLE_STATE_DIR", dir.resolve("state").toString());
    String session;
    try (AcpPeer first = new AcpPeer(env)) {
      session = first.open("/w");
      first.call("session/prompt", prompt(session, "Is 2026 a leap year?"));
      assertThat(first.finish()).isZero();
    }
    try (AcpPeer second = new AcpPeer(env)) {
      second.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      JsonNode loaded =
          second.call(
              "session/load",
              "{\"sessionId\":\"" + session + "\",\"cwd\":\"/w\",\"mcpServers\":[]}");
      assertThat(loaded.has("result")).isTrue();
      assertThat(second.updates("user_message_chunk"))
          .extracting(u -> u.path("content").path("text").asText())
          .containsExactly("Is 2026 a leap year?");
      assertThat(second.updates("agent_message_chunk")).hasSize(1);
      JsonNode again = second.call("session/prompt", prompt(session, "And 2028?"));
      assertThat(again.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      JsonNode unknown =
          second.call(
              "session/load",
              "{\"sessionId\":\"no-such-session\",\"cwd\":\"/w\",\"mcpServers\":[]}");
      assertThat(unknown.path("error").path("code").asInt()).isEqualTo(-32602);
      assertThat(unknown.path("error").path("message").asText()).isEqualTo("Invalid params");
      assertThat(unknown.path("error").path("data").path("message").asText())
          .isEqualTo("Session \"no-such-session\" not found");
    }
  }

  @Test
  void stdinsEndEndsTheAgent() {
    try (AcpPeer agent = new AcpPeer(builtin("thinking-then-answer"))) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      assertThat(agent.finish()).isZero();
    }
  }

  /** A recorded session: the handshake, one turn with a permission request, the client leaving. */
  static final String SESSION =
      String.join(
          "\n",
          "{\"tape\":1,\"argv\":[\"acp\"],\"outputFormat\":\"acp\",\"source\":\"scripted\"}",
          "{\"t\":0,\"in\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}}",
          "{\"t\":1,\"out\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":1}}}",
          "{\"t\":2,\"in\":{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\"s-1\"}}}",
          "{\"t\":3,\"out\":{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s-1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}}}}",
          "{\"t\":4,\"gate\":\"asked\"}",
          "{\"t\":4,\"out\":{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session/request_permission\",\"params\":{\"sessionId\":\"s-1\"}}}",
          "{\"t\":5,\"in\":{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"allow-once\"}}}}",
          "{\"t\":6,\"out\":{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"stopReason\":\"end_turn\"}}}",
          "{\"t\":7,\"exit\":0}",
          "");

  private Map<String, String> session() throws IOException {
    Path tape = dir.resolve("session.tape.ndjson");
    Files.writeString(tape, SESSION);
    return env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast");
  }

  @Test
  void aRecordedSessionReplaysUnderTheClientsOwnIds() throws IOException {
    try (AcpPeer agent = new AcpPeer(session())) {
      agent.sendLine(
          "{\"jsonrpc\":\"2.0\",\"id\":\"init-a\",\"method\":\"initialize\",\"params\":{}}");
      assertThat(agent.next())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"init-a\",\"result\":{\"protocolVersion\":1}}");
      agent.sendLine("{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"session/prompt\",\"params\":{}}");
      JsonNode done = agent.response(41);
      assertThat(done.toString())
          .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":41,\"result\":{\"stopReason\":\"end_turn\"}}");
      // what the client may still ask has no answer in the tape: an error, never a success
      JsonNode extra = agent.call("session/list", "{}");
      assertThat(extra.path("error").path("data").path("details").asText())
          .contains("the tape has no answer for request \"session/list\"");
      assertThat(agent.finish()).isZero();
    }
  }

  @Test
  void aClientThatStraysFromTheRecordingIsToldWhere() throws IOException {
    try (AcpPeer agent = new AcpPeer(session())) {
      agent.call("initialize", "{}");
      agent.send("session/new", "{\"cwd\":\"/w\"}");
      assertThat(agent.awaitExit()).isEqualTo(70);
      assertThat(agent.err())
          .contains(
              "session.tape.ndjson:4: the client sent request \"session/new\" (id 2),"
                  + " the tape has request \"session/prompt\" (id 2)");
    }
  }

  @Test
  void aTurnCanBeAnsweredByTheFirstTurnOfAnAcpTape() throws IOException {
    Path tape = dir.resolve("turn.tape.ndjson");
    Files.writeString(tape, SESSION);
    Map<String, String> env =
        env("AGENTDOUBLE_TAPES", dir.toString(), "AGENTDOUBLE_TIMING", "fast");
    try (AcpPeer agent = new AcpPeer(env)) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", prompt(session, "hi"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.updates("agent_message_chunk")).hasSize(1);
      assertThat(agent.seen())
          .filteredOn(l -> l.contains("session/update"))
          .allMatch(l -> l.contains("\"sessionId\":\"" + session + "\""));
      assertThat(agent.finish()).isZero();
    }
  }

  @Test
  void aGateHoldsTheSessionUntilReleased() throws Exception {
    Path gates = Files.createDirectories(dir.resolve("gates"));
    Map<String, String> env = session();
    env.put("AGENTDOUBLE_GATES", gates.toString());
    try (AcpPeer agent = new AcpPeer(env)) {
      agent.call("initialize", "{}");
      int id = agent.send("session/prompt", "{}");
      agent.until(l -> l.contains("agent_message_chunk"));
      Path reached = gates.resolve("asked.reached");
      await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(reached));
      assertThat(agent.seen()).noneMatch(l -> l.contains("request_permission"));
      Files.createFile(gates.resolve("asked.release"));
      assertThat(agent.response(id).path("result").path("stopReason").asText())
          .isEqualTo("end_turn");
    }
  }

  @Test
  void aRecordedSessionTakesTheLiveFolderAndLoadedSession() throws IOException {
    Path tape = dir.resolve("vars.tape.ndjson");
    Files.writeString(
        tape,
        String.join(
            "\n",
            "{\"tape\":1,\"outputFormat\":\"acp\",\"vars\":{\"sessionId\":"
                + "\"00000000-0000-4000-8000-000000000001\",\"cwd\":\"/workspace\"}}",
            "{\"t\":0,\"in\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session/load\","
                + "\"params\":{\"sessionId\":\"00000000-0000-4000-8000-000000000001\","
                + "\"cwd\":\"/workspace\"}}}",
            "{\"t\":1,\"out\":{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":"
                + "{\"sessionId\":\"00000000-0000-4000-8000-000000000001\",\"update\":"
                + "{\"sessionUpdate\":\"tool_call\",\"title\":\"Read\","
                + "\"rawInput\":{\"path\":\"/workspace/src/a.ts\"}}}}}",
            "{\"t\":2,\"out\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}",
            "{\"t\":3,\"exit\":0}",
            ""));
    String live = "6d1e4a52-4a8e-4f3c-9a51-2b7c8d9e0f11";
    try (AcpPeer agent =
        new AcpPeer(env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"))) {
      agent.call("session/load", "{\"sessionId\":\"" + live + "\",\"cwd\":\"/home/dev/shop\"}");
      assertThat(agent.seen().get(0))
          .isEqualTo(
              "{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\""
                  + live
                  + "\",\"update\":{\"sessionUpdate\":\"tool_call\",\"title\":\"Read\","
                  + "\"rawInput\":{\"path\":\"/home/dev/shop/src/a.ts\"}}}}");
      assertThat(agent.finish()).isZero();
    }
  }

  static String text(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
