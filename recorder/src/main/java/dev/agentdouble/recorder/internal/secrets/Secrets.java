package dev.agentdouble.recorder.internal.secrets;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Literal secrets and what stands in for them, found in text in every form a JSON writer may give
 * them: as they are, escaped as JavaScript's {@code JSON.stringify} escapes them, with {@code \/}
 * for {@code /}, with non-ASCII and control characters as {@code \}{@code uXXXX} (either case),
 * with every character as {@code \}{@code uXXXX} (either case), and each of these escaped once more
 * (JSON inside a JSON string). Replacement is one left-to-right pass; where several needles start
 * at the same place the longest wins, so a secret inside another is handled, and a replacement is
 * never searched again.
 */
public final class Secrets {
  /** The marker standing in for a secret from {@code source}: {@code REDACTED:source}. */
  public static String marker(String source) {
    return "REDACTED:" + source;
  }

  /**
   * One secret.
   *
   * @param value the secret as it is
   * @param replacement what stands in its place; needs no escaping in JSON
   * @param source what the secret is, for counting, e.g. {@code CURSOR_API_KEY}
   */
  public record Secret(String value, String replacement, String source) {}

  private record Needle(String text, String replacement, String source) {}

  private final List<Secret> secrets;

  /** Needles for text as characters (decoded JSON strings, argv, header fields). */
  private final Finder chars;

  /** The same needles as UTF-8 bytes read as ISO-8859-1, for raw bytes (one char per byte). */
  private final Finder bytes;

  /** The same needles' bytes by their first byte, longest first: {@link #mayBeIn}'s table. */
  private final byte[][][] byFirstByte = new byte[256][][];

  /** Secrets in order of precedence: when two have the same value, the first one names it. */
  public Secrets(List<Secret> secrets) {
    Map<String, Secret> byValue = new LinkedHashMap<>();
    for (Secret s : secrets) {
      if (!s.value().isEmpty()) {
        byValue.putIfAbsent(s.value(), s);
      }
    }
    this.secrets = List.copyOf(byValue.values());
    Map<String, Needle> needles = new LinkedHashMap<>();
    for (Secret s : this.secrets) {
      for (String form : forms(s.value())) {
        needles.putIfAbsent(form, new Needle(form, s.replacement(), s.source()));
      }
    }
    Comparator<Needle> longestFirst =
        Comparator.comparingInt((Needle n) -> n.text().length())
            .reversed()
            .thenComparing(Needle::text);
    List<Needle> sorted = needles.values().stream().sorted(longestFirst).toList();
    this.chars = new Finder(sorted);
    this.bytes =
        new Finder(
            sorted.stream()
                .map(
                    n ->
                        new Needle(
                            Bytes.latin1(n.text()), Bytes.latin1(n.replacement()), n.source()))
                .sorted(longestFirst)
                .toList());
    Map<Integer, List<byte[]>> byFirst = new LinkedHashMap<>();
    for (Needle n : this.bytes.needles) {
      byte[] needle = n.text().getBytes(StandardCharsets.ISO_8859_1);
      byFirst.computeIfAbsent(needle[0] & 0xff, k -> new ArrayList<>()).add(needle);
    }
    byFirst.forEach((first, found) -> byFirstByte[first] = found.toArray(new byte[0][]));
  }

  public List<Secret> secrets() {
    return secrets;
  }

  public boolean isEmpty() {
    return secrets.isEmpty();
  }

  /** {@code text} with every secret replaced; each replacement counted under its source. */
  public String replace(String text, Map<String, Integer> counts) {
    return chars.replace(text, counts);
  }

  /** {@code data} with every secret replaced, byte for byte elsewhere; counted under sources. */
  public byte[] replace(byte[] data, Map<String, Integer> counts) {
    String text = Bytes.latin1(data);
    String replaced = bytes.replace(text, counts);
    return replaced == text ? data : replaced.getBytes(StandardCharsets.ISO_8859_1);
  }

