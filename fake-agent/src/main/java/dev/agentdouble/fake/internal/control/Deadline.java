package dev.agentdouble.fake.internal.control;

import dev.agentdouble.fake.internal.process.FrameClock;
import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.locks.LockSupport;

/**
 * Closes the socket when the call's time is up, so no connect, write or read outlives it; a thread
 * of its own (a class, not a lambda: start-up), parked until then or cancelled.
 */
final class Deadline extends Thread {
  private final Socket socket;
  private final long endNanos;
  private volatile boolean cancelled;
  private volatile boolean expired;

  Deadline(Socket socket, long ms) {
    super("agentdouble-control-deadline");
    this.socket = socket;
    this.endNanos = System.nanoTime() + Math.min(ms, FrameClock.NEVER_MS) * 1_000_000L;
    setDaemon(true);
    start();
  }

  @Override
  public void run() {
    long left;
    while (!cancelled && (left = endNanos - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
    if (!cancelled) {
      expired = true;
      try {
        socket.close();
      } catch (IOException e) {
        // closed already
      }
    }
  }

  /** Milliseconds left, at least 1 (a socket timeout of 0 would mean forever). */
  int leftMs() {
    return (int)
        Math.max(1, Math.min(Integer.MAX_VALUE, (endNanos - System.nanoTime()) / 1_000_000L));
  }

  boolean expired() {
    return expired || endNanos - System.nanoTime() <= 0;
  }

  void cancel() {
    cancelled = true;
    LockSupport.unpark(this);
  }
}
