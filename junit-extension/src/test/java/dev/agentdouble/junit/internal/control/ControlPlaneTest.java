package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The control plane as another local user meets it: a raw HTTP client on loopback without the
 * per-run secret can neither get a tape, read the invocations, add a stub, nor shut it down; nor
 * can it cost the server memory or threads, since a request is refused on its headers alone.
 */
@Timeout(60)
class ControlPlaneTest {
  private static final String PATH = "/agentdouble/test-1/invocations";
  private static final String INVOCATION =
      "{\"argv\":[\"-p\",\"hi\"],\"prompt\":\"my secret plan\"}";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private ControlPlane plane;

  @BeforeEach
  void start() {
    plane = ControlPlane.start();
    plane
        .server()
        .stubFor(
            post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withBody("the tape")));
  }

  @AfterEach
  void stop() {
    plane.close();
  }

  private HttpResponse<String> send(
      String method, String path, String body, Optional<String> secret)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(plane.baseUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    secret.ifPresent(s -> request.header("X-AgentDouble-Secret", s));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aWarmUpServesOneInvocationAndLeavesNoStubNorRequestBehind() {
    assertThat(plane.warm()).isFalse();

    assertThat(plane.warmUp()).isTrue();

    assertThat(plane.warm()).isTrue();
    assertThat(plane.server().getStubMappings()).hasSize(1); // this class's own stub
    assertThat(plane.server().getAllServeEvents()).isEmpty();
  }

  @Test
  void withoutTheSecretEveryRequestIsRefused() throws Exception {
    List<String> refused = new ArrayList<>();
    for (Optional<String> secret :
        List.of(
            Optional.<String>empty(),
            Optional.of("guess"),
            Optional.of(plane.secret().substring(1)),
            Optional.of(plane.secret() + "x"))) {
      for (String[] r :
          new String[][] {
            {"POST", PATH, INVOCATION}, // ask for a tape
            {"POST", PATH + "/stopped", INVOCATION},
            {"GET", "/__admin/requests", null}, // read the invocations
            {"GET", "/__admin/mappings", null}, // read the stubs (tapes)
            {
              "POST",
              "/__admin/mappings",
              "{\"request\":{\"method\":\"ANY\"},"
                  + "\"response\":{\"status\":200,\"body\":\"injected\"}}"
            }, // add a stub
            {"POST", "/__admin/reset", null},
            {"POST", "/__admin/shutdown", null},
            {"GET", "/__files/index.json", null}, // files of the working folder, beside the stubs
            {"GET", "/__admin/swagger-ui/index.html", null}
          }) {
        HttpResponse<String> response = send(r[0], r[1], r[2], secret);
        refused.add(r[0] + " " + r[1] + " " + response.statusCode());
        assertThat(response.body()).doesNotContain("the tape", "my secret plan", "test-1");
      }
    }

    assertThat(refused).allMatch(r -> r.endsWith(" 401"), "all refused");
    assertThat(plane.server().isRunning()).isTrue();
    assertThat(plane.server().listAllStubMappings().getMappings())
        .noneMatch(m -> String.valueOf(m.getResponse().getBody()).contains("injected"));
    // a refused request is no invocation: tests never see it
    assertThat(plane.server().findAll(anyRequestedFor(urlMatching("/agentdouble/.*")))).isEmpty();
    assertThat(plane.server().findAllUnmatchedRequests()).isEmpty();
  }

  @Test
  void withTheSecretTheFakesRequestsAreAnsweredAndTheSecretIsNotKept() throws Exception {
    HttpResponse<String> tape = send("POST", PATH, INVOCATION, Optional.of(plane.secret()));
    HttpResponse<String> journal =
        send("GET", "/__admin/requests", null, Optional.of(plane.secret()));

    assertThat(tape.statusCode()).isEqualTo(200);
    assertThat(tape.body()).isEqualTo("the tape");
    assertThat(journal.statusCode()).isEqualTo(200);
    assertThat(journal.body()).contains("my secret plan").doesNotContain(plane.secret());
    assertThat(plane.server().findAll(anyRequestedFor(urlEqualTo(PATH))))
        .singleElement()
        .satisfies(r -> assertThat(r.containsHeader("X-AgentDouble-Secret")).isFalse());
  }

  @Test
  void theSecretIsNotKeptWhateverTheCaseOfItsHeadersName() throws Exception {
    for (String name : List.of("x-agentdouble-secret", "X-AGENTDOUBLE-SECRET")) {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(plane.baseUrl() + PATH))
              .timeout(Duration.ofSeconds(30))
              .header(name, plane.secret())
              .POST(HttpRequest.BodyPublishers.ofString(INVOCATION))
              .build();

      HttpResponse<String> tape = http.send(request, HttpResponse.BodyHandlers.ofString());

      assertThat(tape.statusCode()).as(name).isEqualTo(200);
    }
    HttpResponse<String> journal =
        send("GET", "/__admin/requests", null, Optional.of(plane.secret()));
    assertThat(journal.body()).contains("my secret plan").doesNotContain(plane.secret());
    assertThat(plane.server().findAll(anyRequestedFor(urlEqualTo(PATH))))
        .hasSize(2)
        .allSatisfy(
            r ->
                assertThat(r.getHeaders().keys())
                    .noneMatch(k -> k.equalsIgnoreCase("X-AgentDouble-Secret")));
  }

  @Test
  void eachPlaneHasItsOwnUnguessableSecret() {
    try (ControlPlane other = ControlPlane.start()) {
      assertThat(plane.secret()).hasSize(43).matches("[A-Za-z0-9_-]+").isNotEqualTo(other.secret());
    }
  }

  /** A request sent raw: its head (request line and headers) and the start of its body. */
  private Socket open(String head, String body) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), plane.server().port());
    socket.getOutputStream().write((head + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
    return socket;
  }

  record Raw(int status, String body) {}

  /** The answer on {@code socket}: its status and its body (by its Content-Length); -1 if none. */
  private static Raw read(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    String status = line(in);
    if (status == null) {
      return new Raw(-1, "");
    }
    long length = 0;
    for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
      if (header.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
        length = Long.parseLong(header.substring("content-length:".length()).strip());
      }
    }
    byte[] body = in.readNBytes((int) length);
    return new Raw(
        Integer.parseInt(status.split(" ")[1]), new String(body, StandardCharsets.UTF_8));
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
      }
      if (b != '\r') {
        line.write(b);
      }
    }
    return line.toString(StandardCharsets.UTF_8);
  }

  private static String head(String method, String path, String... headers) {
    return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + String.join("\r\n", headers);
  }

  /**
   * A request without the secret is answered on its headers: the 300 MiB body it announces is never
   * waited for, let alone read into memory (the client here never sends it).
   */
  @Test
  void aRefusedRequestIsAnsweredBeforeItsBodyIsRead() throws Exception {
    try (Socket socket =
        open(
            head("POST", PATH, "Content-Type: application/json", "Content-Length: 314572800"),
            "{\"prompt\":\"and the rest never comes")) {
      Raw answer = read(socket);

      assertThat(answer.status()).isEqualTo(401);
      assertThat(answer.body()).isEqualTo(Gatekeeper.REFUSED_MESSAGE);
    }
    assertThat(plane.server().getAllServeEvents()).isEmpty();
  }

  /**
   * Refused requests never reach WireMock: its request journal (and the limit a journal may have)
   * holds the requests that carried the secret only, however many others come.
   */
  @Test
  void refusedRequestsLeaveNothingInTheJournal() throws Exception {
    send("POST", PATH, INVOCATION, Optional.of(plane.secret()));
    List<Integer> refused = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      refused.add(
          send(i % 2 == 0 ? "GET" : "POST", PATH, INVOCATION, Optional.empty()).statusCode());
    }

    assertThat(refused).hasSize(50).containsOnly(401);
    assertThat(plane.server().getAllServeEvents())
        .singleElement()
        .satisfies(e -> assertThat(e.getRequest().getUrl()).isEqualTo(PATH));
  }

  /**
   * A dozen connections that announce a body and never send it, without the secret, hold no thread
   * of the server: each is refused at once, and a request with the secret is answered as usual.
   */
  @Test
  void halfSentRequestsDoNotStallTheServer() throws Exception {
    List<Socket> halfSent = new ArrayList<>();
    try {
      for (int i = 0; i < 12; i++) {
        halfSent.add(open(head("POST", PATH, "Content-Length: 1000"), "{\"argv\":"));
      }

      HttpResponse<String> answered = send("POST", PATH, INVOCATION, Optional.of(plane.secret()));

      assertThat(answered.statusCode()).isEqualTo(200);
      assertThat(answered.body()).isEqualTo("the tape");
      for (Socket socket : halfSent) {
        assertThat(read(socket).status()).isEqualTo(401);
      }
    } finally {
      for (Socket socket : halfSent) {
        socket.close();
      }
    }
  }

  /**
   * A request with the secret and a body over the limit is refused on its headers (HTTP 413, what
   * the limit is), and one with a body of unannounced length (chunked) is asked for its length
   * (HTTP 411): a body is never read without a known, bounded length.
   */
  @Test
  void aBodyOverTheLimitOrOfUnknownLengthIsRefusedBeforeItIsRead() throws Exception {
    String secret = "X-AgentDouble-Secret: " + plane.secret();
    Raw tooLarge;
    try (Socket socket =
        open(
            head("POST", PATH, secret, "Content-Length: " + (Gatekeeper.MAX_BODY_BYTES + 1)),
            "{\"argv\":")) {
      tooLarge = read(socket);
    }
    Raw chunked;
    try (Socket socket =
        open(head("POST", PATH, secret, "Transfer-Encoding: chunked"), "5\r\n{\"arg")) {
      chunked = read(socket);
    }

    assertThat(tooLarge.status()).isEqualTo(413);
    assertThat(tooLarge.body())
        .isEqualTo(
            "agentdouble: a request body of 67108865 bytes is over this control server's limit of"
                + " 67108864 bytes (64 MiB)\n");
    assertThat(chunked.status()).isEqualTo(411);
    assertThat(chunked.body())
        .isEqualTo(
            "agentdouble: a request body needs a Content-Length here (chunked bodies are not"
                + " read); send the body whole\n");
    assertThat(plane.server().getAllServeEvents()).isEmpty();
  }

  /**
   * Whatever fails inside the server, and whatever the client sends, the answer is one line of
   * ours: never a stack trace, an exception's name or message, nor Jetty's error page.
   */
  @Test
  void noStackTraceReachesAClient() throws Exception {
    plane.onNoTape(
        "/agentdouble/test-2/invocations",
        body -> {
          throw new OutOfMemoryError("Java heap space");
        });
    HttpResponse<String> failed =
        send("POST", "/agentdouble/test-2/invocations", INVOCATION, Optional.of(plane.secret()));
    HttpResponse<String> badId =
        send("GET", "/__admin/requests/not-an-id", null, Optional.of(plane.secret()));
    HttpResponse<String> noFile =
        send("GET", "/__files/no-such-file", null, Optional.of(plane.secret()));
    Raw headerTooLarge;
    try (Socket socket =
        open(head("GET", PATH, "X-Padding: " + "x".repeat(Gatekeeper.MAX_HEAD_BYTES)), "")) {
      headerTooLarge = read(socket);
    }

    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body())
        .isEqualTo(
            "agentdouble: the control server could not answer this request (HTTP 500 Server"
                + " Error)\n");
    assertThat(badId.statusCode()).isGreaterThanOrEqualTo(400);
    assertThat(headerTooLarge.status()).isEqualTo(431);
    assertThat(headerTooLarge.body())
        .isEqualTo(
            "agentdouble: the control server could not answer this request (HTTP 431 Request"
                + " Header Fields Too Large)\n");
    assertThat(noFile.statusCode()).isEqualTo(404);
    for (String body : List.of(failed.body(), badId.body(), noFile.body(), headerTooLarge.body())) {
      assertThat(body).doesNotContain("\tat ", "Exception", "Error:", "java.", "jetty", "<html");
    }
  }

  /**
   * WireMock's admin API only reads here, with the secret: what the server answers (its stubs, its
   * journal) is changed through the Java API alone, so an admin reset cannot take the refusal away
   * and an admin shutdown cannot stop the server.
   */
  @Test
  void theAdminApiOnlyReads() throws Exception {
    Optional<String> secret = Optional.of(plane.secret());
    HttpResponse<String> read = send("GET", "/__admin/requests", null, secret);
    HttpResponse<String> count =
        send("POST", "/__admin/requests/count", "{\"method\":\"ANY\"}", secret);
    List<String> writes = new ArrayList<>();
    for (String[] r :
        new String[][] {
          {"POST", "/__admin/reset", null},
          {"POST", "/__admin/shutdown", null},
          {"DELETE", "/__admin/mappings", null},
          {"DELETE", "/__admin/requests", null},
          {"POST", "/__admin/mappings/reset", null},
          {"POST", "/__admin/scenarios/reset", null},
          {
            "POST",
            "/__admin/mappings",
            "{\"request\":{\"method\":\"ANY\"},\"response\":{\"status\":200,\"body\":\"injected\"}}"
          },
          {"PUT", "/__admin/settings", "{\"fixedDelay\":100000}"}
        }) {
      HttpResponse<String> response = send(r[0], r[1], r[2], secret);
      writes.add(r[0] + " " + r[1] + " " + response.statusCode());
      assertThat(response.body())
          .isEqualTo(
              "agentdouble: "
                  + r[0]
                  + " "
                  + r[1]
                  + ": refused; WireMock's admin API only reads on this control server (GET);"
                  + " what it serves is set through the JUnit extension or agentdouble serve's"
                  + " own API\n");
    }
    HttpResponse<String> tape = send("POST", PATH, INVOCATION, secret);
    plane.server().resetAll(); // all stubs gone, as an admin reset would leave it
    HttpResponse<String> refused = send("POST", PATH, INVOCATION, Optional.empty());

    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(count.statusCode()).isEqualTo(200);
    assertThat(writes).allMatch(w -> w.endsWith(" 403"), "all refused");
    assertThat(tape.body()).isEqualTo("the tape");
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.body()).isEqualTo(Gatekeeper.REFUSED_MESSAGE);
  }
}
