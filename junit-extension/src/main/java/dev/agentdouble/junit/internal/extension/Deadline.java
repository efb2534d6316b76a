package dev.agentdouble.junit.internal.extension;

import java.lang.management.ManagementFactory;
import java.lang.reflect.AnnotatedElement;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * When the extension ends a test's runs of the fake agent if the test is still running: when the
 * test times out, as JUnit resolves its timeout ({@code @Timeout} on the method, else on its class
 * or an enclosing class, else the {@code junit.jupiter.execution.timeout.*} defaults), or, for a
 * test without one, at the extension's own deadline. Neither when JUnit's timeouts are turned off
 * ({@code junit.jupiter.execution.timeout.mode}).
 *
 * @param after how long after the test method starts
 * @param own whether it is the extension's own deadline rather than the test's timeout
 */
public record Deadline(Duration after, boolean own) {
  /** The extension's own deadline unless configured. */
  public static final Duration DEFAULT = Duration.ofMinutes(5);

  /** The configuration parameter setting the extension's own deadline ({@code off}: none). */
  public static final String PARAMETER = "agentdouble.deadline";

  private static final String TIMEOUT = "junit.jupiter.execution.timeout.";

  /** JUnit's syntax for timeouts: a positive number, then an optional unit (seconds). */
  private static final Pattern DURATION =
      Pattern.compile(
          "([1-9]\\d*) ?((?:[nμm]?s)|m|h|d)?", Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

  /**
   * The deadline of the test of {@code context} ({@code template}: a parameterized or repeated
   * test's invocation); {@code configured} is the builder's own deadline, if it set one ({@link
   * Duration#ZERO}: none).
   */
  public static Optional<Deadline> of(
      ExtensionContext context, Optional<Duration> configured, boolean template) {
    String mode =
        context
            .getConfigurationParameter(TIMEOUT + "mode")
            .orElse("enabled")
            .strip()
            .toLowerCase(Locale.ROOT);
    if (mode.equals("disabled") || mode.equals("disabled_on_debug") && debugging()) {
      return Optional.empty();
    }
    Optional<Duration> timeout = timeout(context, template);
    if (timeout.isPresent()) {
      return Optional.of(new Deadline(timeout.get(), false));
    }
    Duration own =
        configured.orElseGet(
            () ->
                context
                    .getConfigurationParameter(PARAMETER)
                    .map(Deadline::parameter)
                    .orElse(DEFAULT));
    return own.isZero() ? Optional.empty() : Optional.of(new Deadline(own, true));
  }

  /** What happened, for a failure message: {@code "timed out after 2 s"}, or past this deadline. */
  public String describe() {
    if (own) {
      return "ran past the extension's deadline of "
          + format(after)
          + " (it has no @Timeout; "
          + "the deadline is set with AgentDoubleExtension.builder().deadline(..) or the "
          + "configuration parameter "
          + PARAMETER
          + ")";
    }
    return "timed out after " + format(after);
  }

  private static Optional<Duration> timeout(ExtensionContext context, boolean template) {
    // the method, then the contexts around it: its class, and the classes a @Nested class is in
    // (a parameterized test's invocation has its method's context around it first)
    Optional<Duration> annotated = annotated(context.getTestMethod().orElse(null));
    for (ExtensionContext c = context.getParent().orElse(null);
        annotated.isEmpty() && c != null;
        c = c.getParent().orElse(null)) {
      annotated = annotated(c.getElement().orElse(null));
    }
    if (annotated.isPresent()) {
      return annotated;
    }
    List<String> keys =
        List.of(
            TIMEOUT + (template ? "test.template.method.default" : "test.method.default"),
            TIMEOUT + "testable.method.default",
            TIMEOUT + "default");
    for (String key : keys) {
      Optional<Duration> value = context.getConfigurationParameter(key).flatMap(Deadline::parse);
      if (value.isPresent()) {
        return value;
      }
    }
    return Optional.empty();
  }

  private static Optional<Duration> annotated(AnnotatedElement element) {
    if (element == null) {
      return Optional.empty();
    }
    return AnnotationSupport.findAnnotation(element, Timeout.class)
        .filter(t -> t.value() > 0)
        .map(t -> Duration.of(t.value(), t.unit().toChronoUnit()));
  }

  private static Duration parameter(String value) {
    String v = value.strip();
    if (v.equalsIgnoreCase("off") || v.equalsIgnoreCase("none")) {
      return Duration.ZERO;
    }
    return parse(v)
        .orElseThrow(
            () ->
                new ExtensionConfigurationException(
                    "configuration "
                        + "parameter "
                        + PARAMETER
                        + "="
                        + value
                        + ": use a duration as for @Timeout defaults "
                        + "(e.g. 5 m, 90 s, 500 ms) or off"));
  }

  /** A duration in JUnit's syntax for timeouts ({@code 5}, {@code 5 s}, {@code 500 ms}, ...). */
  static Optional<Duration> parse(String text) {
    Matcher m = DURATION.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    long value = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2).toLowerCase(Locale.ROOT);
    ChronoUnit chrono =
        switch (unit) {
          case "ns" -> ChronoUnit.NANOS;
          case "μs" -> ChronoUnit.MICROS;
          case "ms" -> ChronoUnit.MILLIS;
          case "m" -> ChronoUnit.MINUTES;
          case "h" -> ChronoUnit.HOURS;
          case "d" -> ChronoUnit.DAYS;
          default -> ChronoUnit.SECONDS;
        };
    return Optional.of(Duration.of(value, chrono));
  }

  /** {@code 2 s}, {@code 5 min}, {@code 1500 ms}. */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms >= 60_000 && ms % 60_000 == 0) {
      return ms / 60_000 + " min";
    }
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
  }

  private static boolean debugging() {
    return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .anyMatch(a -> a.startsWith("-agentlib:jdwp") || a.startsWith("-Xrunjdwp"));
  }
}
