package dev.agentdouble.junit;

import dev.agentdouble.contract.Timing;
import java.time.Duration;
import java.util.Objects;

/**
 * How the extension's fakes behave.
 *
 * @param timing the replay timing
 * @param strictUnmatched whether an invocation that matched nothing fails the test
 * @param strictUnused whether an enqueued tape never used fails the test
 * @param gateTimeout how long a run waits at a step gate before giving up (exit 70)
 */
record Settings(
    Timing timing, boolean strictUnmatched, boolean strictUnused, Duration gateTimeout) {

  /** Fast timing, strict both ways, 30 s gates. */
  public static final Settings DEFAULTS =
      new Settings(Timing.FAST, true, true, Duration.ofSeconds(30));

  public Settings {
    Objects.requireNonNull(timing, "timing");
    if (gateTimeout.isNegative() || gateTimeout.isZero()) {
      throw new IllegalArgumentException("gate timeout must be positive, was " + gateTimeout);
    }
  }
}