  /**
   * Whether the bytes of a JSON value may hold a secret: a form of one occurs in them, or a {@code
   * \\u} or {@code \\/} escape that may hide one does. The same answer as looking for each of those
   * with {@link String#indexOf}, in one pass over the bytes.
   */
  public boolean mayBeIn(byte[] json) {
    byte[][][] table = byFirstByte;
    for (int i = 0, n = json.length; i < n; i++) {
      byte b = json[i];
      if (b == '\\' && i + 1 < n && (json[i + 1] == 'u' || json[i + 1] == '/')) {
        return true;
      }
      byte[][] candidates = table[b & 0xff];
      if (candidates != null) {
        for (byte[] needle : candidates) {
          if (Bytes.startsWith(json, i, n, needle)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Whether any form of any secret occurs in {@code data}. */
  public boolean occursIn(byte[] data) {
    return bytes.occursIn(Bytes.latin1(data));
  }

  /**
   * Where secrets occur in raw bytes, left to right, not overlapping: for redacting what a single
   * look at one frame cannot see, a secret split across two writes.
   *
   * @param start where it starts in {@code data}
   * @param end where it ends
   * @param replacement the marker's bytes
   * @param source what the secret is, for counting
   */
  public record Hit(int start, int end, byte[] replacement, String source) {}

  /** Every occurrence of a secret in {@code data}, as {@link #replace(byte[], Map)} finds them. */
  public List<Hit> hitsIn(byte[] data) {
    List<Hit> hits = new ArrayList<>();
    bytes.find(
        Bytes.latin1(data),
        (at, n) -> {
          hits.add(
              new Hit(
                  at,
                  at + n.text().length(),
                  n.replacement().getBytes(StandardCharsets.ISO_8859_1),
                  n.source()));
          return true;
        });
    return hits;
  }

  /** The longest secret in any form, in UTF-8 bytes; 0 without secrets. */
  public int longestInBytes() {
    return bytes.needles.stream().mapToInt(n -> n.text().length()).max().orElse(0);
  }

  /** Told of each needle found, in order; returns whether to go on looking. */
  @FunctionalInterface
  private interface Found {
    boolean at(int start, Needle needle);
  }

  /**
   * Finds needles in text, left to right: the earliest occurrence, and where several start at the
   * same place the longest; the search goes on after it. With a few needles each is searched with
   * {@link String#indexOf}; with more (a user pattern may match hundreds of values) one pass of a
   * rolling hash over the text looks them all up at once, so the time does not grow with their
   * number.
   */
  private static final class Finder {
    private static final int FEW = 8;
    private static final long BASE = 1_000_003L;

    private final List<Needle> needles;

    /** The shortest needle's length: the window the rolling hash covers. */
    private final int width;

    /** {@code BASE} to the power {@code width - 1}, to roll the window on. */
    private final long top;

    /** Needles by the hash of their first {@code width} chars, longest first; null when few. */
    private final Needle[][] table;

    private final int mask;

    Finder(List<Needle> needles) {
      this.needles = needles;
      this.width = needles.stream().mapToInt(n -> n.text().length()).min().orElse(1);
      long t = 1;
      for (int k = 1; k < width; k++) {
        t *= BASE;
      }
      this.top = t;
      if (needles.size() <= FEW) {
        this.table = null;
        this.mask = 0;
        return;
      }
      int size = Integer.highestOneBit(needles.size() * 4 - 1) << 1;
      this.mask = size - 1;
      List<List<Needle>> buckets = new ArrayList<>();
      for (int k = 0; k < size; k++) {
        buckets.add(null);
      }
      for (Needle n : needles) { // longest first, and so kept in each bucket
        int slot = slot(hash(n.text(), 0));
        if (buckets.get(slot) == null) {
          buckets.set(slot, new ArrayList<>(1));
        }
        buckets.get(slot).add(n);
      }
      this.table = new Needle[size][];
      for (int k = 0; k < size; k++) {
        if (buckets.get(k) != null) {
          table[k] = buckets.get(k).toArray(new Needle[0]);
        }
      }
    }

    private long hash(String text, int from) {
      long h = 0;
      for (int k = 0; k < width; k++) {
        h = h * BASE + text.charAt(from + k);
      }
      return h;
    }

    private int slot(long h) {
      return (int) (h ^ (h >>> 29) ^ (h >>> 43)) & mask;
    }

    boolean occursIn(String text) {
      boolean[] any = {false};
      find(
          text,
          (at, n) -> {
            any[0] = true;
            return false;
          });
      return any[0];
    }

    /** {@code text} with the needles replaced, each counted under its source. */
    String replace(String text, Map<String, Integer> counts) {
      StringBuilder out = new StringBuilder();
      int[] copied = {0};
      find(
          text,
          (at, n) -> {
            out.append(text, copied[0], at).append(n.replacement());
            copied[0] = at + n.text().length();
            counts.merge(n.source(), 1, Integer::sum);
            return true;
          });
      return copied[0] == 0 && out.length() == 0
          ? text
          : out.append(text, copied[0], text.length()).toString();
    }

    void find(String text, Found found) {
      if (needles.isEmpty() || text.length() < width) {
        return;
      }
      if (table == null) {
        findEach(text, found);
      } else {
        findHashed(text, found);
      }
    }

    private void findHashed(String text, Found found) {
      int n = text.length();
      int i = 0;
      long h = hash(text, 0);
      while (true) {
        Needle match = null;
        Needle[] bucket = table[slot(h)];
        if (bucket != null) {
          for (Needle candidate : bucket) {
            if (text.startsWith(candidate.text(), i)) {
              match = candidate;
              break;
            }
          }
        }
        if (match != null) {
          if (!found.at(i, match)) {
            return;
          }
          i += match.text().length();
          if (i + width > n) {
            return;
          }
          h = hash(text, i);
        } else {
          if (i + width >= n) {
            return;
          }
          h = (h - text.charAt(i) * top) * BASE + text.charAt(i + width);
          i++;
        }
      }
    }

    private void findEach(String text, Found found) {
      // where each needle occurs next, from the current position; -1 when it no longer does
      int[] next = new int[needles.size()];
      for (int j = 0; j < next.length; j++) {
        next[j] = text.indexOf(needles.get(j).text());
      }
      int pos = 0;
      while (true) {
        int best = -1;
        for (int j = 0; j < next.length; j++) {
          if (next[j] >= 0 && next[j] < pos) {
            next[j] = text.indexOf(needles.get(j).text(), pos);
          }
          // needles are longest first: a later one wins only by starting strictly earlier
          if (next[j] >= 0 && (best < 0 || next[j] < next[best])) {
            best = j;
          }
        }
        if (best < 0) {
          return;
        }
        Needle n = needles.get(best);
        if (!found.at(next[best], n)) {
          return;
        }
        pos = next[best] + n.text().length();
      }
    }
  }

  /** The forms a secret may take in text that went through JSON writers once or twice. */
  static Set<String> forms(String secret) {
    Set<String> once = new LinkedHashSet<>(escapes(secret));
    once.add(unicodeEscaped(secret, false));
    once.add(unicodeEscaped(secret, true));
    Set<String> all = new LinkedHashSet<>();
    all.add(secret);
    all.addAll(once);
    all.addAll(escapes(escape(secret, false, false, false)));
    all.add(escape(unicodeEscaped(secret, false), false, false, false));
    all.add(escape(unicodeEscaped(secret, true), false, false, false));
    all.removeIf(String::isEmpty);
    return all;
  }

  /**
   * {@code s} with every character as a {@code \}{@code uXXXX} escape (a character outside the BMP
   * as its two surrogates), as a writer that escapes everything gives it.
   */
  static String unicodeEscaped(String s, boolean upper) {
    StringBuilder sb = new StringBuilder(s.length() * 6);
    for (int i = 0; i < s.length(); i++) {
      String hex = String.format("%04x", (int) s.charAt(i));
      sb.append("\\u").append(upper ? hex.toUpperCase(Locale.ROOT) : hex);
    }
    return sb.toString();
  }

  private static List<String> escapes(String s) {
    List<String> forms = new ArrayList<>();
    for (boolean slash : new boolean[] {false, true}) {
      forms.add(escape(s, slash, false, false));
      forms.add(escape(s, slash, true, false));
      forms.add(escape(s, slash, true, true));
    }
    return forms;
  }

  /**
   * {@code s} as the inside of a JSON string: as {@link JsonText#quote} writes it, optionally with
   * {@code \/}, optionally with every non-ASCII character as a {@code \}{@code u} escape,
   * optionally with upper-case hex digits.
   */
  static String escape(String s, boolean slash, boolean ascii, boolean upper) {
    String quoted = JsonText.quote(s);
    String inner = quoted.substring(1, quoted.length() - 1);
    StringBuilder sb = new StringBuilder(inner.length());
    for (int i = 0; i < inner.length(); i++) {
      char c = inner.charAt(i);
      if (c == '\\') {
        char e = inner.charAt(i + 1);
        if (e == 'u') {
          String hex = inner.substring(i + 2, i + 6);
          sb.append("\\u").append(upper ? hex.toUpperCase(Locale.ROOT) : hex);
          i += 5;
        } else {
          sb.append(c).append(e);
          i++;
        }
      } else if (c == '/' && slash) {
        sb.append("\\/");
      } else if (c >= 0x7f && ascii) {
        String hex = String.format("%04x", (int) c);
        sb.append("\\u").append(upper ? hex.toUpperCase(Locale.ROOT) : hex);
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
