package dev.agentdouble.recorder.internal.normalise;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An ISO-8601 UTC time as Claude Code writes its lines' {@code timestamp} ({@code
 * 2026-07-26T15:03:12.345Z}, as JavaScript's {@code toISOString}), read and moved keeping its
 * shape: as many fraction digits as it had.
 */
final class IsoTime {
  private static final Pattern SHAPE =
      Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.([0-9]{1,9}))?Z");

  private IsoTime() {}

  /** The epoch milliseconds of {@code text}, when it is such a time. */
  static Optional<Long> epochMs(String text) {
    return instant(text).map(Instant::toEpochMilli);
  }

  /** {@code text} moved by {@code ms}, in its own shape; empty when it is not such a time. */
  static Optional<String> shift(String text, long ms) {
    Matcher m = SHAPE.matcher(text);
    Optional<Instant> at = instant(text);
    if (at.isEmpty() || !m.matches()) {
      return Optional.empty();
    }
    int digits = m.group(2) == null ? 0 : m.group(2).length();
    String pattern =
        "yyyy-MM-dd'T'HH:mm:ss" + (digits == 0 ? "" : "." + "S".repeat(digits)) + "'Z'";
    Instant moved = at.get().plusMillis(ms);
    if (moved.isBefore(Instant.EPOCH) || moved.getEpochSecond() > 253_402_300_799L) {
      return Optional.empty(); // outside years 1970 to 9999: not a shape kept
    }
    return Optional.of(DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC).format(moved));
  }

  private static Optional<Instant> instant(String text) {
    if (!SHAPE.matcher(text).matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
