package dev.agentdouble.fake;

import static dev.agentdouble.fake.AcpPeer.prompt;
import static dev.agentdouble.fake.AcpTurnIsolationTest.ALLOW_ONCE;
import static dev.agentdouble.fake.AcpTurnIsolationTest.CANCELLED;
import static dev.agentdouble.fake.AcpTurnIsolationTest.answers;
import static dev.agentdouble.fake.AcpTurnIsolationTest.newSession;
import static dev.agentdouble.fake.AcpTurnIsolationTest.turns;
import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What an ACP client can send {@code cursor-agent acp} to stop it: every answer to a permission
 * request ends the wait as ACP says, input it did not ask for is not kept, and whatever ends the
 * agent says why on stderr with exit 70, never a stack trace or a silent exit 0. Through the real
 * launcher and pipes; the memory cases under a small heap ({@code JAVA_TOOL_OPTIONS}).
 */
@Timeout(180)
class AcpHostileClientTest {
  private static final String BIG = "big ACP input";

  @TempDir Path dir;

  private static Map<String, String> toolShell(String... more) {
    Map<String, String> env = env(more);
    env.put("AGENTDOUBLE_TAPE", "builtin:tool-shell");
    env.put("AGENTDOUBLE_TIMING", "fast");
    return env;
  }

  private static void assertNoStackTrace(String stderr) {
    assertThat(stderr).doesNotContain("Exception", "OutOfMemoryError", "\tat ");
  }

  @Test
  void everyAnswerToAPermissionRequestEndsTheWaitAsTheProtocolSays() throws IOException {
    Path journal = dir.resolve("journal.ndjson");
    try (AcpPeer agent = new AcpPeer(toolShell("AGENTDOUBLE_JOURNAL", journal.toString()))) {
      agent.open("/w");

      // cancelled: the turn ends cancelled, the command not run
      JsonNode cancelled = turn(agent, "/cancelled", CANCELLED);
      assertThat(cancelled.path("result").path("stopReason").asText()).isEqualTo("cancelled");

      // a JSON-RPC error, and results that are no outcome: the turn fails, saying why
      JsonNode error =
          turn(agent, "/error", "\"error\":{\"code\":-32000,\"message\":\"Denied by policy\"}");
      assertThat(error.path("error").path("code").asInt()).isEqualTo(-32603);
      assertThat(error.path("error").path("data").path("details").asText())
          .matches(
              "agentdouble: session/request_permission \\(id \\d+\\): the client answered with"
                  + " the error \\{\"code\":-32000,\"message\":\"Denied by policy\"\\}; the turn"
                  + " fails: answer .*");
      for (String result : List.of("{}", "null")) {
        JsonNode invalid = turn(agent, "/invalid", "\"result\":" + result);
        assertThat(invalid.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(invalid.path("error").path("data").path("details").asText())
            .contains("the client's result " + result + " has no \"outcome\" object");
      }

      // an option the agent did not offer is no approval: the command is rejected, the turn
      // goes on
      JsonNode unknown =
          turn(
              agent,
              "/unknown",
              "\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"allow-all\"}}");
      assertThat(unknown.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.updates("tool_call_update"))
          .extracting(u -> u.path("status").asText())
          .endsWith("in_progress", "failed");

      // after all of them the agent goes on
      JsonNode allowed = turn(agent, "/allowed", ALLOW_ONCE);
      assertThat(allowed.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.updates("tool_call_update"))
          .extracting(u -> u.path("status").asText())
          .endsWith("in_progress", "completed");
      assertThat(agent.finish()).isZero();
      assertThat(agent.err())
          .contains("agentdouble: session/request_permission (id ")
          .contains("the client answered with the error");
      assertNoStackTrace(agent.err());
    }
    assertThat(turns(journal))
        .extracting(t -> t.path("cwd").asText() + " " + answers(t) + " " + t.has("error"))
        .containsExactly(
            "/cancelled [cancelled] false",
            "/error [error] true",
            "/invalid [invalid] true",
            "/invalid [invalid] true",
            "/unknown [allow-all] false",
            "/allowed [allow-once] false");
  }

  /** A turn of the tool-shell tape in a new session in {@code cwd}, its permission answered. */
  private static JsonNode turn(AcpPeer agent, String cwd, String answer) {
    String session = newSession(agent, cwd);
    int id = agent.send("session/prompt", prompt(session, "Run the tests"));
    agent.reply(agent.request("session/request_permission"), answer);
    return agent.response(id);
  }

  @Test
  @ResourceLock(BIG)
  void responsesToRequestsTheAgentNeverSentAreDroppedNotKept() {
    int responses = 300_000;
    try (AcpPeer agent = new AcpPeer(toolShell("JAVA_TOOL_OPTIONS", "-Xmx48m"))) {
      agent.open("/w");
      StringBuilder batch = new StringBuilder();
      for (int i = 0; i < responses; i++) {
        batch
            .append("{\"jsonrpc\":\"2.0\",\"id\":")
            .append(1000 + i)
            .append(",\"result\":{\"outcome\":{\"outcome\":\"selected\",")
            .append("\"optionId\":\"allow-once\"}}}\n");
        if (batch.length() > 1 << 16 || i == responses - 1) {
          assertThat(agent.sendBytes(batch.toString().getBytes(StandardCharsets.UTF_8)))
              .as("the agent reads on")
              .isTrue();
          batch.setLength(0);
        }
      }

      // in a heap that could not hold them, the agent plays on
      JsonNode done =
          agent.call("session/prompt", prompt(newSession(agent, "/w"), "Run the tests"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.finish()).isZero();
      assertThat(agent.err())
          .contains(
              "agentdouble: acp: a response to id 1000, which the agent never sent, is ignored,"
                  + " as are any more such\n")
          .doesNotContain("id 1001");
      assertNoStackTrace(agent.err());
    }
  }

  @Test
  @ResourceLock(BIG)
  void aLineLongerThanAnAcpMessageMayBeIsRefusedWithExit70() {
    // 128 MiB of heap holds the 32 MiB a message may be; the line is bigger than the heap
    try (AcpPeer agent = new AcpPeer(toolShell("JAVA_TOOL_OPTIONS", "-Xmx128m"))) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      sendHugeLine(agent, 256);

      assertThat(agent.awaitExit()).isEqualTo(70);
      assertThat(agent.err())
          .contains(
              "\nagentdouble: acp: stdin line 2: the line is longer than 32 MiB (32 MiB read),"
                  + " more than an ACP message may be (the ACP SDK's limit); the agent stops:"
                  + " send big content in a resource link, or in smaller messages\n");
      assertNoStackTrace(agent.err());
    }
    // a heap too small for even that: said for what it is, exit 70 all the same
    try (AcpPeer agent = new AcpPeer(toolShell("JAVA_TOOL_OPTIONS", "-Xmx24m"))) {
      agent.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      sendHugeLine(agent, 256);

      assertThat(agent.awaitExit()).isEqualTo(70);
      assertThat(agent.err())
          .contains("\nagentdouble: acp: stdin line 2: the line is ")
          .containsAnyOf("longer than 32 MiB", "too long for this JVM's memory");
      assertNoStackTrace(agent.err());
    }
  }

  /** A prompt of {@code mib} MiB on one line, written until the agent stops reading. */
  private static void sendHugeLine(AcpPeer agent, int mib) {
    agent.sendBytes(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/prompt\",\"params\":{\"prompt\":[{\"type\":\"text\",\"text\":\""
            .getBytes(StandardCharsets.UTF_8));
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, (byte) 'x');
    for (int i = 0; i < mib && agent.sendBytes(chunk); i++) {
      // the agent reads until it refuses the line
    }
  }

