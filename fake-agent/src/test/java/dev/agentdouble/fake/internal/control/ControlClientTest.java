package dev.agentdouble.fake.internal.control;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.fake.internal.source.TapeSelection;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(20)
class ControlClientTest {
  /** Short, so a test of a server that never finishes its answer ends quickly. */
  private static final long DEADLINE_MS = 300;

  private static final InvocationRecord CALL =
      new InvocationRecord(
          List.of("-p", "hi"),
          "hi",
          "/w",
          "stream-json",
          Optional.empty(),
          Optional.of(""),
          1,
          Map.of(),
          Optional.empty());

  /**
   * A server on 127.0.0.1 that answers one connection with a 404 whose body is {@link #PAGE} bytes
   * of {@code x}, by its Content-Length or in chunks of 1 MiB. After {@code sent} bytes of the body
   * it writes nothing more and holds the connection open until the client goes away; a client that
   * goes away earlier ends the writing.
   */
  private static final class ErrorPageServer implements AutoCloseable {
    static final int PAGE = 50 << 20;
    private final ServerSocket server;

    ErrorPageServer(boolean chunked, int sent) throws IOException {
      server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
      Thread thread =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  RawServer.readRequest(s.getInputStream());
                  OutputStream out = s.getOutputStream();
                  out.write(
                      ("HTTP/1.1 404 Not Found\r\n"
                              + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + PAGE)
                              + "\r\n\r\n")
                          .getBytes(StandardCharsets.ISO_8859_1));
                  byte[] block = new byte[1 << 20];
                  Arrays.fill(block, (byte) 'x');
                  for (int at = 0; at < sent; at += block.length) {
                    if (chunked) {
                      out.write((Integer.toHexString(block.length) + "\r\n").getBytes(US_ASCII));
                    }
                    out.write(block);
                    if (chunked) {
                      out.write("\r\n".getBytes(US_ASCII));
                    }
                  }
                  if (chunked && sent == PAGE) {
                    out.write("0\r\n\r\n".getBytes(US_ASCII));
                  }
                  out.flush();
                  // until the client closes its end
                  s.getInputStream().transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                  // the client went away
                }
              },
              "error-page-server");
      thread.setDaemon(true);
      thread.start();
    }

    String url() {
      return "http://127.0.0.1:" + server.getLocalPort() + "/x";
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }

  private static final String CUT_TEXT = "x".repeat(ControlClient.MAX_ERROR_BYTES);

  @ParameterizedTest(name = "sent in chunks: {0}")
  @CsvSource({"false, 'of 52428800]'", "true, 'of more]'"})
  void aHugeErrorPageIsCutAt64KiBAndSaysHowMuchWasShown(boolean chunked, String of)
      throws IOException {
    try (ErrorPageServer server = new ErrorPageServer(chunked, ErrorPageServer.PAGE)) {
      TapeSelection.Result r = ControlClient.ask(server.url(), null, CALL);

      assertThat(((TapeSelection.Failed) r).message())
          .isEqualTo(
              "the control server ("
                  + server.url()
                  + ") has no tape for this invocation (HTTP 404):\n"
                  + CUT_TEXT
                  + "\n[the answer is cut here: its first 65536 bytes are shown, "
                  + of);
    }
  }

  @ParameterizedTest(name = "sent in chunks: {0}")
  @CsvSource({"false", "true"})
  void theRestOfAHugeErrorPageIsNeverWaitedFor(boolean chunked) throws IOException {
    // 1 MiB of the 50 sent, then silence: a client reading the whole body waits out its deadline
    try (ErrorPageServer server = new ErrorPageServer(chunked, 1 << 20)) {
      TapeSelection.Result r = ControlClient.ask(server.url(), null, CALL);

      assertThat(((TapeSelection.Failed) r).message())
          .startsWith(
              "the control server ("
                  + server.url()
                  + ") has no tape for this invocation (HTTP 404):\n"
                  + CUT_TEXT
                  + "\n[the answer is cut here");
    }
  }

  @Test
  void aCutErrorPageEndsOnAWholeCharacter() throws IOException {
    byte[] head =
        bytes("HTTP/1.1 404 Not Found\r\nContent-Length: 65537\r\n\r\n" + "x".repeat(65535));
    byte[] raw = Arrays.copyOf(head, head.length + 2);
    raw[head.length] = (byte) 0xc3; // é, cut after its first byte
    raw[head.length + 1] = (byte) 0xa9;

    ControlClient.Response r = ControlClient.parse(raw);

    assertThat(r.cut()).isTrue();
    assertThat(r.length()).isEqualTo(65537);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("x".repeat(65535));
  }

  @Test
  void anErrorPageOf64KiBIsShownWhole() throws IOException {
    ControlClient.Response r =
        ControlClient.parse(
            bytes("HTTP/1.1 404 Not Found\r\nContent-Length: 65536\r\n\r\n" + CUT_TEXT));

    assertThat(r.cut()).isFalse();
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo(CUT_TEXT);
  }

  private static IOException failure(String answer, boolean holdOpen) throws IOException {
    try (RawServer server = new RawServer(answer, holdOpen, 0)) {
      ControlClient.post(server.uri(), null, bytes("{}"), DEADLINE_MS);
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

    assertThat(e).isInstanceOf(ControlClient.BadAnswer.class).hasMessageContaining(message);
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
        .isInstanceOf(ControlClient.NoAnswerInTime.class)
        .hasMessage("gave no complete answer within 300 ms");
  }

  @Test
  void aSlowDripOfBytesEndsAtTheDeadline() throws IOException {
    // a byte every 20 ms: each read gets something, the whole answer never comes
    try (RawServer server =
        new RawServer("HTTP/1.1 200 OK\r\nX-Pad: " + "a".repeat(1000), false, 20)) {
      assertThatThrownBy(() -> ControlClient.post(server.uri(), null, bytes("{}"), DEADLINE_MS))
          .isInstanceOf(ControlClient.NoAnswerInTime.class);
    }
  }

  @Test
  void aCompleteAnswerIsTakenWithoutWaitingForTheConnectionToClose() throws IOException {
    // the default 30 s deadline: a client waiting for the end of the connection fails @Timeout
    try (RawServer server =
        new RawServer("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", true, 0)) {
      ControlClient.Response r = ControlClient.post(server.uri(), null, bytes("{}"));

      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
    }
    try (RawServer server =
        new RawServer(
            "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked" + "\r\n\r\n5\r\nhello\r\n0\r\n",
            true,
            0)) {
      ControlClient.Response r = ControlClient.post(server.uri(), null, bytes("{}"));

      assertThat(r.status()).isEqualTo(404);
      assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
    }
  }

  @Test
  void aServerThatNeverReadsTheRequestEndsAtTheDeadline() throws IOException {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      URI uri = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/x/invocations");
      // accepted by the kernel, never read: 64 MiB cannot all fit in the socket buffers
      assertThatThrownBy(() -> ControlClient.post(uri, null, new byte[64 << 20], DEADLINE_MS))
          .isInstanceOf(ControlClient.NoAnswerInTime.class);
    }
  }

  @Test
  void theFailureNamesTheServerAndWhatWasWrong() throws IOException {
    try (RawServer server = new RawServer("garbage\r\n\r\n", false, 0)) {
      TapeSelection.Result r = ControlClient.ask(server.url(), null, CALL, DEADLINE_MS);

      assertThat(((TapeSelection.Failed) r).message())
          .isEqualTo(
              "the control server at "
                  + server.url()
                  + " gave an answer the fake cannot use: malformed HTTP status line: "
                  + "\"garbage\"; is AGENTDOUBLE_URL the address of the test's control server (or of "
                  + "`agentdouble serve`)?");
    }
    try (RawServer server = new RawServer("", true, 0)) {
      TapeSelection.Result r = ControlClient.ask(server.url(), null, CALL, DEADLINE_MS);

      assertThat(((TapeSelection.Failed) r).message())
          .isEqualTo(
              "the control server at "
                  + server.url()
                  + " gave no complete answer within 300 ms; is the test (or "
                  + "`agentdouble serve`) stuck?");
    }
  }

  @Test
  void theInvocationIsPostedWithTheSecretInItsHeader() throws Exception {
    try (RawServer server = new RawServer("HTTP/1.1 404 Not Found\r\n\r\n", false, 0)) {
      ControlClient.ask(server.url(), "s3cret", CALL, DEADLINE_MS);

      assertThat(server.request())
          .isEqualTo(
              "POST /x/invocations HTTP/1.1\r\nHost: 127.0.0.1:"
                  + server.port()
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + CALL.json().length
                  + "\r\nX-AgentDouble-Secret: s3cret\r\nConnection: close\r\n\r\n"
                  + new String(CALL.json(), StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void aRunStoppedEarlyIsReportedWithoutASecretWhenNoneIsSet() throws Exception {
    try (RawServer server = new RawServer("HTTP/1.1 204 No Content\r\n\r\n", false, 0)) {
      ControlClient.report(server.url(), "", CALL, "trust-gate");

      byte[] stopped =
          new InvocationRecord(
                  CALL.argv(),
                  CALL.prompt(),
                  CALL.cwd(),
                  CALL.outputFormat(),
                  CALL.model(),
                  CALL.stdin(),
                  CALL.pid(),
                  CALL.env(),
                  Optional.of("trust-gate"))
              .json();
      assertThat(server.request())
          .isEqualTo(
              "POST /x/invocations/stopped HTTP/1.1\r\nHost: 127.0.0.1:"
                  + server.port()
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + stopped.length
                  + "\r\nConnection: close\r\n\r\n"
                  + new String(stopped, StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void aPermissionAnswerIsPostedUnderItsPath() throws Exception {
    try (RawServer server = new RawServer("HTTP/1.1 204 No Content\r\n\r\n", false, 0)) {
      ControlClient.permission(server.url(), "s3cret", 7, 2, "allow-once");

      byte[] answer = new PermissionAnswer(7, 2, "allow-once").json();
      assertThat(server.request())
          .isEqualTo(
              "POST /x/"
                  + PermissionAnswer.PATH
                  + " HTTP/1.1\r\nHost: 127.0.0.1:"
                  + server.port()
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + answer.length
                  + "\r\nX-AgentDouble-Secret: s3cret\r\nConnection: close\r\n\r\n"
                  + new String(answer, StandardCharsets.ISO_8859_1));
    }
  }

  @Test
  void theDocumentedDeadlineIsThirtySeconds() {
    assertThat(ControlClient.DEADLINE_MS).isEqualTo(30_000);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsABodyByItsContentLength() throws IOException {
    ControlClient.Response r =
        ControlClient.parse(
            bytes(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
                    + "X-AgentDouble-Tape: tape #1\r\n\r\nhello"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.headers()).containsEntry("x-agentdouble-tape", "tape #1");
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
  }

  @Test
  void decodesAChunkedBody() throws IOException {
    ControlClient.Response r =
        ControlClient.parse(
            bytes(
                "HTTP/1.1 404 Not Found\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n7\r\nRequest\r\nb;x=y\r\n was not ma\r\n5\r\ntched\r\n0\r\n\r\n"));

    assertThat(r.status()).isEqualTo(404);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("Request was not matched");
  }

  @Test
  void aResponseCutShortIsAnErrorNotATape() {
    assertThatThrownBy(
            () -> ControlClient.parse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cut short");
    assertThatThrownBy(() -> ControlClient.parse(bytes("garbage")))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no header end");
  }

  @Test
  void onlyHttpUrlsAreTaken() {
    TapeSelection.Result r =
        ControlClient.ask(
            "https://example.invalid/x",
            null,
            new InvocationRecord(
                List.of(),
                "p",
                "/w",
                "stream-json",
                Optional.empty(),
                Optional.empty(),
                1,
                Map.of(),
                Optional.empty()));

    assertThat(r).isInstanceOf(TapeSelection.Failed.class);
    assertThat(((TapeSelection.Failed) r).message()).contains("use an http:// URL");
  }
}
