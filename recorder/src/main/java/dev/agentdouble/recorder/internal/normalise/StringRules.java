package dev.agentdouble.recorder.internal.normalise;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The fake agent's string variables ({@code sessionId}: a JSON string equal to it; {@code cwd},
 * {@code home}: equal to it or starting with it followed by {@code /}, the longer variable winning)
 * applied from one set of values to another, on JSON string tokens exactly as the fake matches them
 * at replay: on the bytes as {@code JSON.stringify} escapes the value. Normalising with these rules
 * and replaying with the reverse ones gives back every string.
 */
final class StringRules {
  private record Rule(
      String from, String needle, String to, String toInner, boolean prefix, byte[] needleBytes) {}

  private final List<Rule> rules = new ArrayList<>();

  /** A JSON string equal to {@code from} becomes {@code to}. */
  public StringRules exact(String from, String to) {
    return add(from, to, false);
  }

  /** A JSON string equal to {@code from}, or starting with {@code from + "/"}, gets {@code to}. */
  public StringRules prefix(String from, String to) {
    return add(from, to, true);
  }

  private StringRules add(String from, String to, boolean prefix) {
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
    rules.add(
        new Rule(
            from,
            needle,
            to,
            inner.substring(1, inner.length() - 1),
            prefix,
            needle.getBytes(StandardCharsets.UTF_8)));
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

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The rules the other way round: {@code to} back to {@code from}, in the same order. */
  public StringRules reversed() {
    StringRules r = new StringRules();
    for (Rule rule : rules) {
      r.add(rule.to(), rule.from(), rule.prefix());
    }
    return r;
  }

  /**
   * The token with the value replaced, when a rule matches {@code raw}, one JSON string token as
   * written (quotes included).
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
    if (best == null) {
      return Optional.empty();
    }
    return Optional.of('"' + best.toInner() + raw.substring(best.needle().length()));
  }

  /**
   * Whether some rule's value starts the JSON string token {@code json[start, end)}: a cheap
   * pre-check that makes no string.
   */
  public boolean mayMatch(byte[] json, int start, int end) {
    for (Rule rule : rules) {
      if (Bytes.startsWith(json, start, end, rule.needleBytes())) {
        return true;
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
