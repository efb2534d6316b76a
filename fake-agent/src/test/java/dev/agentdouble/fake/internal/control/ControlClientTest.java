package dev.agentdouble.fake.internal.control;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.fake.internal.source.TapeSelection;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(20)
class ControlClientTest {
  /** Short, so a test of a server that never finishes its answer ends quickly. */
  private static final long DEADLINE_MS = 300;

  private static final InvocationRecord CALL =
      InvocationRecord.builder()
          .argv(List.of("-p", "hi"))
          .prompt("hi")
          .cwd("/w")
          .outputFormat("stream-json")
          .stdin(Optional.of(""))
          .pid(1)
          .cli("cursor-agent")
          .build();

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

  private static final String CUT_TEXT = "x".repeat(Http1.MAX_ERROR_BYTES);

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

  /**
   * The warm-up readies the sockets without a connection of its own: the server's one connection is
   * the call's, which gets its answer.
   */
  @Test
  void theWarmUpConnectsToNothingAndTheCallThatFollowsIsTheServersOnlyConnection()
      throws Exception {
    String tape = "{\"tape\":1}\n";
    try (RawServer server =
        new RawServer(
            "HTTP/1.1 200 OK\r\nContent-Length: " + tape.length() + "\r\n\r\n" + tape, false, 0)) {
      WarmUp warmUp = new WarmUp(server.url());
      warmUp.start();
      warmUp.join(10_000);

      TapeSelection.Result result = ControlClient.ask(server.url(), "s3cret", CALL, DEADLINE_MS);

      assertThat(warmUp.isAlive()).isFalse();
      assertThat(result).isInstanceOf(TapeSelection.Selected.class);
      assertThat(server.request()).startsWith("POST /x/invocations HTTP/1.1\r\n");
    }
  }

  /** A URL the call would refuse is the call's to refuse: the warm-up ends quietly. */
  @ParameterizedTest
  @ValueSource(strings = {"not a url", "http://", "http://127.0.0.1:99999/x", "ftp://h/x"})
  void theWarmUpOfAUrlTheCallRefusesEndsQuietly(String url) {
    new WarmUp(url).run();
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
          InvocationRecord.builder()
              .argv(CALL.argv())
              .prompt(CALL.prompt())
              .cwd(CALL.cwd())
              .outputFormat(CALL.outputFormat())
              .model(CALL.model())
              .stdin(CALL.stdin())
              .pid(CALL.pid())
              .env(CALL.env())
              .stoppedBy(Optional.of("trust-gate"))
              .cli("cursor-agent")
              .build()
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

  @Test
  void onlyHttpUrlsAreTaken() {
    TapeSelection.Result r =
        ControlClient.ask(
            "https://example.invalid/x",
            null,
            InvocationRecord.builder()
                .prompt("p")
                .cwd("/w")
                .outputFormat("stream-json")
                .pid(1)
                .cli("cursor-agent")
                .build());

    assertThat(r).isInstanceOf(TapeSelection.Failed.class);
    assertThat(((TapeSelection.Failed) r).message()).contains("use an http:// URL");
  }
}
