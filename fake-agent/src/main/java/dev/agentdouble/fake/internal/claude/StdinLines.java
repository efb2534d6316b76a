package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.json.LineReader;
import java.io.IOException;
import java.io.InputStream;

/**
 * The client's lines on stdin, one {@link StdinMessage} each, blank lines skipped; null once stdin
 * ends. A line too long for this JVM is an {@link IOException} saying so.
 */
final class StdinLines {
  private final LineReader lines;

  StdinLines(InputStream stdin) {
    this.lines = new LineReader(stdin);
  }

  /** The next message; null at the end of stdin. */
  StdinMessage next() throws IOException {
    while (lines.next()) {
      StdinMessage m = message();
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  /**
   * The next message if its line was already read with the lines before it (in the same write of
   * the client's, as a rule); null when none was, without waiting for stdin.
   */
  StdinMessage nextRead() throws IOException {
    while (lines.lineBuffered() && lines.next()) {
      StdinMessage m = message();
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  /** The 1-based number of the line read last. */
  int lineNumber() {
    return lines.lineNumber();
  }

  /** The current line's message; null for a blank line. */
  private StdinMessage message() {
    byte[] buf = lines.buffer();
    int off = lines.offset();
    int len = lines.length();
    if (len > 0 && buf[off + len - 1] == '\r') {
      len--;
    }
    return blank(buf, off, len) ? null : StdinMessage.parse(buf, off, len);
  }

  private static boolean blank(byte[] buf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (buf[i] != ' ' && buf[i] != '\t') {
        return false;
      }
    }
    return true;
  }
}
