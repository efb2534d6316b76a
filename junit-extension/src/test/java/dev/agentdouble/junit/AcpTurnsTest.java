package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentdouble.catalog.Catalog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/** An ACP client's turns are invocations: a tape each, and the client's permission answers. */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class AcpTurnsTest {
  @Test
  void eachPromptTakesATapeAndThePermissionAnswersAreKept(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("tool-shell")).enqueue(Catalog.tape("thinking-then-answer"));
    assertThat(agent.acpCommand()).containsExactly(agent.executable().toString(), "acp");

    Process process = new ProcessBuilder(agent.acpCommand()).start();
    try (OutputStream in = process.getOutputStream();
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"session/new\",\"params\":{\"cwd\":\"/w\"}}");
      String created = until(out, in, "\"id\":2,");
      String session = created.replaceAll(".*\"sessionId\":\"([^\"]+)\".*", "$1");
      send(in, prompt(3, session, "Run the tests"));
      until(out, in, "\"id\":3,");
      send(in, prompt(4, session, "Is 2026 a leap year?"));
      assertThat(until(out, in, "\"id\":4,")).contains("\"stopReason\":\"end_turn\"");
    }
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();

    List<Invocation> turns = agent.invocations();
    assertThat(turns)
        .extracting(Invocation::prompt)
        .containsExactly("Run the tests", "Is 2026 a leap year?");
    assertThat(turns).extracting(Invocation::outputFormat).containsOnly("acp");
    assertThat(turns.get(0).permissionAnswers()).containsExactly("reject-once");
    assertThat(turns.get(1).permissionAnswers()).isEmpty();
    assertThat(agent.permissionAnswers()).containsExactly("reject-once");
    agent.verify(2, InvocationPattern.invocation().outputFormat("acp"));
  }

  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aCancelReachesTheControlPlaneForItsSessionsTurnAlone(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("tool-shell")).enqueue(Catalog.tape("tool-shell"));

    Process process = new ProcessBuilder(agent.acpCommand()).start();
    try (OutputStream in = process.getOutputStream();
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      send(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
      String a = newSession(out, in, 2);
      String b = newSession(out, in, 3);
      send(in, prompt(4, a, "Run the tests"));
      String askedA = waitFor(out, "session/request_permission");
      send(in, prompt(5, b, "Run the tests"));
      String askedB = waitFor(out, "session/request_permission");
      assertThat(askedA).contains(a);
      assertThat(askedB).contains(b);

      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\":{\"sessionId\":\""
              + a
              + "\"}}");
      assertThat(waitFor(out, "\"id\":4,")).contains("\"stopReason\":\"cancelled\"");
      send(
          in,
          "{\"jsonrpc\":\"2.0\",\"id\":"
              + requestId(askedB)
              + ",\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"allow-once\"}}}");
      assertThat(waitFor(out, "\"id\":5,")).contains("\"stopReason\":\"end_turn\"");
      // A's turn reports its answer once it has stopped, after the cancel answered its prompt
      await().atMost(Duration.ofSeconds(30)).until(() -> agent.permissionAnswers().size() == 2);
    } finally {
      process.destroyForcibly();
    }

    List<Invocation> turns = agent.invocations();
    assertThat(turns).hasSize(2);
    assertThat(turns.get(0).permissionAnswers()).containsExactly("cancelled");
    assertThat(turns.get(1).permissionAnswers()).containsExactly("allow-once");
    assertThat(agent.permissionAnswers()).containsExactlyInAnyOrder("cancelled", "allow-once");
  }

  private static String newSession(BufferedReader out, OutputStream in, int id) throws IOException {
    send(
        in,
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\"session/new\",\"params\":{\"cwd\":\"/w\"}}");
    return waitFor(out, "\"id\":" + id + ",").replaceAll(".*\"sessionId\":\"([^\"]+)\".*", "$1");
  }

  private static String requestId(String request) {
    return request.replaceAll("^\\{\"jsonrpc\":\"2.0\",\"id\":(\\d+),.*", "$1");
  }

  /** Reads lines until one contains {@code marker}, answering nothing. */
  private static String waitFor(BufferedReader out, String marker) throws IOException {
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = out.readLine()) != null) {
      seen.add(line);
      if (line.contains(marker)) {
        return line;
      }
    }
    throw new AssertionError("stdout ended before " + marker + "; seen " + seen);
  }

  private static String prompt(int id, String session, String text) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"session/prompt\",\"params\":{\"sessionId\":\""
        + session
        + "\",\"prompt\":[{\"type\":\"text\",\"text\":\""
        + text
        + "\"}]}}";
  }

  /** Reads lines until one contains {@code marker}, rejecting every permission request. */
  private static String until(BufferedReader out, OutputStream in, String marker)
      throws IOException {
    List<String> seen = new ArrayList<>();
    String line;
    while ((line = out.readLine()) != null) {
      seen.add(line);
      if (line.contains("\"method\":\"session/request_permission\"")) {
        String id = line.replaceAll("^\\{\"jsonrpc\":\"2.0\",\"id\":(\\d+),.*", "$1");
        send(
            in,
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + id
                + ",\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"reject-once\"}}}");
      } else if (line.contains(marker)) {
        return line;
      }
    }
    throw new AssertionError("stdout ended before " + marker + "; seen " + seen);
  }

  private static void send(OutputStream in, String line) throws IOException {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }
}
