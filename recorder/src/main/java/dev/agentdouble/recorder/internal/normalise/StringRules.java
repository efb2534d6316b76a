package dev.agentdouble.recorder.internal.normalise;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The fake agent's string variables ({@code sessionId}: a JSON string equal to it; {@code cwd},
 * {@code home}: equal to it or starting with it followed by {@code /}, the longer variable winning;
 * a Claude Code tape's {@code cwd} also inside a string where it stands as a path, {@link #path})
 * applied from one set of values to another, on JSON string tokens exactly as the fake matches them
 * at replay: on the bytes as {@code JSON.stringify} escapes the value. Normalising with these rules
 * and replaying with the reverse ones gives back every string.
 */
final class StringRules {
  /**
   * One rule: {@code needle} is {@code "} and {@code from}'s escaped bytes, {@code inner} the
   * escaped bytes alone, looked for inside a string when {@code inText}.
   */
  private record Rule(
      String from,
      String needle,
      String to,
      String toInner,
      boolean prefix,
      boolean inText,
      byte[] needleBytes,
      byte[] innerBytes) {
    String inner() {
      return needle.substring(1);
    }
  }

  private final List<Rule> rules = new ArrayList<>();

  private boolean inText;

  /** A JSON string equal to {@code from} becomes {@code to}. */
  public StringRules exact(String from, String to) {
    return add(from, to, false, false);
  }

  /** A JSON string equal to {@code from}, or starting with {@code from + "/"}, gets {@code to}. */
  public StringRules prefix(String from, String to) {
    return add(from, to, true, false);
  }

  /**
   * As {@link #prefix}, and {@code from} (absolute, not {@code /}) gets {@code to} inside a string
   * too where it stands as a path, as the fake substitutes a Claude Code tape's {@code cwd}: after
   * the string's opening quote, a space, {@code '} or {@code (}, and before the string's end,
   * {@code /}, a space, {@code '} or {@code )} (docs/tape-format.md, §4).
   */
  public StringRules path(String from, String to) {
    return add(from, to, true, absolute(from));
  }

  /** Whether {@code folder} can be a {@link #path} rule's: absolute and not {@code /}. */
  private static boolean absolute(String folder) {
    return folder.length() > 1 && folder.charAt(0) == '/';
  }

  private StringRules add(String from, String to, boolean prefix, boolean inText) {
    if (from.isEmpty() || from.equals(to)) {
      return this;
    }
    String quoted = JsonText.quote(from);
    char first = quoted.charAt(1);
    if (first == ',' || first == ':' || first == ']' || first == '}' || first <= ' ') {
      return this; // the fake does not substitute such a value either
    }
    String inner = JsonText.quote(to);
    String needle = quoted.substring(0, quoted.length() - 1);
    byte[] needleBytes = needle.getBytes(StandardCharsets.UTF_8);
    rules.add(
        new Rule(
            from,
            needle,
            to,
            inner.substring(1, inner.length() - 1),
            prefix,
            inText,
            needleBytes,
            Arrays.copyOfRange(needleBytes, 1, needleBytes.length)));
    this.inText |= inText;
    return this;
  }

