package dev.agentdouble.fake.internal.run;

/**
 * An ISO-8601 UTC time as Claude Code writes its lines' {@code timestamp} ({@code
 * 2026-07-26T15:03:12.345Z}, JavaScript's {@code toISOString}), moved by milliseconds on its
 * digits: a replay pays its start-up every run, and {@code java.time} would load some hundred
 * classes. The shape is kept as the recorder's rebase keeps it: as many fraction digits (none to
 * nine) as it had, the moved time cut to them; years 1970 to 9999 only.
 */
final class IsoDigits {
  /** 9999-12-31T23:59:59Z, epoch seconds. */
  private static final long MAX_SECOND = 253_402_300_799L;

  private static final long[] POW10 = {
    1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L, 100_000_000L, 1_000_000_000L
  };

  private IsoDigits() {}

  /**
   * {@code buf[from, to)}, the text of a JSON string, moved by {@code ms} in its own shape (as many
   * bytes); null when it is no such time, or the moved one is outside the years 1970 to 9999.
   */
  static byte[] shift(byte[] buf, int from, int to, long ms) {
    int len = to - from;
    if (len < 20 || len == 21 || len > 30 || !separators(buf, from, to)) {
      return null;
    }
    int fraction = len == 20 ? 0 : len - 21;
    long year = number(buf, from, 4);
    long month = number(buf, from + 5, 2);
    long day = number(buf, from + 8, 2);
    long hour = number(buf, from + 11, 2);
    long minute = number(buf, from + 14, 2);
    long second = number(buf, from + 17, 2);
    long nanos = fraction == 0 ? 0 : number(buf, from + 20, fraction);
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || day > lengthOfMonth(year, month)
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59
        || nanos < 0) {
      return null;
    }
    nanos = nanos * POW10[9 - fraction] + Math.floorMod(ms, 1000L) * 1_000_000L;
    long epochSecond =
        epochDay(year, month, day) * 86_400L
            + hour * 3_600L
            + minute * 60L
            + second
            + Math.floorDiv(ms, 1000L)
            + nanos / 1_000_000_000L;
    nanos %= 1_000_000_000L;
    if (epochSecond < 0 || epochSecond > MAX_SECOND) {
      return null;
    }
    byte[] out = new byte[len];
    System.arraycopy(buf, from, out, 0, len); // the separators
    long days = epochSecond / 86_400L;
    long secondOfDay = epochSecond % 86_400L;
    // the civil date of an epoch day (Howard Hinnant's civil_from_days), for days from 1970
    long z = days + 719_468L;
    long era = z / 146_097L;
    long dayOfEra = z - era * 146_097L;
    long yearOfEra =
        (dayOfEra - dayOfEra / 1_460L + dayOfEra / 36_524L - dayOfEra / 146_096L) / 365L;
    long dayOfYear = dayOfEra - (365L * yearOfEra + yearOfEra / 4L - yearOfEra / 100L);
    long mp = (5L * dayOfYear + 2L) / 153L;
    long movedMonth = mp < 10 ? mp + 3 : mp - 9;
    put(out, 0, yearOfEra + era * 400L + (movedMonth <= 2 ? 1 : 0), 4);
    put(out, 5, movedMonth, 2);
    put(out, 8, dayOfYear - (153L * mp + 2L) / 5L + 1L, 2);
    put(out, 11, secondOfDay / 3_600L, 2);
    put(out, 14, secondOfDay / 60L % 60L, 2);
    put(out, 17, secondOfDay % 60L, 2);
    if (fraction > 0) {
      put(out, 20, nanos / POW10[9 - fraction], fraction);
    }
    return out;
  }

  /** Whether the bytes between the digits are {@code --T::} and {@code Z} (and {@code .}). */
  private static boolean separators(byte[] buf, int from, int to) {
    return buf[from + 4] == '-'
        && buf[from + 7] == '-'
        && buf[from + 10] == 'T'
        && buf[from + 13] == ':'
        && buf[from + 16] == ':'
        && (to - from == 20 || buf[from + 19] == '.')
        && buf[to - 1] == 'Z';
  }

  /** The number {@code count} decimal digits at {@code at} spell; -1 when one is no digit. */
  private static long number(byte[] buf, int at, int count) {
    long value = 0;
    for (int k = at; k < at + count; k++) {
      if (buf[k] < '0' || buf[k] > '9') {
        return -1;
      }
      value = value * 10 + (buf[k] - '0');
    }
    return value;
  }

  private static void put(byte[] out, int at, long value, int count) {
    for (int k = at + count - 1; k >= at; k--) {
      out[k] = (byte) ('0' + value % 10);
      value /= 10;
    }
  }

  private static long lengthOfMonth(long year, long month) {
    if (month == 2) {
      return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
    }
    return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
  }

  /** The epoch day of a civil date (Howard Hinnant's days_from_civil), for years 0 to 9999. */
  private static long epochDay(long year, long month, long day) {
    long y = month <= 2 ? year - 1 : year;
    long era = Math.floorDiv(y, 400L);
    long yearOfEra = y - era * 400L;
    long dayOfYear = (153L * (month > 2 ? month - 3 : month + 9) + 2L) / 5L + day - 1L;
    long dayOfEra = yearOfEra * 365L + yearOfEra / 4L - yearOfEra / 100L + dayOfYear;
    return era * 146_097L + dayOfEra - 719_468L;
  }
}
