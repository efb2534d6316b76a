package dev.agentdouble.fake.internal.control;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.fake.internal.control.Http1.Response;
import dev.agentdouble.fake.internal.source.TapeSelection;
import dev.agentdouble.fake.internal.source.TapeSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/**
 * Asks a control server ({@code AGENTDOUBLE_URL}) which tape answers this invocation: POSTs the
 * invocation as JSON to {@code URL/invocations}, with the server's secret ({@code
 * AGENTDOUBLE_SECRET}) in a header; a 200 answer's body is the tape. Any other answer is a failure
 * whose text (WireMock's near-miss report, for one) is shown to the user.
 *
 * <p>A call has an overall deadline ({@link #DEADLINE_MS}: connecting, sending and the whole
 * answer), and the answer is read as it arrives, over {@link Http1}. An answer that breaks HTTP or
 * does not come in time is the fake's own problem, said in its own words: a control call never
 * waits forever and never ends in a stack trace.
 */
public final class ControlClient {
  /** Where a run the CLI ended before it needed a tape is reported, under the server's URL. */
  static final String STOPPED = "invocations/stopped";

  /** The longest a control call takes, from connecting to the end of the answer: 30 s. */
  static final long DEADLINE_MS = 30_000;

  private ControlClient() {}

  /** {@code url} with {@code path} under it, an http:// URI with a host. */
  private static URI uri(String url, String path) {
    return FakeEnvironment.controlUri(url, path);
  }

  /**
   * Readies this process's sockets for calls to {@code url}, in the background ({@link WarmUp}):
   * called first thing, so the first call costs what it costs a warm JVM.
   */
  public static void warmUp(String url) {
    WarmUp.start(url);
  }

  /** Asks {@code url} for the tape of {@code invocation}; {@code secret} may be null (not set). */
  public static TapeSelection.Result ask(String url, String secret, InvocationRecord invocation) {
    return ask(url, secret, invocation, DEADLINE_MS);
  }

  /**
   * As {@link #ask(String, String, InvocationRecord)}, with a deadline of {@code deadlineMs} for
   * the whole call.
   */
  public static TapeSelection.Result ask(
      String url, String secret, InvocationRecord invocation, long deadlineMs) {
    URI uri;
    try {
      uri = uri(url, "invocations");
    } catch (IllegalArgumentException e) {
      return new TapeSelection.Failed(e.getMessage());
    }
    secret = secret == null || secret.isEmpty() ? null : secret;
    if (secret != null && !ControlSecret.sendable(secret)) {
      return new TapeSelection.Failed(
          ControlSecret.ENV
              + ": not a usable secret (printable ASCII "
              + "without spaces); give the fake the value the control server printed or baked in");
    }
    Response response;
    try {
      response = post(uri, secret, invocation.json(), deadlineMs);
    } catch (BadAnswer e) {
      return new TapeSelection.Failed(
          "the control server at "
              + url
              + " gave an answer the fake "
              + "cannot use: "
              + e.getMessage()
              + "; is "
              + FakeEnvironment.URL
              + " the address of the test's "
              + "control server (or of `agentdouble serve`)?");
    } catch (NoAnswerInTime e) {
      return new TapeSelection.Failed(
          "the control server at "
              + url
              + " "
              + e.getMessage()
              + "; is the test (or `agentdouble serve`) stuck?");
    } catch (IOException e) {
      return new TapeSelection.Failed(
          "cannot reach the control server at "
              + url
              + ": "
              + unreachable(e)
              + "; is the test (or `agentdouble serve`) still running?");
    }
    if (response.status() == 200) {
      byte[] tape = response.body();
      String name = response.headers().get(ControlSecret.TAPE_HEADER.toLowerCase(Locale.ROOT));
      String source =
          name == null ? InvocationRecord.CONTROL_TAPE : InvocationRecord.controlTape(name);
      String timing = response.headers().get(ControlSecret.TIMING_HEADER.toLowerCase(Locale.ROOT));
      if (timing != null && Timing.problem(timing).isPresent()) {
        return new TapeSelection.Failed(
            "the control server at "
                + url
                + " gave an answer the fake cannot use: its "
                + ControlSecret.TIMING_HEADER
                + " header is "
                + Timing.problem(timing).get());
      }
      return new TapeSelection.Selected(
          new TapeSource(
              source,
              new TapeSource.Opener() {
                @Override
                public InputStream open() {
                  return new ByteArrayInputStream(tape);
                }
              }),
          timing == null ? Optional.empty() : Optional.of(Timing.parse(timing)));
    }
    if (response.status() == 401 || response.status() == 403) {
      return new TapeSelection.Failed(
          "the control server ("
              + url
              + ") refused this invocation "
              + "(HTTP "
              + response.status()
              + "): "
              + (secret == null
                  ? ControlSecret.ENV + " is not set"
                  : ControlSecret.ENV + " is not its secret")
              + "; run the fake with the "
              + "environment the test's shim or `agentdouble serve` gives it");
    }
    String text = new String(response.body(), StandardCharsets.UTF_8).strip();
    return new TapeSelection.Failed(
        "the control server ("
            + url
            + ") has no tape for this "
            + "invocation (HTTP "
            + response.status()
            + ")"
            + (text.isEmpty() ? "" : ":\n" + text)
            + (response.cut() ? "\n" + cutNote(response) : ""));
  }

