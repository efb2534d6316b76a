package dev.agentdouble.fake.internal.claude;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Claude Code's stdin in a print run with text input (real 2.1.328, FINDINGS part c): a pipe that
 * gives its first byte within the wait is read to its end (however long that takes); one that gives
 * nothing in that time is left, and the run goes on without it. Read on a thread of its own, so the
 * wait has a deadline; a daemon, so a stdin left open never holds the process.
 */
final class StdinPrompt extends StdinThread {
  private final InputStream in;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private boolean started;

  private StdinPrompt(InputStream in) {
    this.in = in;
  }

  /**
   * What {@code in} gives, to its end, if its first byte (or its end) comes within {@code waitMs};
   * empty when it stays silent that long.
   */
  static Optional<String> read(InputStream in, long waitMs) throws IOException {
    StdinPrompt reader = new StdinPrompt(in);
    reader.start();
    return reader.await(waitMs);
  }

  @Override
  void readToEnd() throws IOException {
    byte[] buf = new byte[8192];
    int n;
    while ((n = in.read(buf)) >= 0) {
      synchronized (this) {
        bytes.write(buf, 0, n);
        started |= n > 0;
        notifyAll();
      }
    }
  }

  private synchronized Optional<String> await(long waitMs) throws IOException {
    long deadline = System.nanoTime() + waitMs * 1_000_000L;
    try {
      while (!started && !ended) {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          return Optional.empty();
        }
        wait(left);
      }
      while (!ended) {
        wait();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
    if (failed != null) {
      throw failed;
    }
    return Optional.of(bytes.toString(StandardCharsets.UTF_8));
  }
}
