package dev.agentdouble.fake.internal.claude;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** What a claude run writes to stdout or stderr: whole texts, flushed. */
final class Output {
  private Output() {}

  /** Writes {@code text} whole and flushes; a reader that went away is not told anything. */
  static void write(OutputStream stream, String text) {
    if (text.isEmpty()) {
      return;
    }
    try {
      stream.write(text.getBytes(StandardCharsets.UTF_8));
      stream.flush();
    } catch (IOException e) {
      // the reader went away; nothing else can be told
    }
  }
}
