package dev.agentdouble.junit.internal.handle;

import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.agentdouble.junit.Times;
import dev.agentdouble.junit.internal.control.InvocationLog;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** Checks how many invocations of a fake match a pattern; fails saying which came closest. */
public final class Verification {
  private Verification() {}

  /**
   * Fails unless {@code times} allows as many of {@code log}'s invocations as {@code request} lets
   * through; {@code pattern} says the pattern in words, {@code mismatches} what a body misses of
   * it.
   */
  public static void verify(
      InvocationLog log,
      Times times,
      String pattern,
      UnaryOperator<RequestPatternBuilder> request,
      Function<String, List<String>> mismatches) {
    int count = log.count(request);
    if (times.allows(count)) {
      return;
    }
    StringBuilder message =
        new StringBuilder(
            "expected "
                + expectation(times)
                + " matching "
                + pattern
                + ", got "
                + count
                + " (of "
                + log.all().size()
                + ")");
    if (count < times.min()) {
      // the invocation that misses fewest of the pattern's conditions, and what it missed
      String closest = null;
      List<String> fewest = null;
      for (String body : log.asJournalled()) {
        List<String> misses = mismatches.apply(body);
        if (!misses.isEmpty() && (fewest == null || misses.size() < fewest.size())) {
          closest = body;
          fewest = misses;
        }
      }
      if (closest != null) {
        message
            .append("\nclosest: ")
            .append(InvocationLog.parse(closest).summary())
            .append("\n  it missed: ")
            .append(String.join("; ", fewest));
      }
    }
    throw new AssertionError(message.toString());
  }

  /** {@code 1 invocation}, {@code at least 2 invocations}, {@code no invocations}. */
  private static String expectation(Times times) {
    if (times.max() == 0) {
      return "no invocations";
    }
    int shown =
        times.max() == Integer.MAX_VALUE || times.min() == times.max() ? times.min() : times.max();
    String count = times.min() == times.max() ? Integer.toString(shown) : times.toString();
    return count + (shown == 1 ? " invocation" : " invocations");
  }
}
