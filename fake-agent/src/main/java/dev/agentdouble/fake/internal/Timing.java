package dev.agentdouble.fake.internal;

import dev.agentdouble.contract.TimingSpec;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * When each frame is written: {@code fast} (no delays), {@code recorded}, {@code scale:F} (every
 * time multiplied by F) or {@code max-gap:MS} (recorded, but no gap longer than MS). Deadlines are
 * absolute from the process start, so sleeping never accumulates drift. A deadline too far away
 * to be counted in nanoseconds (beyond {@link #NEVER_MS}, about 146 years: a {@code t} near the
 * top of its range, {@code scale:1e308}) is never reached: the frame waits as long as the process
 * lives, it is never written early.
 */
public final class Timing {
  private enum Kind { FAST, RECORDED, SCALE, MAX_GAP }

  /** Due times from here on are never reached: half the nanosecond range of a long, in ms. */
  static final long NEVER_MS = Long.MAX_VALUE / 2 / 1_000_000L;

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
      if (left <= 0) {
        return;
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
