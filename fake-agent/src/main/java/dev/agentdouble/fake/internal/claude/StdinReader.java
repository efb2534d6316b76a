package dev.agentdouble.fake.internal.claude;

import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The client's lines read on a thread of their own while a turn plays, as the real CLI reads stdin
 * during a turn (FINDINGS f.4-5). A user line is a turn accepted: an {@code interrupt} control
 * request that comes after it and before that turn is over belongs to it, however soon (in the same
 * write, or before the turn's thread started to play): it interrupts the turn's thread (its player
 * stops at its next frame, pause or gate), or the thread as it starts to play, and is handed to the
 * session when the turn ends. Every other line waits in order for the session. The lines read with
 * one read of stdin are taken in together, so an interrupt written with its user line is never left
 * behind it. A daemon, so a stdin left open never holds the process.
 */
final class StdinReader extends StdinThread {
  private final StdinLines lines;
  private final ArrayDeque<StdinMessage> queue = new ArrayDeque<>();

  /** User lines read, taken by the session, and whose turns are over; guarded by this. */
  private int accepted;

  private int taken;
  private int over;

  /** The thread playing the current turn; null when none plays. */
  private Thread turn;

  /** The interrupt that belongs to the turn after the {@link #over} ones; null when none came. */
  private StdinMessage interrupt;

  StdinReader(StdinLines lines) {
    this.lines = lines;
  }

  @Override
  void readToEnd() throws IOException {
    StdinMessage m;
    while ((m = lines.next()) != null) {
      synchronized (this) {
        do {
          read(m);
        } while ((m = lines.nextRead()) != null);
        notifyAll();
      }
    }
  }

  /** One line in: an interrupt to the accepted turn, or in the queue. Under this object's lock. */
  private void read(StdinMessage m) {
    if (accepted > over && interrupt == null && isInterrupt(m)) {
      interrupt = m;
      if (turn != null) {
        turn.interrupt();
      }
      return;
    }
    if (m.kind() == StdinMessage.Kind.USER) {
      accepted++;
    }
    queue.add(m);
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
      StdinMessage m = queue.poll();
      if (m.kind() == StdinMessage.Kind.USER) {
        taken++;
      }
      return m;
    }
    if (failed != null) {
      throw failed;
    }
    return null;
  }

  /**
   * The calling thread plays the turn of the user line taken last: an interrupt from now on stops
   * it, and one that came already stops it at once.
   */
  synchronized void turnStarts() {
    turn = Thread.currentThread();
    if (interrupt != null) {
      turn.interrupt();
    }
  }

  /** Whether an interrupt reached the running turn. */
  synchronized boolean turnInterrupted() {
    return interrupt != null;
  }

  /**
   * The turn's play ended, and the turn is over: the interrupt that reached it, if any (null when
   * none), its thread's interrupt status cleared.
   */
  synchronized StdinMessage turnEnds() {
    turn = null;
    over = taken;
    StdinMessage m = interrupt;
    interrupt = null;
    Thread.interrupted();
    return m;
  }

  /**
   * The turn of the user line taken last is over, played or not: the interrupt that came for a turn
   * that never played (null when none, or when its play took it), to be answered as between turns.
   */
  synchronized StdinMessage turnOver() {
    if (over == taken) {
      return null;
    }
    over = taken;
    StdinMessage m = interrupt;
    interrupt = null;
    return m;
  }

  private static boolean isInterrupt(StdinMessage m) {
    return m.kind() == StdinMessage.Kind.CONTROL_REQUEST && m.subtype().equals("interrupt");
  }
}
