package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.json.LineReader;
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
 *
 * <p>What is kept is bounded: lines the session ignores (a {@code control_response} to no request,
 * a type the CLI ignores) are dropped as they come, and at most {@link #WAITING} lines wait for the
 * session. One more, or a line this JVM's memory cannot hold, stops the reading: the running turn
 * is interrupted, and the session ends with one line of ours ({@link #stopped}), exit 70.
 */
final class StdinReader extends StdinThread {
  /**
   * The most lines that wait for the session: far more than a client sends during one turn (the
   * Agent SDK sends its next message after the result).
   */
  static final int WAITING = 256;

  /** Why the reading stopped before stdin's end: the session ends on it with one line. */
  static final class Stopped extends IOException {
    private static final long serialVersionUID = 1L;

    Stopped(String message) {
      super(message);
    }
  }

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

  /** Set once the reading stopped before stdin's end. */
  private Stopped stopped;

  StdinReader(StdinLines lines) {
    this.lines = lines;
  }

  @Override
  void readToEnd() throws IOException {
    try {
      StdinMessage m;
      while ((m = lines.next()) != null) {
        synchronized (this) {
          do {
            read(m);
          } while ((m = lines.nextRead()) != null);
          notifyAll();
        }
      }
    } catch (LineReader.TooLong e) {
      throw stop("stdin line " + e.line() + ": " + e.getMessage());
    } catch (OutOfMemoryError e) {
      synchronized (this) {
        queue.clear(); // room for the message
      }
      throw stop(
          "stdin line "
              + (lines.lineNumber() + 1)
              + ": out of memory reading it"
              + LineReader.memoryHint());
    }
  }

  /** One line in: an interrupt to the accepted turn, or in the queue. Under this object's lock. */
  private void read(StdinMessage m) throws Stopped {
    if (accepted > over && interrupt == null && isInterrupt(m)) {
      interrupt = m;
      if (turn != null) {
        turn.interrupt();
      }
      return;
    }
    if (m.kind() == StdinMessage.Kind.OTHER || m.kind() == StdinMessage.Kind.CONTROL_RESPONSE) {
      return; // ignored by the session (FINDINGS i.2): never kept
    }
    if (queue.size() >= WAITING) {
      throw stop(
          "stdin line "
              + lines.lineNumber()
              + ": "
              + WAITING
              + " lines already wait for the session, the most this fake keeps (a turn was"
              + " running); send the next message after the turn's result");
    }
    if (m.kind() == StdinMessage.Kind.USER) {
      accepted++;
    }
    queue.add(m);
  }

  /** The reading stops on {@code problem}: a running turn is interrupted, and told. */
  private synchronized Stopped stop(String problem) {
    queue.clear(); // what waits is never answered now: its memory is free for the message
    stopped = new Stopped(problem);
    if (turn != null) {
      turn.interrupt();
    }
    notifyAll();
    return stopped;
  }

  /** Why the reading stopped before stdin's end; null while it reads on. */
  synchronized Stopped stopped() {
    return stopped;
  }

  /** The next line; null once stdin ended (and every line before was taken). */
  synchronized StdinMessage take() throws IOException {
    while (queue.isEmpty() && !ended && stopped == null) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }
    if (stopped != null) {
      throw stopped;
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
    if (interrupt != null || stopped != null) {
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
