package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.agentdouble.script.Script;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fake sends the control server's secret ({@code AGENTDOUBLE_SECRET}) with every request, in
 * the {@code X-AgentDouble-Secret} header and nowhere else, and says plainly when the server
 * refuses it.
 */
@Timeout(120)
class ControlSecretTest {
  private static final String SECRET = "s3cr3t-0123456789abcdefghij";

  @TempDir Path dir;
  private HttpServer server;
  private String url;
  private final List<String> requests = new CopyOnWriteArrayList<>();
  private byte[] tape;

  /** A control server that answers with the tape when the secret is right, else 401. */
  @BeforeEach
  void start() throws IOException {
    Path file = dir.resolve("answer.tape.ndjson");
    Script.of("hello").init().user().assistant("Hi.").result().exit(0).build().write(file);
    tape = Files.readAllBytes(file);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String given = exchange.getRequestHeaders().getFirst("X-AgentDouble-Secret");
          requests.add(
              exchange.getRequestURI().getPath()
                  + " "
                  + given
                  + " "
                  + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          boolean ok = SECRET.equals(given);
          byte[] body = ok ? tape : "no".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(ok ? 200 : 401, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
    url = "http://127.0.0.1:" + server.getAddress().getPort() + "/agentdouble/t1";
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  void theSecretGoesInAHeaderOfEveryRequestAndNowhereElse() throws IOException {
    Path journal = dir.resolve("journal.ndjson");
    Map<String, String> env =
        env(
            "AGENTDOUBLE_URL",
            url,
            "AGENTDOUBLE_SECRET",
            SECRET,
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_JOURNAL",
            journal.toString(),
            "AGENTDOUBLE_FORWARD_ENV",
            "AGENTDOUBLE_SECRET");

    FakeProcess.Result answered = run(env, "-p", "--output-format", "text", "hello");
    Map<String, String> untrusted = new HashMap<>(env);
    untrusted.put("AGENTDOUBLE_TRUST", "untrusted");
    FakeProcess.Result stopped =
        FakeProcess.runIn(Files.createDirectories(dir.resolve("w")), untrusted, "-p", "hello");

    assertThat(answered.exit()).as(answered.err()).isZero();
    assertThat(answered.out()).isEqualTo("Hi.\n");
    assertThat(stopped.exit()).isEqualTo(1);
    assertThat(requests).hasSize(2);
    assertThat(requests.get(0)).startsWith("/agentdouble/t1/invocations " + SECRET + " {");
    assertThat(requests.get(1)).startsWith("/agentdouble/t1/invocations/stopped " + SECRET + " {");
    for (String request : requests) {
      // the body: not even when AGENTDOUBLE_FORWARD_ENV names it
      assertThat(request.substring(request.indexOf('{'))).doesNotContain(SECRET);
    }
    assertThat(Files.readString(journal)).doesNotContain(SECRET);
    assertThat(answered.err() + stopped.out() + stopped.err()).doesNotContain(SECRET);
  }

  @Test
  void aRefusalSaysTheSecretIsMissingOrWrong() {
    FakeProcess.Result missing = run(env("AGENTDOUBLE_URL", url), "-p", "hello");
    FakeProcess.Result wrong =
        run(env("AGENTDOUBLE_URL", url, "AGENTDOUBLE_SECRET", "wrong-one"), "-p", "hello");

    assertThat(missing.exit()).isEqualTo(70);
    assertThat(missing.out()).isEmpty();
    assertThat(missing.err())
        .isEqualTo(
            "agentdouble: the control server ("
                + url
                + ") refused "
                + "this invocation (HTTP 401): AGENTDOUBLE_SECRET is not set; run the fake with the "
                + "environment the test's shim or `agentdouble serve` gives it\n");
    assertThat(wrong.exit()).isEqualTo(70);
    assertThat(wrong.err())
        .contains("refused this invocation (HTTP 401): AGENTDOUBLE_SECRET is " + "not its secret")
        .doesNotContain("wrong-one");
    assertThat(requests).hasSize(2);
    assertThat(requests.get(0)).startsWith("/agentdouble/t1/invocations null {");
  }

  @Test
  void aSecretThatCannotStandInAHeaderIsRefusedBeforeAnyRequest() {
    FakeProcess.Result r =
        run(env("AGENTDOUBLE_URL", url, "AGENTDOUBLE_SECRET", "a b\r\nX: y"), "-p", "hello");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err()).startsWith("agentdouble: AGENTDOUBLE_SECRET: not a usable secret");
    assertThat(requests).isEmpty();
  }
}
