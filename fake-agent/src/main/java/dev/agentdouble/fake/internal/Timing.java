package dev.agentdouble.fake.internal;

import java.util.concurrent.locks.LockSupport;

/**
 * When each frame is written: {@code fast} (no delays), {@code recorded}, {@code scale:F} (every
 * time multiplied by F) or {@code max-gap:MS} (recorded, but no gap longer than MS). Deadlines are
 * absolute from the process start, so sleeping never accumulates drift.
 */
public final class Timing {
  private enum Kind { FAST, RECORDED, SCALE, MAX_GAP }

  private final Kind kind;
  private final double factor;
  private final long maxGap;
  private long lastTapeT;
  private long lastScheduled;

  private Timing(Kind kind, double factor, long maxGap) {
    this.kind = kind;
    this.factor = factor;
    this.maxGap = maxGap;
  }

  /** The policy for {@code AGENTDOUBLE_TIMING}; {@code null} or empty means {@code recorded}. */
  public static Timing parse(String spec) {
    if (spec == null || spec.isEmpty() || spec.equals("recorded")) {
      return new Timing(Kind.RECORDED, 1, 0);
    }
    if (spec.equals("fast")) {
      return new Timing(Kind.FAST, 0, 0);
    }
    if (spec.startsWith("scale:")) {
      double f;
      try {
        f = Double.parseDouble(spec.substring(6));
      } catch (NumberFormatException e) {
        f = -1;
      }
      if (!(f >= 0) || Double.isInfinite(f)) {
        throw new IllegalArgumentException("AGENTDOUBLE_TIMING=" + spec
            + ": scale needs a factor >= 0, e.g. scale:0.5");
      }
      return new Timing(Kind.SCALE, f, 0);
    }
    if (spec.startsWith("max-gap:")) {
      long ms;
      try {
        ms = Long.parseLong(spec.substring(8));
      } catch (NumberFormatException e) {
        ms = -1;
      }
      if (ms < 0) {
        throw new IllegalArgumentException("AGENTDOUBLE_TIMING=" + spec
            + ": max-gap needs whole milliseconds >= 0, e.g. max-gap:100");
      }
      return new Timing(Kind.MAX_GAP, 1, ms);
    }
    throw new IllegalArgumentException("AGENTDOUBLE_TIMING=" + spec
        + ": use fast, recorded, scale:F or max-gap:MS");
  }

  /** Whether frames are written without waiting. */
  public boolean fast() {
    return kind == Kind.FAST;
  }

  /**
   * Milliseconds after the process start at which the frame recorded at {@code t} is due. Call in
   * frame order.
   */
  public long due(long t) {
    long scheduled = switch (kind) {
      case FAST -> 0;
      case RECORDED -> t;
      case SCALE -> Math.round(t * factor);
      case MAX_GAP -> lastScheduled + Math.min(t - lastTapeT, maxGap);
    };
    lastTapeT = t;
    lastScheduled = scheduled;
    return scheduled;
  }

  /** Waits until {@code originNanos + dueMs}; returns at once when that has passed. */
  public static void waitUntil(long originNanos, long dueMs) {
    long deadline = originNanos + dueMs * 1_000_000L;
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      LockSupport.parkNanos(left);
    }
  }
}
