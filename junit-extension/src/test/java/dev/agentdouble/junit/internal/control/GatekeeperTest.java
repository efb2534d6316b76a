package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import dev.agentdouble.contract.ControlSecret;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The door in front of every server of ours ({@code serve}'s and the extension's control plane,
 * {@code model-api}), met by a raw client on loopback: what it answers without waiting for a body,
 * and that clients which stop half-way through a request hold up no other.
 *
 * <p>The server's idle timeout is set long here ({@link #IDLE_MS}); an answer "at once" is one read
 * well before it (half of it): an answer that waits for the idle timeout is never read in time.
 */
@Timeout(120)
class GatekeeperTest {
  private static final long IDLE_MS = 60_000;
  private static final int READ_MS = (int) (IDLE_MS / 2);
  private static final String PATH = "/agentdouble/test-1/invocations";

  private final String secret = ControlSecret.generate();
  private WireMockServer server;

  @BeforeEach
  void start() {
    server =
        new WireMockServer(
            Gatekeeper.guard(ControlPlane.loopback(0), Gatekeeper.controlDoor(secret), IDLE_MS));
    server.start();
    server.stubFor(post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withBody("tape")));
  }

  @AfterEach
  void stop() {
    server.stop();
  }

  /**
   * A request is judged on its head as soon as it is read, not once the first bytes of its body
   * come: a client that sends the head alone, or waits for a 100 Continue, is told at once that its
   * body is over the limit, or that it lacks the secret.
   */
  @Test
  void aRequestIsAnsweredOnItsHeadAloneLongBeforeTheIdleTimeout() throws Exception {
    String tooLong = "Content-Length: " + (Gatekeeper.MAX_BODY_BYTES + 1);
    Raw plain;
    try (Socket socket = open(head("POST", PATH, withSecret(), tooLong), "")) {
      plain = read(socket);
    }
    Raw expecting;
    try (Socket socket =
        open(head("POST", PATH, withSecret(), tooLong, "Expect: 100-continue"), "")) {
      expecting = read(socket);
    }
    Raw refused;
    try (Socket socket = open(head("POST", PATH, "Content-Length: 1000"), "")) {
      refused = read(socket);
    }

    assertThat(plain.status()).isEqualTo(413);
    assertThat(plain.headers()).containsEntry("connection", "close");
    assertThat(plain.body()).contains("over this control server's limit");
    assertThat(expecting.status()).isEqualTo(413);
    assertThat(refused.status()).isEqualTo(401);
  }

  /**
   * Forty clients with the secret that stop half-way through their bodies (each holding a thread
   * while it waits for the rest) leave the server free to answer another client at once.
   */
  @Test
  void fortyHalfSentRequestsWithTheSecretHoldUpNoOtherClient() throws Exception {
    List<Socket> halfSent = new ArrayList<>();
    try {
      for (int i = 0; i < 40; i++) {
        halfSent.add(open(head("POST", PATH, withSecret(), "Content-Length: 1000"), "{\"argv\":"));
      }

      Raw answered;
      try (Socket socket = open(head("POST", PATH, withSecret(), "Content-Length: 2"), "{}")) {
        answered = read(socket);
      }

      assertThat(answered.status()).isEqualTo(200);
      assertThat(answered.body()).isEqualTo("tape");
    } finally {
      for (Socket socket : halfSent) {
        socket.close();
      }
    }
  }

  @Test
  void optionsStarIsAnsweredWithWhatTheServerAllowsAndOnlyWithTheSecret() throws Exception {
    Raw allowed;
    try (Socket socket = open(head("OPTIONS", "*", withSecret(), "Content-Length: 0"), "")) {
      allowed = read(socket);
    }
    Raw refused;
    try (Socket socket = open(head("OPTIONS", "*", "Content-Length: 0"), "")) {
      refused = read(socket);
    }

    assertThat(allowed.status()).isEqualTo(200);
    assertThat(allowed.headers().get("allow")).contains("GET", "POST", "OPTIONS");
    assertThat(allowed.body()).isEmpty();
    assertThat(refused.status()).isEqualTo(401);
    assertThat(refused.body()).isEqualTo(Gatekeeper.REFUSED_MESSAGE);
  }

  private String withSecret() {
    return ControlSecret.HEADER + ": " + secret;
  }

  /** A request sent raw: its head (request line and headers) and the start of its body. */
  private Socket open(String head, String body) throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port());
    socket.setSoTimeout(READ_MS);
    socket.getOutputStream().write((head + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
    socket.getOutputStream().flush();
    return socket;
  }

  private static String head(String method, String target, String... headers) {
    return method
        + " "
        + target
        + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + String.join("\r\n", headers);
  }

  record Raw(int status, Map<String, String> headers, String body) {}

  /**
   * The answer on {@code socket}: its status, headers (names in lower case) and body (by its
   * Content-Length, or chunked); fails if none comes within {@link #READ_MS}.
   */
  private static Raw read(Socket socket) throws IOException {
    InputStream in = socket.getInputStream();
    try {
      String status = line(in);
      if (status == null) {
        throw new AssertionError("the connection closed without an answer");
      }
      Map<String, String> headers = new LinkedHashMap<>();
      for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
        int colon = header.indexOf(':');
        headers.put(
            header.substring(0, colon).strip().toLowerCase(Locale.ROOT),
            header.substring(colon + 1).strip());
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      if ("chunked".equals(headers.get("transfer-encoding"))) {
        for (int size = Integer.parseInt(line(in).strip(), 16);
            size > 0;
            size = Integer.parseInt(line(in).strip(), 16)) {
          body.write(in.readNBytes(size));
          line(in); // the CRLF after the chunk
        }
      } else {
        body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
      }
      return new Raw(
          Integer.parseInt(status.split(" ")[1]), headers, body.toString(StandardCharsets.UTF_8));
    } catch (SocketTimeoutException e) {
      throw new AssertionError(
          "no answer within " + READ_MS + " ms (the server's idle timeout is " + IDLE_MS + " ms)",
          e);
    }
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
}
