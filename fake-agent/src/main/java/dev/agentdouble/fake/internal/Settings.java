package dev.agentdouble.fake.internal;

import dev.agentdouble.tape.TextStyle;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The values the fake reads from {@code AGENTDOUBLE_*} variables, each checked once, when the fake
 * starts, whatever it is asked: a value it cannot use is its own problem (exit 70, one line on
 * stderr, nothing on stdout), never a surprise halfway through a run, nor ignored because this run
 * happens not to need it. Paths ({@code AGENTDOUBLE_TAPE}, {@code AGENTDOUBLE_GATES}, ...) are
 * checked where they are used.
 *
 * @param timing {@code AGENTDOUBLE_TIMING}
 * @param textStyle {@code AGENTDOUBLE_TEXT_STYLE}, when set
 * @param epochMs {@code AGENTDOUBLE_EPOCH_MS}, when set
 * @param gateTimeoutMs {@code AGENTDOUBLE_GATE_TIMEOUT_MS}, else {@link Gates#DEFAULT_TIMEOUT_MS}
 * @param trusted {@code AGENTDOUBLE_TRUST}: whether every workspace counts as trusted
 */
record Settings(Timing timing, Optional<TextStyle> textStyle, OptionalLong epochMs,
    long gateTimeoutMs, boolean trusted) {

  static final String TIMING = "AGENTDOUBLE_TIMING";
  static final String TEXT_STYLE = "AGENTDOUBLE_TEXT_STYLE";
  static final String EPOCH_MS = "AGENTDOUBLE_EPOCH_MS";
  static final String GATE_TIMEOUT_MS = "AGENTDOUBLE_GATE_TIMEOUT_MS";
  static final String TRUST = "AGENTDOUBLE_TRUST";

  /** The latest epoch the fake takes: 9999-12-31T23:59:59.999Z, far from the long range. */
  static final long MAX_EPOCH_MS = 253_402_300_799_999L;

  /**
   * Reads and checks every setting.
   *
   * @throws IllegalArgumentException naming the variable, its value and what it takes
   */
  static Settings of(Map<String, String> env) {
    Timing timing = Timing.parse(value(env, TIMING));
    Optional<TextStyle> textStyle = Optional.empty();
    String style = value(env, TEXT_STYLE);
    if (style != null) {
      textStyle = TextStyle.fromName(style);
      if (textStyle.isEmpty()) {
        throw new IllegalArgumentException(TEXT_STYLE + "=" + style + ": use actions or final");
      }
    }
    OptionalLong epochMs = OptionalLong.empty();
    String epoch = value(env, EPOCH_MS);
    if (epoch != null) {
      epochMs = OptionalLong.of(whole(EPOCH_MS, epoch, MAX_EPOCH_MS,
          "use epoch milliseconds from 0 to " + MAX_EPOCH_MS + ", e.g. 1770823841542"));
    }
    long gateTimeoutMs = Gates.DEFAULT_TIMEOUT_MS;
    String gateTimeout = value(env, GATE_TIMEOUT_MS);
    if (gateTimeout != null) {
      gateTimeoutMs = whole(GATE_TIMEOUT_MS, gateTimeout, Long.MAX_VALUE,
          "use whole milliseconds, e.g. 30000");
    }
    String trust = value(env, TRUST);
    if (trust != null && !trust.equals("trusted") && !trust.equals("untrusted")) {
      throw new IllegalArgumentException(TRUST + "=" + trust + ": use trusted (every workspace"
          + " already trusted) or untrusted (a fresh machine, the default)");
    }
    String url = value(env, ControlClient.ENV);
    if (url != null) {
      Optional<String> problem = ControlClient.problem(url);
      if (problem.isPresent()) {
        throw new IllegalArgumentException(problem.get());
      }
    }
    return new Settings(timing, textStyle, epochMs, gateTimeoutMs, "trusted".equals(trust));
  }

  /** The variable's value; null when unset or blank (an empty variable counts as unset). */
  private static String value(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value;
  }

  /** A whole number from 0 to {@code max}, surrounding blanks allowed. */
  private static long whole(String name, String value, long max, String use) {
    String digits = value.strip();
    boolean plain = !digits.isEmpty() && digits.length() <= 19;
    for (int i = 0; plain && i < digits.length(); i++) {
      char c = digits.charAt(i);
      plain = c >= '0' && c <= '9';
    }
    long parsed = -1;
    if (plain) {
      try {
        parsed = Long.parseLong(digits);
      } catch (NumberFormatException e) {
        parsed = -1; // beyond the long range
      }
    }
    if (parsed < 0 || parsed > max) {
      throw new IllegalArgumentException(name + "=" + value + ": " + use);
    }
    return parsed;
  }
}
