package dev.agentdouble.fake.internal.claude;

import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The client's lines read on a thread of their own while a turn plays, as the real CLI reads stdin
 * during a turn (FINDINGS f.4-5): an {@code interrupt} control request that comes while a turn runs
 * interrupts the turn's thread (its player stops at its next frame, pause or gate) and is handed to
 * the session when the turn ends; every other line waits in order for the session. A daemon, so a
 * stdin left open never holds the process.
 */
final class StdinReader extends StdinThread {
  private final StdinLines lines;
  private final ArrayDeque<StdinMessage> queue = new ArrayDeque<>();
  private Thread turn;
  private StdinMessage interrupt;

  StdinReader(StdinLines lines) {
    this.lines = lines;
  }

  @Override
  void readToEnd() throws IOException {
    StdinMessage m;
    while ((m = lines.next()) != null) {
      synchronized (this) {
        if (turn != null && interrupt == null && isInterrupt(m)) {
          interrupt = m;
          turn.interrupt();
        } else {
          queue.add(m);
          notifyAll();
        }
      }
    }
  }

  /** The next line; null once stdin ended (and every line before was taken). */
  synchronized StdinMessage take() throws IOException {
    while (queue.isEmpty() && !ended) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    if (!queue.isEmpty()) {
      return queue.poll();
    }
    if (failed != null) {
      throw failed;
    }
    return null;
  }

  /** The calling thread plays a turn: an interrupt from now on stops it. */
  synchronized void turnStarts() {
    turn = Thread.currentThread();
    interrupt = null;
  }

  /** Whether an interrupt reached the running turn. */
  synchronized boolean turnInterrupted() {
    return interrupt != null;
  }

  /**
   * The turn ended: the interrupt that reached it, if any (null when none), its thread's interrupt
   * status cleared.
   */
  synchronized StdinMessage turnEnds() {
    turn = null;
    StdinMessage m = interrupt;
    interrupt = null;
    Thread.interrupted();
    return m;
  }

  private static boolean isInterrupt(StdinMessage m) {
    return m.kind() == StdinMessage.Kind.CONTROL_REQUEST && m.subtype().equals("interrupt");
  }
}
