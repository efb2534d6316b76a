package dev.agentdouble.fake.internal.control;

import dev.agentdouble.fake.internal.process.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * An answer's bytes as they arrive, each read bounded by what is left of the deadline: lines of the
 * head and counted runs of the body, whose size is bounded by what an array can hold.
 */
final class Incoming {
  /** The largest body an array can hold. */
  static final long MAX_BODY_BYTES = Integer.MAX_VALUE - 16;

  private final InputStream in;
  private final Socket socket;
  private final Deadline deadline;
  private final byte[] buf = new byte[1 << 16];
  private int pos;
  private int limit;
  private long total;

  /** {@code socket} and {@code deadline} are null for an answer held in memory. */
  Incoming(InputStream in, Socket socket, Deadline deadline) {
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
        throw new BadAnswer("the answer was cut short in " + what + " (after " + total + " bytes)");
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

  static String tooBig(long bytes) {
    return "a body of " + bytes + " bytes or more does not fit in the fake's memory";
  }
}