  /**
   * How a JSON string starting with {@code value} starts: {@code "} and the value's escaped bytes,
   * the needle a rule from {@code value} looks for ({@link #needles}).
   */
  static byte[] needle(String value) {
    String quoted = JsonText.quote(value);
    return quoted.substring(0, quoted.length() - 1).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * How {@code value} stands inside a string: its escaped bytes, the needle a {@link #path} rule
   * from {@code value} looks for after a space, {@code '} or {@code (} ({@link #inTextNeedles}).
   */
  static byte[] inner(String value) {
    byte[] needle = needle(value);
    return Arrays.copyOfRange(needle, 1, needle.length);
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The rules the other way round: {@code to} back to {@code from}, in the same order. */
  public StringRules reversed() {
    StringRules r = new StringRules();
    for (Rule rule : rules) {
      r.add(rule.to(), rule.from(), rule.prefix(), rule.inText() && absolute(rule.to()));
    }
    return r;
  }

  /**
   * The token with the value replaced, when a rule matches {@code raw}, one JSON string token as
   * written (quotes included): a whole-string rule at its start, else a {@link #path} rule there;
   * then each {@link #path} rule's value further on, from left to right, as the fake scans a line.
   */
  public Optional<String> applyRaw(String raw) {
    Rule best = null;
    for (Rule rule : rules) {
      int after = rule.needle().length();
      if (raw.length() > after
          && raw.startsWith(rule.needle())
          && (raw.charAt(after) == '"' || (rule.prefix() && raw.charAt(after) == '/'))
          && (best == null || rule.needle().length() > best.needle().length())) {
        best = rule;
      }
    }
    if (!inText) {
      return best == null
          ? Optional.empty()
          : Optional.of('"' + best.toInner() + raw.substring(best.needle().length()));
    }
    StringBuilder sb = null;
    int done = 0;
    if (best != null) {
      sb = new StringBuilder(raw.length() + 16).append('"').append(best.toInner());
      done = best.needle().length();
    }
    // i: where a path may start, after the opening quote (when no whole-string rule took it) or
    // after a space, ' or (
    for (int i = best == null ? 1 : done; i < raw.length(); i++) {
      char before = raw.charAt(i - 1);
      if (i > 1 && before != ' ' && before != '\'' && before != '(') {
        continue;
      }
      Rule rule = pathAt(raw, i);
      if (rule != null) {
        if (sb == null) {
          sb = new StringBuilder(raw.length() + 16);
        }
        sb.append(raw, done, i).append(rule.toInner());
        done = i + rule.inner().length();
        i = done; // the character after the path may start the next one
      }
    }
    return sb == null
        ? Optional.empty()
        : Optional.of(sb.append(raw, done, raw.length()).toString());
  }

  /**
   * The {@link #path} rule whose value stands at {@code raw[at]} followed by the string's end,
   * {@code /}, a space, {@code '} or {@code )}, else null.
   */
  private Rule pathAt(String raw, int at) {
    for (Rule rule : rules) {
      if (!rule.inText()) {
        continue;
      }
      String inner = rule.inner();
      int after = at + inner.length();
      if (after < raw.length() && raw.startsWith(inner, at) && endsPath(raw.charAt(after))) {
        return rule;
      }
    }
    return null;
  }

  private static boolean endsPath(char c) {
    return c == '"' || c == '/' || c == ' ' || c == '\'' || c == ')';
  }

  private static boolean startsPath(byte b) {
    return b == ' ' || b == '\'' || b == '(';
  }

  /**
   * Whether some rule's value starts the JSON string token {@code json[start, end)}, or a {@link
   * #path} rule's value follows a space, {@code '} or {@code (} in it: a cheap pre-check that makes
   * no string.
   */
  public boolean mayMatch(byte[] json, int start, int end) {
    for (Rule rule : rules) {
      if (Bytes.startsWith(json, start, end, rule.needleBytes())) {
        return true;
      }
    }
    if (inText) {
      for (int i = start + 1; i < end; i++) {
        if (startsPath(json[i])) {
          for (Rule rule : rules) {
            if (rule.inText() && Bytes.startsWith(json, i + 1, end, rule.innerBytes())) {
              return true;
            }
          }
        }
      }
    }
    return false;
  }

  /**
   * The values the rules look for, as they start a JSON string ({@code "} and the value's escaped
   * bytes); with {@code exact} false, only those of prefix rules.
   */
  public List<byte[]> needles(boolean exact) {
    List<byte[]> needles = new ArrayList<>();
    for (Rule rule : rules) {
      if (exact || rule.prefix()) {
        needles.add(rule.needleBytes());
      }
    }
    return needles;
  }

  /** The values {@link #path} rules look for inside a string: their escaped bytes. */
  public List<byte[]> inTextNeedles() {
    List<byte[]> needles = new ArrayList<>();
    for (Rule rule : rules) {
      if (rule.inText()) {
        needles.add(rule.innerBytes());
      }
    }
    return needles;
  }

  /**
   * Whether one of {@code inners} ({@link #inner}) follows a space, {@code '} or {@code (} in
   * {@code json}: one pass, looking closer only at those.
   */
  public static boolean mayOccurInText(byte[] json, List<byte[]> inners) {
    if (inners.isEmpty()) {
      return false;
    }
    for (int i = 0; i < json.length; i++) {
      if (startsPath(json[i]) && inTextAt(json, i + 1, inners)) {
        return true;
      }
    }
    return false;
  }

  /** Whether one of {@code inners} starts at {@code json[at]}. */
  static boolean inTextAt(byte[] json, int at, List<byte[]> inners) {
    for (byte[] inner : inners) {
      if (Bytes.startsWith(json, at, json.length, inner)) {
        return true;
      }
    }
    return false;
  }

  /** Whether a JSON string in {@code json} may start with one of {@code needles}: one pass. */
  public static boolean mayOccurIn(byte[] json, List<byte[]> needles) {
    if (needles.isEmpty()) {
      return false;
    }
    for (int i = 0; i < json.length; i++) {
      if (json[i] == '"') {
        for (byte[] needle : needles) {
          if (Bytes.startsWith(json, i, json.length, needle)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** {@code text} (not JSON) with the value replaced when a rule matches it, the same rules. */
  public String applyText(String text) {
    Rule best = null;
    for (Rule rule : rules) {
      String from = rule.from();
      boolean match =
          text.equals(from)
              || (rule.prefix() && text.startsWith(from) && text.charAt(from.length()) == '/');
      if (match && (best == null || from.length() > best.from().length())) {
        best = rule;
      }
    }
    return best == null ? text : best.to() + text.substring(best.from().length());
  }
}
