package dev.agentdouble.fake.internal;

import dev.agentdouble.tape.internal.TimingSpec;
import java.util.Optional;
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
    if (spec == null || spec.isEmpty()) {
      return new Timing(Kind.RECORDED, 1, 0);
    }
    Optional<String> problem = TimingSpec.problem(spec);
    if (problem.isPresent()) {
      throw new IllegalArgumentException("AGENTDOUBLE_TIMING=" + spec + ": " + problem.get());
    }
    if (spec.equals("fast")) {
      return new Timing(Kind.FAST, 0, 0);
    }
    if (spec.startsWith("scale:")) {
      return new Timing(Kind.SCALE, Double.parseDouble(spec.substring(6)), 0);
    }
    if (spec.startsWith("max-gap:")) {
      return new Timing(Kind.MAX_GAP, 1, Long.parseLong(spec.substring(8)));
    }
    return new Timing(Kind.RECORDED, 1, 0);
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

  /** A pause longer than this is watched for the end of the run's {@link Owner}. */
  static final long WATCHED_PAUSE_NANOS = 300_000_000L;

  /**
   * Waits until {@code originNanos + dueMs}; returns at once when that has passed. A longer pause
   * than {@link #WATCHED_PAUSE_NANOS} starts watching the run's {@link Owner}.
   */
  public static void waitUntil(long originNanos, long dueMs) {
    long deadline = originNanos + dueMs * 1_000_000L;
    if (deadline - System.nanoTime() > WATCHED_PAUSE_NANOS) {
      Owner.watch();
    }
    while (true) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return;
      }
      LockSupport.parkNanos(left);
    }
  }
}
