package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A {@code claude -p} run as a control server sees it: the invocation it asks a tape for carries
 * its CLI and the session the fake plays; a run Claude Code refuses before it needs a tape is
 * reported with its reason, as Cursor's checks are, and a usage error of commander is not.
 */
@Timeout(120)
class ClaudeControlPlaneTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String GIVEN = "22222222-3333-4444-8555-666666666666";

  final List<String> paths = new CopyOnWriteArrayList<>();
  final List<String> bodies = new CopyOnWriteArrayList<>();
  HttpServer server;
  Map<String, String> env;

  @BeforeEach
  void controlServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          paths.add(exchange.getRequestURI().getPath());
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] tape = ClaudePrintTest.TAPE.getBytes(StandardCharsets.UTF_8);
          if (exchange.getRequestURI().getPath().endsWith("/stopped")) {
            exchange.sendResponseHeaders(204, -1);
          } else {
            exchange.sendResponseHeaders(200, tape.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(tape);
            }
          }
          exchange.close();
        });
    server.start();
    env = new HashMap<>();
    env.put("AGENTDOUBLE_URL", "http://127.0.0.1:" + server.getAddress().getPort() + "/ad/t1");
    env.put("AGENTDOUBLE_TIMING", "fast");
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private FakeProcess.Result claude(String stdin, String... args) {
    return FakeProcess.run(
        ClaudeArgvTest.claude(), env, stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  private JsonNode onlyBody() throws IOException {
    assertThat(bodies).hasSize(1);
    return JSON.readTree(bodies.get(0));
  }

  @Test
  void theInvocationAskedForATapeCarriesItsCliAndTheSessionItPlays() throws IOException {
    FakeProcess.Result r = claude("", "-p", "--output-format", "json", "Say hello");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(paths).containsExactly("/ad/t1/invocations");
    JsonNode body = onlyBody();
    assertThat(body.path("cli").asText()).isEqualTo("claude");
    assertThat(body.path("sessionId").asText())
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(r.out()).contains("\"session_id\":\"" + body.path("sessionId").asText() + "\"");
  }

  @Test
  void aGivenSessionIsTheInvocationsAndAContinuedOneIsTheTapes() throws IOException {
    claude("", "-p", "--session-id", GIVEN, "hi");
    assertThat(onlyBody().path("sessionId").asText()).isEqualTo(GIVEN);

    bodies.clear();
    FakeProcess.Result continued = claude("", "-p", "--continue", "hi");
    assertThat(continued.exit()).as(continued.err()).isZero();
    assertThat(onlyBody().has("sessionId")).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "session-id-needs-fork | -p --session-id " + GIVEN + " --resume " + GIVEN + " hi",
        "session-id-invalid | -p --session-id nope hi",
        "input-format-needs-stream | -p --input-format stream-json hi",
        "partial-needs-stream | -p --include-partial-messages hi",
        "resume-not-uuid | -p --resume abc hi",
        "no-input | -p",
        "verbose-needed | -p --output-format stream-json hi",
        "verbose-needed | -p --input-format stream-json --output-format stream-json",
      })
  void aRunRefusedBeforeItNeedsATapeIsReportedWithItsReason(String reason, String argv)
      throws IOException {
    FakeProcess.Result r = claude("", argv.split(" "));

    assertThat(r.exit()).as(r.err()).isEqualTo(1);
    assertThat(paths).containsExactly("/ad/t1/invocations/stopped");
    JsonNode body = onlyBody();
    assertThat(body.path("stoppedBy").asText()).isEqualTo(reason);
    assertThat(body.path("cli").asText()).isEqualTo("claude");
    assertThat(body.path("argv").size()).isEqualTo(argv.split(" ").length);
  }

  @Test
  void aRefusedRunSaysTheSessionItAskedForAndThePromptOfItsArguments() throws IOException {
    claude("", "-p", "--resume", "abc", "hi");

    JsonNode body = onlyBody();
    assertThat(body.path("sessionId").asText()).isEqualTo("abc");
    assertThat(body.path("prompt").asText()).isEqualTo("hi");
  }

  @Test
  void aUsageErrorOfCommanderIsNotReported() {
    FakeProcess.Result r = claude("", "-p", "--no-such-option", "hi");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("unknown option");
    assertThat(paths).isEmpty();
  }
}
