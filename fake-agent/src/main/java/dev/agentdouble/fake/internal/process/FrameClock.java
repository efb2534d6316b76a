package dev.agentdouble.fake.internal.process;

import dev.agentdouble.contract.Timing;
import java.util.concurrent.locks.LockSupport;

/**
 * Waits for the due times of frames ({@link Timing#due}), counted from the process start, so
 * sleeping never accumulates drift. A deadline too far away to be counted in nanoseconds (beyond
 * {@link #NEVER_MS}, about 146 years: a {@code t} near the top of its range, {@code scale:1e308})
 * is never reached: the frame waits as long as the process lives, it is never written early.
 */
public final class FrameClock {
  /** Due times from here on are never reached: half the nanosecond range of a long, in ms. */
  public static final long NEVER_MS = Long.MAX_VALUE / 2 / 1_000_000L;

  private FrameClock() {}

  /** A pause longer than this is watched for the end of the run's {@link Owner}. */
  static final long WATCHED_PAUSE_NANOS = 300_000_000L;

  /**
   * Waits until {@code originNanos + dueMs}; returns at once when that has passed, never when
   * {@code dueMs} is {@link #NEVER_MS} or more. A longer pause than {@link #WATCHED_PAUSE_NANOS}
   * starts watching the run's {@link Owner}.
   */
  public static void waitUntil(long originNanos, long dueMs) {
    if (nanosLeft(originNanos, dueMs, System.nanoTime()) > WATCHED_PAUSE_NANOS) {
      Owner.watch();
    }
    while (true) {
      long left = nanosLeft(originNanos, dueMs, System.nanoTime());
      if (left <= 0 || Thread.currentThread().isInterrupted()) {
        return; // interrupted: the turn stops at the frame after the pause
      }
      LockSupport.parkNanos(left);
    }
  }

  /**
   * Nanoseconds from {@code nowNanos} until {@code dueMs} after {@code originNanos}; {@link
   * Long#MAX_VALUE} for a due time never reached. Computed without overflow: a far deadline must
   * not wrap round into the past.
   */
  static long nanosLeft(long originNanos, long dueMs, long nowNanos) {
    if (dueMs >= NEVER_MS) {
      return Long.MAX_VALUE;
    }
    return Math.max(dueMs, 0) * 1_000_000L - (nowNanos - originNanos);
  }
}