  @Test
  void promptsBeyondTheTurnsPlayedAtOnceAreRefusedAndTheAgentGoesOn() {
    int most = 128;
    try (AcpPeer agent = new AcpPeer(toolShell())) {
      agent.open("/w");
      JsonNode first = null;
      for (int i = 0; i < most; i++) {
        agent.send("session/prompt", prompt(newSession(agent, "/w"), "Run the tests"));
        JsonNode asked = agent.request("session/request_permission");
        first = first == null ? asked : first;
      }

      String waiting = newSession(agent, "/w");
      JsonNode refused = agent.call("session/prompt", prompt(waiting, "Run the tests"));
      assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32603);
      assertThat(refused.path("error").path("data").path("details").asText())
          .isEqualTo(
              "agentdouble: 128 turns are being played at once, the most this agent plays;"
                  + " let one end or cancel it (session/cancel) first");

      // one ends (once its thread has, a moment after its answer): the next prompt is played
      agent.notify(
          "session/cancel",
          "{\"sessionId\":\"" + first.path("params").path("sessionId").asText() + "\"}");
      agent.until(l -> l.contains("\"stopReason\":\"cancelled\""));
      await()
          .atMost(FakeProcess.TIMEOUT)
          .pollInSameThread()
          .until(
              () ->
                  agent
                      .call("session/prompt", prompt(waiting, "Run the tests"))
                      .path("result")
                      .path("stopReason")
                      .asText()
                      .equals("end_turn"));
      assertThat(agent.finish()).isZero();
    }
  }

  @Test
  @ResourceLock(BIG)
  void aTurnWhoseThreadTheSystemWillNotStartIsRefusedForWhatItIs() throws IOException {
    Path status = Path.of("/proc/self/status");
    assumeTrue(Files.isReadable(status), "needs Linux's /proc to size the limit");
    // each thread reserves 64 MiB of stack: a limit on virtual memory a few threads above the
    // agent's own lets it start a few turns, then no more (as a limit on processes would)
    Map<String, String> env =
        toolShell(
            "JAVA_TOOL_OPTIONS",
            "-Xmx48m -Xss64m -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=32m",
            "MALLOC_ARENA_MAX",
            "2");
    long baseKib;
    try (AcpPeer probe = new AcpPeer(env)) {
      probe.call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
      baseKib = vmSizeKib(probe.pid());
    }
    long limitKib = baseKib + 3 * 65_536 + 32_768;
    List<String> command =
        List.of(
            "-c",
            "ulimit -v " + limitKib + " && exec \"$0\" acp",
            FakeProcess.launcher().toString());
    try (AcpPeer agent = new AcpPeer(Path.of("/bin/sh"), env, command)) {
      agent.open("/w");
      JsonNode refused = null;
      for (int i = 0; i < 20 && refused == null; i++) {
        int id = agent.send("session/prompt", prompt(newSession(agent, "/w"), "Run the tests"));
        String line =
            agent.until(
                l ->
                    l.contains("session/request_permission")
                        || l.startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + id + ","));
        if (!line.contains("session/request_permission")) {
          refused = AcpPeer.parse(line);
        }
      }

      assertThat(refused).as("a prompt the agent could not start a thread for").isNotNull();
      assertThat(refused.path("error").path("data").path("details").asText())
          .startsWith("agentdouble: cannot start a thread (unable to create native thread: ")
          .contains("(ulimit -u)");
      // the agent goes on
      assertThat(agent.call("session/list", "{}").path("result").path("sessions").size())
          .isGreaterThan(1);
      assertThat(agent.finish()).isZero();
      assertThat(agent.err()).doesNotContain("agentdouble: out of memory");
      assertNoStackTrace(agent.err());
    }
  }

  private static long vmSizeKib(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmSize:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    throw new AssertionError("no VmSize in /proc/" + pid + "/status");
  }
}
