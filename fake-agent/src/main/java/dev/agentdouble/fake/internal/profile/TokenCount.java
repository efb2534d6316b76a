package dev.agentdouble.fake.internal.profile;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A count of tokens as Claude Code reads it ({@code --autocompact}): {@code word} in any case with
 * blanks around, or a number of at least {@code minimum}, written bare ({@code 200000}, {@code
 * 1e6}, {@code 1,000,000}), with {@code k} or {@code m} after it ({@code 500k}, {@code 1.5M}), or
 * from 100 to 1000 as thousands ({@code 200}); refused with {@code message}.
 */
public record TokenCount(String word, long minimum, String message) implements CliOption.ValueRule {
  private static final double MAX_SAFE = 9007199254740991d;

  @Override
  public boolean accepts(String value) {
    if (CliOption.jsTrim(value).toLowerCase(Locale.ROOT).equals(word)) {
      return true;
    }
    String r = CliOption.jsTrim(value);
    char last = r.isEmpty() ? ' ' : Character.toLowerCase(r.charAt(r.length() - 1));
    double scale = last == 'm' ? 1e6 : last == 'k' ? 1000 : 0;
    double y = scale != 0 ? jsParseFloat(r) * scale : bare(r);
    double n = scale == 0 && y >= 100 && y <= 1000 ? y * 1000 : y;
    double rounded = Math.floor(n + 0.5);
    if (Double.isNaN(rounded) || Math.abs(rounded) > MAX_SAFE || n < 1) {
      return false;
    }
    return n >= minimum;
  }

  /**
   * A bare number: {@code 1e6} when whole (a fraction is no number), {@code 1,000,000} with one
   * separator of {@code _ , U+00A0 U+202F} or a blank, else JavaScript's {@code parseInt(r, 10)}.
   */
  private static double bare(String r) {
    if (r.length() <= 32) {
      if (Patterns.EXPONENT.matcher(r).matches()) {
        double n = Double.parseDouble(r);
        return n == Math.rint(n) ? n : Double.NaN;
      }
      if (Patterns.GROUPED.matcher(r).matches()) {
        return jsParseInt(r.replaceAll("[_,\\u00A0\\u202F ]", ""));
      }
    }
    return jsParseInt(r);
  }

  /** The patterns, compiled when a count is first read, not at every start-up. */
  private static final class Patterns {
    static final Pattern EXPONENT = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)[eE][+-]?\\d+");
    static final Pattern GROUPED =
        Pattern.compile("[+-]?\\d{1,3}([_,\\u00A0\\u202F ])\\d{3}(?:\\1\\d{3})*");
    static final Pattern FLOAT =
        Pattern.compile("[+-]?(Infinity|(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?)");
  }

  /** JavaScript's {@code parseInt(s, 10)}: blanks, a sign, the digits that lead; else NaN. */
  private static double jsParseInt(String s) {
    String t = CliOption.jsTrim(s);
    int i = 0;
    boolean negative = false;
    if (i < t.length() && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
      negative = t.charAt(i) == '-';
      i++;
    }
    int start = i;
    while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
      i++;
    }
    if (i == start) {
      return Double.NaN;
    }
    double n = Double.parseDouble(t.substring(start, i));
    return negative ? -n : n;
  }

  /** JavaScript's {@code parseFloat(s)}: the longest decimal that leads, after blanks; else NaN. */
  private static double jsParseFloat(String s) {
    Matcher m = Patterns.FLOAT.matcher(CliOption.jsTrim(s));
    if (!m.lookingAt()) {
      return Double.NaN;
    }
    String found = m.group();
    if (found.endsWith("Infinity")) {
      return found.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    return Double.parseDouble(found);
  }
}
