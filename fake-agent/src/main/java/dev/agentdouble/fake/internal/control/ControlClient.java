package dev.agentdouble.fake.internal.control;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.fake.internal.process.FrameClock;
import dev.agentdouble.fake.internal.source.TapeSelection;
import dev.agentdouble.fake.internal.source.TapeSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * Asks a control server ({@code AGENTDOUBLE_URL}) which tape answers this invocation: POSTs the
 * invocation as JSON to {@code URL/invocations}, with the server's secret ({@code
 * AGENTDOUBLE_SECRET}) in a header; a 200 answer's body is the tape. Any other answer is a failure
 * whose text (WireMock's near-miss report, for one) is shown to the user.
 *
 * <p>A call has an overall deadline ({@link #DEADLINE_MS}: connecting, sending and the whole
 * answer), and the answer is read as it arrives, by its {@code Content-Length} or its chunks, never
 * by waiting for the server to close the connection. An answer that breaks HTTP (garbage, a bad
 * length or chunk size, one cut short, one that does not fit in memory) or does not come in time is
 * the fake's own problem, said in its own words: a control call never waits forever and never ends
 * in a stack trace.
 */
public final class ControlClient {
  /** Where a run the CLI ended before it needed a tape is reported, under the server's URL. */
  static final String STOPPED = "invocations/stopped";

  static final int CONNECT_TIMEOUT_MS = 5_000;

  /** The longest a control call takes, from connecting to the end of the answer: 30 s. */
  static final long DEADLINE_MS = 30_000;

  /** The most a status line and headers may take together. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /** The largest body an array can hold. */
  static final long MAX_BODY_BYTES = Integer.MAX_VALUE - 16;

  /**
   * The most of an answer other than 200 the fake reads: its text is shown to the user (a near-miss
   * report), not replayed, and a server's 50 MiB error page would otherwise be held in memory and
   * copied whole to stderr and the journal. The rest is never read.
   */
  static final int MAX_ERROR_BYTES = 64 * 1024;

  private ControlClient() {}

  /**
   * An HTTP response, as much of it as the fake needs.
   *
   * @param body the body; for a status other than 200, at most its first {@link #MAX_ERROR_BYTES}
   * @param cut whether the body went on beyond {@code body} (the rest was not read)
   * @param length the body's {@code Content-Length}, -1 when the answer had none
   */
  record Response(int status, Map<String, String> headers, byte[] body, boolean cut, long length) {}

  /** An answer that is not usable HTTP; the message says what is wrong with it. */
  static final class BadAnswer extends IOException {
    private static final long serialVersionUID = 1L;

    BadAnswer(String message) {
      super(message);
    }
  }

  /** No complete answer within the deadline. */
  static final class NoAnswerInTime extends IOException {
    private static final long serialVersionUID = 1L;

    NoAnswerInTime(String message) {
      super(message);
    }
  }

  /** {@code url} with {@code path} under it, an http:// URI with a host. */
  private static URI uri(String url, String path) {
    return FakeEnvironment.controlUri(url, path);
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
      String source = InvocationRecord.CONTROL_TAPE + (name == null ? "" : " " + name);
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
      return "no connection within " + duration(CONNECT_TIMEOUT_MS);
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
      InvocationRecord stopped =
          new InvocationRecord(
              invocation.argv(),
              invocation.prompt(),
              invocation.cwd(),
              invocation.outputFormat(),
              invocation.model(),
              invocation.stdin(),
              invocation.pid(),
              invocation.env(),
              Optional.of(stoppedBy));
      post(uri, noSecret ? null : secret, stopped.json());
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

  /**
   * One HTTP/1.1 POST over a plain socket, {@code Connection: close}, within {@link #DEADLINE_MS}:
   * the JDK's HTTP client costs a fresh JVM tens of milliseconds of class loading, paid by every
   * invocation under a test.
   */
  static Response post(URI uri, String secret, byte[] body) throws IOException {
    return post(uri, secret, body, DEADLINE_MS);
  }

  /**
   * As {@link #post(URI, String, byte[])}, all of it within {@code deadlineMs}; {@code secret} (may
   * be null) goes in the secret header.
   */
  static Response post(URI uri, String secret, byte[] body, long deadlineMs) throws IOException {
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    try (Socket socket = new Socket()) {
      Deadline deadline = new Deadline(socket, deadlineMs);
      try {
        socket.connect(
            new InetSocketAddress(uri.getHost(), port),
            (int) Math.max(1, Math.min(CONNECT_TIMEOUT_MS, deadlineMs)));
        OutputStream out = socket.getOutputStream();
        String head =
            "POST "
                + path
                + " HTTP/1.1\r\nHost: "
                + uri.getHost()
                + ":"
                + port
                + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length
                + (secret == null ? "" : "\r\n" + ControlSecret.HEADER + ": " + secret)
                + "\r\nConnection: close\r\n\r\n";
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        return read(new Answer(socket.getInputStream(), socket, deadline));
      } catch (IOException e) {
        if (deadline.expired()) {
          throw new NoAnswerInTime("gave no complete answer within " + duration(deadlineMs));
        }
        throw e;
      } finally {
        deadline.cancel();
      }
    }
  }

  private static String duration(long ms) {
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  /**
   * Closes the socket when the call's time is up, so no connect, write or read outlives it; a
   * thread of its own (a class, not a lambda: start-up), parked until then or cancelled.
   */
  private static final class Deadline extends Thread {
    private final Socket socket;
    private final long endNanos;
    private volatile boolean cancelled;
    private volatile boolean expired;

    Deadline(Socket socket, long ms) {
      super("agentdouble-control-deadline");
      this.socket = socket;
      this.endNanos = System.nanoTime() + Math.min(ms, FrameClock.NEVER_MS) * 1_000_000L;
      setDaemon(true);
      start();
    }

    @Override
    public void run() {
      long left;
      while (!cancelled && (left = endNanos - System.nanoTime()) > 0) {
        LockSupport.parkNanos(left);
      }
      if (!cancelled) {
        expired = true;
        try {
          socket.close();
        } catch (IOException e) {
          // closed already
        }
      }
    }

    /** Milliseconds left, at least 1 (a socket timeout of 0 would mean forever). */
    int leftMs() {
      return (int)
          Math.max(1, Math.min(Integer.MAX_VALUE, (endNanos - System.nanoTime()) / 1_000_000L));
    }

    boolean expired() {
      return expired || endNanos - System.nanoTime() <= 0;
    }

    void cancel() {
      cancelled = true;
      LockSupport.unpark(this);
    }
  }

  /** The answer's bytes as they arrive, each read bounded by what is left of the deadline. */
  private static final class Answer {
    private final InputStream in;
    private final Socket socket;
    private final Deadline deadline;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int limit;
    private long total;

    Answer(InputStream in, Socket socket, Deadline deadline) {
      this.in = in;
      this.socket = socket;
      this.deadline = deadline;
    }

    /** Whether more bytes are buffered, reading when none are; false at the end of the stream. */
    boolean more() throws IOException {
      if (pos < limit) {
        return true;
      }
      int n;
      while (true) {
        if (deadline != null && deadline.expired()) {
          throw new SocketTimeoutException("the deadline passed");
        }
        if (socket != null) {
          socket.setSoTimeout(deadline.leftMs());
        }
        try {
          n = in.read(buf, 0, buf.length);
          break;
        } catch (SocketTimeoutException e) {
          if (deadline == null) {
            throw e;
          }
          // a read timed out a little before the deadline: look again
        }
      }
      if (n < 0) {
        return false;
      }
      pos = 0;
      limit = n;
      total += n;
      return true;
    }

    int next() throws IOException {
      return more() ? buf[pos++] & 0xff : -1;
    }

    /** A line ending in CRLF, without it; at most {@code max} bytes. */
    String line(int max, String what) throws IOException {
      StringBuilder sb = new StringBuilder();
      while (true) {
        int b = next();
        if (b < 0) {
          throw new BadAnswer(
              "the answer was cut short in " + what + " (after " + total + " bytes)");
        }
        if (b == '\r') {
          if (next() != '\n') {
            throw new BadAnswer("a lone CR in " + what);
          }
          return sb.toString();
        }
        if (b == '\n' || sb.length() >= max) {
          throw new BadAnswer(
              b == '\n' ? "a bare LF in " + what : what + " is longer than " + max + " bytes");
        }
        sb.append((char) b);
      }
    }

    /** Appends up to {@code count} bytes to {@code body}; the count appended (less at the end). */
    long copy(long count, ByteBuf body) throws IOException {
      long copied = 0;
      while (copied < count && more()) {
        int n = (int) Math.min(limit - pos, count - copied);
        if ((long) body.size + n > MAX_BODY_BYTES) {
          throw new BadAnswer(tooBig(body.size + (long) n));
        }
        try {
          body.append(buf, pos, n);
        } catch (OutOfMemoryError e) {
          body.data = new byte[0];
          throw new BadAnswer(tooBig(body.size + (long) n));
        }
        pos += n;
        copied += n;
      }
      return copied;
    }
  }

  private static String tooBig(long bytes) {
    return "a body of " + bytes + " bytes or more does not fit in the fake's memory";
  }

  /** Parses a whole response held in memory; chunked bodies are decoded. */
  static Response parse(byte[] raw) throws IOException {
    return read(new Answer(new ByteArrayInputStream(raw), null, null));
  }

  private static Response read(Answer answer) throws IOException {
    String statusLine;
    try {
      statusLine = answer.line(MAX_HEAD_BYTES, "the status line");
    } catch (BadAnswer e) {
      throw new BadAnswer("malformed HTTP response (no header end: " + e.getMessage() + ")");
    }
    int status = status(statusLine);
    Map<String, String> headers = new HashMap<>();
    int headBytes = statusLine.length();
    while (true) {
      String line;
      try {
        line = answer.line(MAX_HEAD_BYTES, "the headers");
      } catch (BadAnswer e) {
        throw new BadAnswer("malformed HTTP response (no header end: " + e.getMessage() + ")");
      }
      if (line.isEmpty()) {
        break;
      }
      headBytes += line.length() + 2;
      if (headBytes > MAX_HEAD_BYTES) {
        throw new BadAnswer("the headers are longer than " + MAX_HEAD_BYTES + " bytes");
      }
      int colon = line.indexOf(':');
      if (colon <= 0) {
        throw new BadAnswer("a header line without a name: " + printable(line));
      }
      String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
      String value = line.substring(colon + 1).strip();
      String before = headers.put(name, value);
      if (name.equals("content-length") && before != null && !before.equals(value)) {
        throw new BadAnswer(
            "two different Content-Length headers: "
                + printable(before)
                + " and "
                + printable(value));
      }
    }
    ByteBuf body = new ByteBuf();
    body.clear();
    // a tape is read whole; any other answer only as far as it is shown
    long keep = status == 200 ? MAX_BODY_BYTES : MAX_ERROR_BYTES;
    boolean cut;
    long length = -1;
    String encoding = headers.get("transfer-encoding");
    if (encoding != null && encoding.toLowerCase(Locale.ROOT).endsWith("chunked")) {
      cut = dechunk(answer, body, keep);
    } else if (headers.containsKey("content-length")) {
      length = length(headers.get("content-length"), keep);
      long want = Math.min(length, keep);
      long got = answer.copy(want, body);
      if (got < want) {
        throw new BadAnswer("HTTP response cut short: " + got + " of " + length + " body bytes");
      }
      cut = length > keep;
    } else if (keep < MAX_BODY_BYTES) {
      // to the end of the connection, or one byte past what is kept
      cut = answer.copy(keep + 1, body) > keep;
      body.size = (int) Math.min(body.size, keep);
    } else {
      answer.copy(Long.MAX_VALUE, body); // to the end of the connection
      cut = false;
    }
    if (cut) {
      body.size = wholeCharacters(body.data, body.size);
    }
    return new Response(status, headers, Arrays.copyOf(body.data, body.size), cut, length);
  }

  /** {@code size}, less a UTF-8 sequence the cut left unfinished at its end. */
  private static int wholeCharacters(byte[] data, int size) {
    for (int i = size - 1; i >= 0 && i >= size - 4; i--) {
      int b = data[i] & 0xff;
      if (b < 0x80) {
        return size;
      }
      if (b >= 0xc0) {
        int needs = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
        return i + needs <= size ? size : i;
      }
    }
    return size;
  }

  private static int status(String line) throws BadAnswer {
    // HTTP/1.1 200 OK
    if (line.startsWith("HTTP/")
        && line.length() >= 12
        && line.charAt(8) == ' '
        && (line.length() == 12 || line.charAt(12) == ' ')) {
      int status = 0;
      for (int i = 9; i < 12; i++) {
        char c = line.charAt(i);
        if (c < '0' || c > '9') {
          status = -1;
          break;
        }
        status = status * 10 + (c - '0');
      }
      if (status >= 100) {
        return status;
      }
    }
    throw new BadAnswer("malformed HTTP status line: " + printable(line));
  }

  /** A Content-Length; one beyond memory is an error only when it is all to be read. */
  private static long length(String value, long keep) throws BadAnswer {
    long length = digits(value, 10);
    if (length < 0) {
      throw new BadAnswer("a bad Content-Length: " + printable(value));
    }
    if (length > MAX_BODY_BYTES && keep >= MAX_BODY_BYTES) {
      throw new BadAnswer(tooBig(length));
    }
    return length;
  }

  /**
   * Decodes a chunked body, at most {@code keep} bytes of it; stops at the last chunk (its trailers
   * are not waited for), or once {@code keep} bytes are read and more follow: then true, the body
   * is cut and the rest is never read.
   */
  private static boolean dechunk(Answer answer, ByteBuf body, long keep) throws IOException {
    while (true) {
      String line = answer.line(1024, "a chunk size line");
      int semicolon = line.indexOf(';');
      String size = (semicolon < 0 ? line : line.substring(0, semicolon)).strip();
      long length = digits(size, 16);
      if (length < 0) {
        throw new BadAnswer("malformed chunk size: " + printable(line));
      }
      if (length == 0) {
        return false;
      }
      if (keep < MAX_BODY_BYTES && body.size + length > keep) {
        long room = keep - body.size;
        if (answer.copy(room, body) < room) {
          throw new BadAnswer("chunked HTTP body cut short");
        }
        return true;
      }
      if (body.size + length > MAX_BODY_BYTES) {
        throw new BadAnswer(tooBig(body.size + length));
      }
      if (answer.copy(length, body) < length) {
        throw new BadAnswer("chunked HTTP body cut short");
      }
      if (answer.next() != '\r' || answer.next() != '\n') {
        throw new BadAnswer("malformed chunked HTTP body: a chunk is not followed by CRLF");
      }
    }
  }

  /** The value of 1 to 15 digits in {@code radix}, or -1. */
  private static long digits(String s, int radix) {
    if (s.isEmpty() || s.length() > 15) {
      return -1;
    }
    long v = 0;
    for (int i = 0; i < s.length(); i++) {
      int d = Character.digit(s.charAt(i), radix);
      if (d < 0) {
        return -1;
      }
      v = v * radix + d;
    }
    return v;
  }

  /** At most 80 characters of {@code s}, quoted, with anything unprintable escaped. */
  private static String printable(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length() && i < 80; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f) {
        sb.append(c);
      } else {
        sb.append(String.format(Locale.ROOT, "\\x%02x", (int) c));
      }
    }
    return sb.append(s.length() > 80 ? "...\"" : "\"").toString();
  }
}
