package dev.agentdouble.fake.internal.profile;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a value must be, or commander's parse refuses it: {@code error: option '<flags>' argument
 * '<value>' is invalid. <message>}.
 */
public sealed interface ValueRule permits ValueRule.NumberRule, ValueRule.TokenCount {
  /** Whether {@code value} passes. */
  boolean accepts(String value);

  /** What the refusal says after {@code is invalid. }. */
  String message();

  /**
   * A value read as JavaScript's {@code Number(value)} reads it, refused with {@code message} when
   * that is not a number ({@code NaN}), or, when {@code positive}, not greater than 0.
   */
  record NumberRule(boolean positive, String message) implements ValueRule {
    /** Whether {@code value} passes: a number, and greater than 0 when it must be positive. */
    @Override
    public boolean accepts(String value) {
      double n = jsNumber(value);
      return !Double.isNaN(n) && (!positive || n > 0);
    }

    /**
     * JavaScript's {@code Number(string)}: blanks around are ignored, an empty string is 0, {@code
     * Infinity} with a sign, {@code 0x}/{@code 0o}/{@code 0b} integers, decimals with an exponent;
     * anything else is NaN (no regex: this runs at start-up).
     */
    static double jsNumber(String value) {
      String s = value.strip();
      if (s.isEmpty()) {
        return 0;
      }
      String unsigned = s.charAt(0) == '+' || s.charAt(0) == '-' ? s.substring(1) : s;
      if (unsigned.equals("Infinity")) {
        return s.charAt(0) == '-' ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      }
      if (s.length() > 2 && s.charAt(0) == '0') {
        int radix =
            switch (s.charAt(1)) {
              case 'x', 'X' -> 16;
              case 'o', 'O' -> 8;
              case 'b', 'B' -> 2;
              default -> 0;
            };
        if (radix != 0) {
          double n = 0;
          for (int i = 2; i < s.length(); i++) {
            int digit = Character.digit(s.charAt(i), radix);
            if (digit < 0) {
              return Double.NaN;
            }
            n = n * radix + digit;
          }
          return n;
        }
      }
      int i = 0;
      int digits = 0;
      while (i < unsigned.length() && Character.isDigit(unsigned.charAt(i))) {
        i++;
        digits++;
      }
      if (i < unsigned.length() && unsigned.charAt(i) == '.') {
        i++;
        while (i < unsigned.length() && Character.isDigit(unsigned.charAt(i))) {
          i++;
          digits++;
        }
      }
      if (digits == 0) {
        return Double.NaN;
      }
      if (i < unsigned.length() && (unsigned.charAt(i) == 'e' || unsigned.charAt(i) == 'E')) {
        int e = i + 1;
        if (e < unsigned.length() && (unsigned.charAt(e) == '+' || unsigned.charAt(e) == '-')) {
          e++;
        }
        int start = e;
        while (e < unsigned.length() && Character.isDigit(unsigned.charAt(e))) {
          e++;
        }
        if (e == start) {
          return Double.NaN;
        }
        i = e;
      }
      if (i != unsigned.length()) {
        return Double.NaN;
      }
      return Double.parseDouble(s);
    }
  }

  /**
   * A count of tokens as Claude Code reads it ({@code --autocompact}): {@code word} in any case
   * with blanks around, or a number of at least {@code minimum}, written bare ({@code 200000},
   * {@code 1e6}, {@code 1,000,000}), with {@code k} or {@code m} after it ({@code 500k}, {@code
   * 1.5M}), or from 100 to 1000 as thousands ({@code 200}); refused with {@code message}.
   */
  record TokenCount(String word, long minimum, String message) implements ValueRule {
    private static final double MAX_SAFE = 9007199254740991d;

    @Override
    public boolean accepts(String value) {
      if (ValueRule.jsTrim(value).toLowerCase(Locale.ROOT).equals(word)) {
        return true;
      }
      String r = ValueRule.jsTrim(value);
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
      String t = ValueRule.jsTrim(s);
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

    /**
     * JavaScript's {@code parseFloat(s)}: the longest decimal that leads, after blanks; else NaN.
     */
    private static double jsParseFloat(String s) {
      Matcher m = Patterns.FLOAT.matcher(ValueRule.jsTrim(s));
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

  /**
   * JavaScript's {@code String.prototype.trim}: what it strips is its WhiteSpace and
   * LineTerminator, not Java's {@code strip} set (no U+001C..U+001F, but U+FEFF and U+00A0).
   */
  static String jsTrim(String value) {
    int start = 0;
    int end = value.length();
    while (start < end && jsBlank(value.charAt(start))) {
      start++;
    }
    while (end > start && jsBlank(value.charAt(end - 1))) {
      end--;
    }
    return value.substring(start, end);
  }

  private static boolean jsBlank(char c) {
    return c == '\t'
        || c == '\n'
        || c == 0x0B
        || c == '\f'
        || c == '\r'
        || c == ' '
        || c == 0xA0
        || c == 0xFEFF
        || c == 0x2028
        || c == 0x2029
        || Character.getType(c) == Character.SPACE_SEPARATOR;
  }
}