  /** What a cut answer's text is followed by: how much of it was shown. */
  private static String cutNote(Response response) {
    return "[the answer is cut here: its first "
        + response.body().length
        + " bytes are shown, of "
        + (response.length() < 0 ? "more" : String.valueOf(response.length()))
        + "]";
  }

  /** Why a server could not be reached, said for a person. */
  private static String unreachable(IOException e) {
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e instanceof UnknownHostException) {
      return "unknown host " + e.getMessage();
    }
    if (e instanceof SocketTimeoutException) {
      return "no connection within " + Http1.duration(Http1.CONNECT_TIMEOUT_MS);
    }
    String message = e.getMessage();
    return message == null || message.isBlank()
        ? e.getClass().getSimpleName()
        : message.substring(0, 1).toLowerCase(Locale.ROOT) + message.substring(1);
  }

  /**
   * Tells the control server about a run that ended before it needed a tape (the trust gate, a
   * validation error), so the test sees every invocation. The answer does not matter, and a server
   * that cannot be reached changes nothing: the run has ended as the CLI ends it.
   *
   * @param stoppedBy why the run ended, e.g. {@code trust-gate}
   */
  public static void report(
      String url, String secret, InvocationRecord invocation, String stoppedBy) {
    try {
      URI uri = uri(url, STOPPED);
      boolean noSecret = secret == null || secret.isEmpty();
      if (!noSecret && !ControlSecret.sendable(secret)) {
        return;
      }
      post(uri, noSecret ? null : secret, invocation.withStoppedBy(stoppedBy).json());
    } catch (IOException | IllegalArgumentException e) {
      // nobody to tell: the run's own ending stands
    }
  }

  /**
   * Tells the control server which option the ACP client chose when asked for permission in turn
   * {@code turn} (1 for the process's first {@code session/prompt}) of process {@code pid}. As
   * {@link #report}, a server that cannot be reached changes nothing.
   */
  public static void permission(String url, String secret, long pid, int turn, String optionId) {
    try {
      URI uri = uri(url, PermissionAnswer.PATH);
      boolean noSecret = secret == null || secret.isEmpty();
      if (!noSecret && !ControlSecret.sendable(secret)) {
        return;
      }
      post(uri, noSecret ? null : secret, new PermissionAnswer(pid, turn, optionId).json());
    } catch (IOException | IllegalArgumentException e) {
      // nobody to tell: the turn goes on as the client answered
    }
  }

  /** One POST of {@code body} as JSON to {@code uri}, within {@link #DEADLINE_MS}. */
  private static Response post(URI uri, String secret, byte[] body) throws IOException {
    return post(uri, secret, body, DEADLINE_MS);
  }

  /**
   * As {@link #post(URI, String, byte[])}, all of it within {@code deadlineMs}; {@code secret} (may
   * be null) goes in the secret header.
   */
  private static Response post(URI uri, String secret, byte[] body, long deadlineMs)
      throws IOException {
    String[] headers =
        secret == null ? Http1.NO_HEADERS : new String[] {ControlSecret.HEADER, secret};
    return Http1.post(uri, "application/json", headers, body, deadlineMs);
  }
}
