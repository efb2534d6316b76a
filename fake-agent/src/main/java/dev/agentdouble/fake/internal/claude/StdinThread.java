package dev.agentdouble.fake.internal.claude;

import java.io.IOException;

/**
 * Stdin read to its end on a thread of its own, so that a wait for it can have a deadline and a
 * turn can play while it is read; a daemon, so a stdin left open never holds the process. What it
 * reads is the subclass's; how the reading ends is kept here, under this object's lock: {@link
 * #ended} once stdin ended or failed, {@link #failed} the failure, and a {@code notifyAll} to every
 * waiter.
 */
abstract class StdinThread extends Thread {
  /** Whether the reading ended (stdin's end, or a failure); guarded by this. */
  boolean ended;

  /** Why the reading ended before stdin's end; null when it did not fail. Guarded by this. */
  IOException failed;

  StdinThread() {
    super("agentdouble-stdin");
    setDaemon(true);
  }

  /** Reads stdin to its end, handing on what it reads (under this object's lock). */
  abstract void readToEnd() throws IOException;

  @Override
  public final void run() {
    try {
      readToEnd();
    } catch (IOException e) {
      synchronized (this) {
        failed = e;
      }
    }
    synchronized (this) {
      ended = true;
      notifyAll();
    }
  }
}
