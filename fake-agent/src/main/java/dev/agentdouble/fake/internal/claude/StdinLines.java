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
      byte[] buf = lines.buffer();
      int off = lines.offset();
      int len = lines.length();
      if (len > 0 && buf[off + len - 1] == '\r') {
        len--;
      }
      if (!blank(buf, off, len)) {
        return StdinMessage.parse(buf, off, len);
      }
    }
    return null;
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
