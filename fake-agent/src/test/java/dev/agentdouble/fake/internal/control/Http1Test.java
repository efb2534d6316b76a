package dev.agentdouble.fake.internal.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.testing.Sources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The control room's HTTP/1.1 client on its own: status, headers, lengths, chunks, deadlines. */
@Timeout(20)
class Http1Test {
  /** Short, so a test of a server that never finishes its answer ends quickly. */
  private static final long DEADLINE_MS = 300;

  /** The control calls' deadline, much longer than the test's {@code @Timeout}. */
  private static final long THIRTY_SECONDS = 30_000;

  private static final String CUT_TEXT = "x".repeat(Http1.MAX_ERROR_BYTES);

  private static Http1.Response post(URI uri, byte[] body, long deadlineMs) throws IOException {
    return Http1.post(uri, "application/json", Http1.NO_HEADERS, body, deadlineMs);
  }

  @Test
  void aCutErrorPageEndsOnAWholeCharacter() throws IOException {
    byte[] head =
        bytes("HTTP/1.1 404 Not Found\r\nContent-Length: 65537\r\n\r\n" + "x".repeat(65535));
    byte[] raw = Arrays.copyOf(head, head.length + 2);
    raw[head.length] = (byte) 0xc3; // é, cut after its first byte
    raw[head.length + 1] = (byte) 0xa9;

    Http1.Response r = Http1.parse(raw);

    assertThat(r.cut()).isTrue();
    assertThat(r.length()).isEqualTo(65537);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("x".repeat(65535));
  }

  @Test
  void anErrorPageOf64KiBIsShownWhole() throws IOException {
    Http1.Response r =
        Http1.parse(bytes("HTTP/1.1 404 Not Found\r\nContent-Length: 65536\r\n\r\n" + CUT_TEXT));

    assertThat(r.cut()).isFalse();
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(CUT_TEXT);
  }

