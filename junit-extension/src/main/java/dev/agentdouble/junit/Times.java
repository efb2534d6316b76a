package dev.agentdouble.junit;

/**
 * How many invocations {@link FakeAgent#verify(Times, InvocationPattern)} expects: {@link
 * #exactly}, {@link #atLeast}, {@link #atMost}, {@link #between} or {@link #never}.
 *
 * @param min the fewest allowed
 * @param max the most allowed; {@link Integer#MAX_VALUE} for no limit
 */
public record Times(int min, int max) {
  public Times {
    if (min < 0 || max < min) {
      throw new IllegalArgumentException(
          "times must be 0 <= min <= max, was min " + min + ", max " + max);
    }
  }

  public static Times exactly(int count) {
    return new Times(count, count);
  }

  public static Times atLeast(int count) {
    return new Times(count, Integer.MAX_VALUE);
  }

  public static Times atMost(int count) {
    return new Times(0, count);
  }

  public static Times between(int min, int max) {
    return new Times(min, max);
  }

  public static Times never() {
    return exactly(0);
  }

  /** Whether {@code count} invocations are what this expects. */
  public boolean allows(int count) {
    return count >= min && count <= max;
  }

  /** As a failure message says it: {@code exactly 2}, {@code at least 1}, {@code never}. */
  @Override
  public String toString() {
    if (min == max) {
      return min == 0 ? "never" : "exactly " + min;
    }
    if (max == Integer.MAX_VALUE) {
      return "at least " + min;
    }
    return min == 0 ? "at most " + max : "between " + min + " and " + max;
  }
}
