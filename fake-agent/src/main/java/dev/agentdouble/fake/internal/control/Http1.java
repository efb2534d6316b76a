package dev.agentdouble.fake.internal.control;

import dev.agentdouble.fake.internal.process.ByteBuf;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A small HTTP/1.1 client: one POST over a plain socket, {@code Connection: close}, all of it
 * (connecting, sending and the whole answer) within a deadline. The JDK's HTTP client costs a fresh
 * JVM tens of milliseconds of class loading, paid by every invocation under a test.
 *
 * <p>The answer is read as it arrives, by its {@code Content-Length} or its chunks, never by
 * waiting for the server to close the connection. An answer that breaks HTTP (garbage, a bad length
 * or chunk size, one cut short, one that does not fit in memory) is a {@link BadAnswer}, one that
 * does not come in time a {@link NoAnswerInTime}, each saying what went wrong in words a person
 * reads after the server's name.
 */
final class Http1 {
  static final int CONNECT_TIMEOUT_MS = 5_000;

  /** The most a status line and headers may take together. */
  static final int MAX_HEAD_BYTES = 64 * 1024;

  /**
   * The most of an answer other than 200 that is read: its text is for a person (an error page, a
   * near-miss report), and a server's 50 MiB error page would otherwise be held in memory and
   * copied whole wherever it is shown. The rest is never read.
   */
  static final int MAX_ERROR_BYTES = 64 * 1024;

  /** Headers besides those every request has: none. */
  static final String[] NO_HEADERS = {};

  private Http1() {}

  /**
   * An HTTP response, as much of it as the fake needs.
   *
   * @param headers by their names in lower case
   * @param body the body; for a status other than 200, at most its first {@link #MAX_ERROR_BYTES}
   * @param cut whether the body went on beyond {@code body} (the rest was not read)
   * @param length the body's {@code Content-Length}, -1 when the answer had none
   */
  record Response(int status, Map<String, String> headers, byte[] body, boolean cut, long length) {}

  /**
   * POSTs {@code body} of {@code contentType} to {@code uri}, an http:// URI with a host, all of it
   * within {@code deadlineMs}.
   *
   * @param headers further headers, as names and values in turn, sent after {@code Content-Length}
   */
  static Response post(URI uri, String contentType, String[] headers, byte[] body, long deadlineMs)
      throws IOException {
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    StringBuilder head =
        new StringBuilder("POST ")
            .append(path)
            .append(" HTTP/1.1\r\nHost: ")
            .append(uri.getHost())
            .append(':')
            .append(port)
            .append("\r\nContent-Type: ")
            .append(contentType)
            .append("\r\nContent-Length: ")
            .append(body.length);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      head.append("\r\n").append(headers[i]).append(": ").append(headers[i + 1]);
    }
    head.append("\r\nConnection: close\r\n\r\n");
    try (Socket socket = new Socket()) {
      Deadline deadline = new Deadline(socket, deadlineMs);
      try {
        socket.connect(
            new InetSocketAddress(uri.getHost(), port),
            (int) Math.max(1, Math.min(CONNECT_TIMEOUT_MS, deadlineMs)));
        OutputStream out = socket.getOutputStream();
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        out.write(body);
        out.flush();
        return read(new Incoming(socket.getInputStream(), socket, deadline));
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

  /**
   * Readies this JVM's sockets for a POST to {@code uri} without connecting: a socket made and
   * given its descriptor, the address made (see {@link WarmUp}).
   */
  static void ready(URI uri) throws IOException {
    try (Socket socket = new Socket()) {
      socket.setSoTimeout(1); // creates the socket's file descriptor: the native side's start
      new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
    }
  }

  /** {@code ms} for a person: in seconds when whole. */
  static String duration(long ms) {
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  /** Parses a whole response held in memory; chunked bodies are decoded. */
  static Response parse(byte[] raw) throws IOException {
    return read(new Incoming(new ByteArrayInputStream(raw), null, null));
  }

  private static Response read(Incoming answer) throws IOException {
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
    long keep = status == 200 ? Incoming.MAX_BODY_BYTES : MAX_ERROR_BYTES;
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
    } else if (keep < Incoming.MAX_BODY_BYTES) {
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
    if (length > Incoming.MAX_BODY_BYTES && keep >= Incoming.MAX_BODY_BYTES) {
      throw new BadAnswer(Incoming.tooBig(length));
    }
    return length;
  }

  /**
   * Decodes a chunked body, at most {@code keep} bytes of it; stops at the last chunk (its trailers
   * are not waited for), or once {@code keep} bytes are read and more follow: then true, the body
   * is cut and the rest is never read.
   */
  private static boolean dechunk(Incoming answer, ByteBuf body, long keep) throws IOException {
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
      if (keep < Incoming.MAX_BODY_BYTES && body.size + length > keep) {
        long room = keep - body.size;
        if (answer.copy(room, body) < room) {
          throw new BadAnswer("chunked HTTP body cut short");
        }
        return true;
      }
      if (body.size + length > Incoming.MAX_BODY_BYTES) {
        throw new BadAnswer(Incoming.tooBig(body.size + length));
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