  private static IOException failure(String answer, boolean holdOpen) throws IOException {
    try (RawServer server = new RawServer(answer, holdOpen, 0)) {
      post(server.uri(), bytes("{}"), DEADLINE_MS);
      throw new AssertionError("no failure for " + answer);
    } catch (IOException e) {
      return e;
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      garbage                         | garbage\\r\\n\\r\\n                                                         | malformed HTTP status line: "garbage"
      a status that is not a number   | HTTP/1.1 2x0 OK\\r\\n\\r\\n                                                 | malformed HTTP status line
      a header without a name         | HTTP/1.1 200 OK\\r\\n: x\\r\\n\\r\\n                                          | a header line without a name
      a bad chunk size                | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nzz\\r\\nabc\\r\\n0\\r\\n\\r\\n   | malformed chunk size: "zz"
      a negative chunk size           | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n-3\\r\\nabc\\r\\n0\\r\\n\\r\\n   | malformed chunk size
      a chunk size beyond memory      | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nFFFFFFFFFFFF\\r\\nabc     | does not fit in the fake's memory
      a chunk without its CRLF        | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n3\\r\\nabcXY0\\r\\n\\r\\n       | a chunk is not followed by CRLF
      chunks cut short                | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n9\\r\\nabc               | chunked HTTP body cut short
      a negative Content-Length       | HTTP/1.1 200 OK\\r\\nContent-Length: -5\\r\\n\\r\\nabc                           | a bad Content-Length: "-5"
      a Content-Length not a number   | HTTP/1.1 200 OK\\r\\nContent-Length: lots\\r\\n\\r\\nabc                         | a bad Content-Length: "lots"
      a Content-Length beyond a long  | HTTP/1.1 200 OK\\r\\nContent-Length: 99999999999999999999\\r\\n\\r\\nabc         | a bad Content-Length
      a Content-Length beyond memory  | HTTP/1.1 200 OK\\r\\nContent-Length: 5000000000\\r\\n\\r\\nabc                   | does not fit in the fake's memory
      two Content-Lengths             | HTTP/1.1 200 OK\\r\\nContent-Length: 3\\r\\nContent-Length: 4\\r\\n\\r\\nabcd      | two different Content-Length headers
      a body cut short                | HTTP/1.1 200 OK\\r\\nContent-Length: 50\\r\\n\\r\\nshort                        | cut short: 5 of 50 body bytes
      headers cut short               | HTTP/1.1 200 OK\\r\\nContent-Le                                               | no header end
      """)
  void aMalformedAnswerIsABadAnswerSaidInItsOwnWords(String what, String answer, String message)
      throws IOException {
    IOException e = failure(answer.replace("\\r", "\r").replace("\\n", "\n"), false);

    assertThat(e).isInstanceOf(BadAnswer.class).hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      nothing at all, the connection held open    | ''
      half the headers, then silence              | HTTP/1.1 200 OK\\r\\nContent-
      a body shorter than its length, held open   | HTTP/1.1 200 OK\\r\\nContent-Length: 50\\r\\n\\r\\nshort
      chunks that stop, held open                 | HTTP/1.1 200 OK\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\n3\\r\\nabc\\r\\n
      a body without a length, never closed       | HTTP/1.1 200 OK\\r\\n\\r\\n{"tape":1}
      """)
  void anAnswerThatNeverEndsEndsAtTheDeadline(String what, String answer) throws IOException {
    IOException e = failure(answer.replace("\\r", "\r").replace("\\n", "\n"), true);

    assertThat(e)
        .isInstanceOf(NoAnswerInTime.class)
        .hasMessage("gave no complete answer within 300 ms");
  }

  @Test
  void aSlowDripOfBytesEndsAtTheDeadline() throws IOException {
    // a byte every 20 ms: each read gets something, the whole answer never comes
    try (RawServer server =
        new RawServer("HTTP/1.1 200 OK\r\nX-Pad: " + "a".repeat(1000), false, 20)) {
      assertThatThrownBy(() -> post(server.uri(), bytes("{}"), DEADLINE_MS))
          .isInstanceOf(NoAnswerInTime.class);
    }
  }

  @Test
  void aCompleteAnswerIsTakenWithoutWaitingForTheConnectionToClose() throws IOException {
    // the default 30 s deadline: a client waiting for the end of the connection fails @Timeout
    try (RawServer server =
        new RawServer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", true, 0)) {
      Http1.Response r = post(server.uri(), bytes("{}"), THIRTY_SECONDS);

      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
    }
    try (RawServer server =
        new RawServer(
            "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked" + "\r\n\r\n5\r\nhello\r\n0\r\n",
            true,
            0)) {
      Http1.Response r = post(server.uri(), bytes("{}"), THIRTY_SECONDS);

      assertThat(r.status()).isEqualTo(404);
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
    }
  }

  @Test
  void aServerThatNeverReadsTheRequestEndsAtTheDeadline() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      URI uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/x/invocations");
      // accepted by the kernel, never read: 64 MiB cannot all fit in the socket buffers
      assertThatThrownBy(() -> post(uri, new byte[64 << 20], DEADLINE_MS))
          .isInstanceOf(NoAnswerInTime.class);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theRequestHasItsHeadersInTurnAfterItsLengthAndClosesTheConnection() throws Exception {
    try (RawServer server = new RawServer("HTTP/1.1 204 No Content\r\n\r\n", false, 0)) {
      Http1.Response r =
          Http1.post(
              URI.create("http://127.0.0.1:" + server.port()),
              "text/plain",
              new String[] {"X-One", "1", "X-Two", "two"},
              bytes("héllo"),
              DEADLINE_MS);

      assertThat(r.status()).isEqualTo(204);
      assertThat(server.request())
          .isEqualTo(
              "POST / HTTP/1.1\r\nHost: 127.0.0.1:"
                  + server.port()
                  + "\r\nContent-Type: text/plain\r\nContent-Length: 6\r\nX-One: 1\r\n"
                  + "X-Two: two\r\nConnection: close\r\n\r\n"
                  + new String(bytes("héllo"), StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void readsABodyByItsContentLength() throws IOException {
    Http1.Response r =
        Http1.parse(
            bytes(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
                    + "X-AgentDouble-Tape: tape #1\r\n\r\nhello"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.headers()).containsEntry("x-agentdouble-tape", "tape #1");
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
  }

  @Test
  void decodesAChunkedBody() throws IOException {
    Http1.Response r =
        Http1.parse(
            bytes(
                "HTTP/1.1 404 Not Found\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n7\r\nRequest\r\nb;x=y\r\n was not ma\r\n5\r\ntched\r\n0\r\n\r\n"));

    assertThat(r.status()).isEqualTo(404);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("Request was not matched");
  }

  @Test
  void aResponseCutShortIsAnErrorNotATape() {
    assertThatThrownBy(
            () -> Http1.parse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cut short");
    assertThatThrownBy(() -> Http1.parse(bytes("garbage")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no header end");
  }

  /** The control room's main sources that hold {@code code}, by file name. */
  private static List<String> controlSourcesHolding(String code) {
    return Sources.mainContaining(code).stream()
        .filter(
            f -> f.startsWith("fake-agent/src/main/java/dev/agentdouble/fake/internal/control/"))
        .map(f -> Path.of(f).getFileName().toString())
        .sorted()
        .toList();
  }

  @Test
  void theHttpClientKnowsNothingOfTapesInvocationsOrTheContract() {
    // HTTP is spoken in one place: the control client only asks Http1
    assertThat(controlSourcesHolding("new Socket(")).containsExactly("Http1.java");
    assertThat(controlSourcesHolding("HTTP/1.1\\r\\n")).containsExactly("Http1.java");
    assertThat(controlSourcesHolding("import dev.agentdouble.contract."))
        .containsExactly("ControlClient.java");
    assertThat(controlSourcesHolding("import dev.agentdouble.fake.internal.source."))
        .containsExactly("ControlClient.java");
  }
}
