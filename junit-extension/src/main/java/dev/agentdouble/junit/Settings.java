package dev.agentdouble.junit;

import java.time.Duration;

/**
 * How the extension's fakes behave.
 *
 * @param timing the replay timing: {@code fast}, {@code recorded}, {@code scale:F}, {@code
 *     max-gap:MS}
 * @param strictUnmatched whether an invocation that matched nothing fails the test
 * @param strictUnused whether an enqueued tape never used fails the test
 * @param gateTimeout how long a run waits at a step gate before giving up (exit 70)
 */
public record Settings(String timing, boolean strictUnmatched, boolean strictUnused,
    Duration gateTimeout) {

  /** Fast timing, strict both ways, 30 s gates. */
  public static final Settings DEFAULTS = new Settings("fast", true, true, Duration.ofSeconds(30));

  public Settings {
    if (timing == null || dev.agentdouble.contract.TimingSpec.problem(timing).isPresent()) {
      throw new IllegalArgumentException("timing must be fast, recorded, scale:F or max-gap:MS, "
          + "was " + timing);
    }
    if (gateTimeout.isNegative() || gateTimeout.isZero()) {
      throw new IllegalArgumentException("gate timeout must be positive, was " + gateTimeout);
    }
  }
}
