package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.JsonWalk;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.HeaderCodec;
import dev.agentdouble.tape.Tape;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A readable comparison of two tapes: header fields, then frames aligned by their longest common
 * subsequence (equal runs at both ends first; index by index when what is left is very large), so
 * an added or removed frame shows as such. A removed frame and an added one of the same kind (and
 * event type) in the same place show as one changed frame, with each JSON path that differs. Timing
 * is ignored unless asked for: see {@link #TIMING_FIELDS}.
 *
 * <p>Events are compared where they lie ({@link JsonSlice}), without a JSON library: values of any
 * size, events with a key twice (the first counts), and nesting of any depth (below {@link
 * #MAX_DEPTH} levels a difference is shown as the differing value whole).
 */
final class TapeDiff {
  /** Event fields that hold timing, ignored with frame times unless timing is compared. */
  public static final Set<String> TIMING_FIELDS =
      Set.of(
          "timestamp_ms",
          "startedAtMs",
          "completedAtMs",
          "duration_ms",
          "duration_api_ms",
          "executionTime");

  /** Above this many cells the middle of two tapes is aligned index by index. */
  private static final long MAX_CELLS = 4_000_000;

  private static final int SHORT = 72;

  /** How deep paths are followed; deeper values are compared and shown whole. */
  static final int MAX_DEPTH = 64;

  /**
   * The comparison.
   *
   * @param lines the report, one line each, without newlines; empty when the tapes are the same
   * @param headerFields header fields that differ
   * @param changed frames changed in place
   * @param removed frames only in the first tape
   * @param added frames only in the second tape
   */
  public record Result(List<String> lines, int headerFields, int changed, int removed, int added) {
    public boolean same() {
      return headerFields == 0 && changed == 0 && removed == 0 && added == 0;
    }
  }

  private final boolean timing;
  private final List<String> lines = new ArrayList<>();
  private int changed;
  private int removed;
  private int added;

  private TapeDiff(boolean timing) {
    this.timing = timing;
  }

  /** Compares {@code a} with {@code b}; timing too when {@code timing}. */
  public static Result compare(Tape a, Tape b, boolean timing) {
    return new TapeDiff(timing).run(a, b);
  }

  private Result run(Tape a, Tape b) {
    List<String> header = new ArrayList<>();
    // the header's timing: when it was recorded, the epoch its timestamps start from
    paths(
        "",
        headerValue(a.header()),
        headerValue(b.header()),
        header,
        timing ? Set.of() : Set.of("recordedAt", "vars.epochMs"));
    if (!header.isEmpty()) {
      lines.add("header");
      header.forEach(l -> lines.add("  " + l));
    }
    List<Key> x = a.frames().stream().map(this::key).toList();
    List<Key> y = b.frames().stream().map(this::key).toList();
    List<int[]> ops = align(x, y);
    // between equal frames: removed frames of A, then added frames of B
    List<Integer> gone = new ArrayList<>();
    List<Integer> come = new ArrayList<>();
    for (int[] op : ops) {
      if (op[0] >= 0 && op[1] >= 0) {
        flush(a, b, x, y, gone, come);
      } else if (op[0] >= 0) {
        gone.add(op[0]);
      } else {
        come.add(op[1]);
      }
    }
    flush(a, b, x, y, gone, come);
    return new Result(List.copyOf(lines), header.size(), changed, removed, added);
  }

  /** A frame as compared: its kind and label, its content (timing masked), its time. */
  private record Key(String kind, String label, String content, long t) {}

  private Key key(Frame f) {
    long t = timing ? f.t() : -1;
    if (f instanceof Frame.Out out) {
      return new Key("out", "out " + eventType(out.json()), maskTiming(out.json()), t);
    }
    if (f instanceof Frame.In in) {
      return new Key("in", "in " + eventType(in.json()), in.json(), t);
    }
    if (f instanceof Frame.OutBytes raw) {
      return new Key("outRaw", "outRaw", new String(raw.bytes(), StandardCharsets.ISO_8859_1), t);
    }
    if (f instanceof Frame.Err err) {
      return new Key("err", "err", new String(err.bytes(), StandardCharsets.ISO_8859_1), t);
    }
    if (f instanceof Frame.Gate g) {
      return new Key("gate", "gate", g.name(), t);
    }
    if (f instanceof Frame.Exit e) {
      return new Key("exit", "exit", Integer.toString(e.code()), t);
    }
    if (f instanceof Frame.Kill k) {
      return new Key("kill", "kill", k.signal(), t);
    }
    Frame.Hang h = (Frame.Hang) f;
    return new Key("hang", "hang", h.closeStdout() ? "closeStdout" : "", t);
  }

  /**
   * Reports a run of frames between equal ones: each removed frame is paired, in order, with the
   * next added frame of the same kind and event type as a change; the rest are removed or added.
   */
  private void flush(
      Tape a, Tape b, List<Key> x, List<Key> y, List<Integer> gone, List<Integer> come) {
    int next = 0;
    for (int i : gone) {
      int match = -1;
      for (int q = next; q < come.size() && match < 0; q++) {
        if (y.get(come.get(q)).label().equals(x.get(i).label())) {
          match = q;
        }
      }
      if (match < 0) {
        removed++;
        lines.add(
            "- frame "
                + i
                + " (A:"
                + (i + 2)
                + ") "
                + x.get(i).label()
                + ": "
                + summary(a.frames().get(i)));
        continue;
      }
      for (; next < match; next++) {
        added(b, y, come.get(next));
      }
      changed(a.frames().get(i), b.frames().get(come.get(match)), x.get(i), i, come.get(match));
      next = match + 1;
    }
    for (; next < come.size(); next++) {
      added(b, y, come.get(next));
    }
    gone.clear();
    come.clear();
  }

  private void added(Tape b, List<Key> y, int j) {
    added++;
    lines.add(
        "+ frame "
            + j
            + " (B:"
            + (j + 2)
            + ") "
            + y.get(j).label()
            + ": "
            + summary(b.frames().get(j)));
  }

  private void changed(Frame fa, Frame fb, Key ka, int i, int j) {
    changed++;
    lines.add("~ frame " + i + " (A:" + (i + 2) + ", B:" + (j + 2) + ") " + ka.label());
    List<String> details = new ArrayList<>();
    if (timing && fa.t() != fb.t()) {
      details.add("t: " + fa.t() + " -> " + fb.t());
    }
    if (fa instanceof Frame.Out oa && fb instanceof Frame.Out ob) {
      String ja = timing ? oa.json() : maskTiming(oa.json());
      String jb = timing ? ob.json() : maskTiming(ob.json());
      List<String> paths = new ArrayList<>();
      paths("", value(ja), value(jb), paths);
      details.addAll(paths);
      if (paths.isEmpty() && !ja.equals(jb)) {
        details.add(
            "(the same JSON value, written differently: key order, number spelling or "
                + "escapes)");
      }
    } else if (!Objects.equals(content(fa), content(fb))) {
      String[] pair = abbreviate(content(fa), content(fb));
      details.add(pair[0] + " -> " + pair[1]);
    }
    details.forEach(d -> lines.add("    " + d));
  }

  /** What a non-JSON frame holds, as people read it. */
  private static String content(Frame f) {
    if (f instanceof Frame.OutBytes raw) {
      return bytes(raw.bytes());
    }
    if (f instanceof Frame.Err err) {
      return bytes(err.bytes());
    }
    if (f instanceof Frame.Gate g) {
      return g.name();
    }
    if (f instanceof Frame.Exit e) {
      return Integer.toString(e.code());
    }
    if (f instanceof Frame.Kill k) {
      return k.signal();
    }
    if (f instanceof Frame.Hang h) {
      return h.closeStdout() ? "closeStdout" : "";
    }
    return ((Frame.Out) f).json();
  }

  private static String bytes(byte[] bytes) {
    return JsonText.isUtf8(bytes)
        ? JsonText.quote(new String(bytes, StandardCharsets.UTF_8))
        : "base64:" + Base64.getEncoder().encodeToString(bytes);
  }

  private static String summary(Frame f) {
    String text = content(f);
    return text.length() <= SHORT ? text : text.substring(0, SHORT - 3) + "...";
  }

  /** {@code type/subtype} of an event, or what it is when not an object with a type. */
  private static String eventType(String json) {
    JsonSlice node = value(json);
    if (!node.isObject()) {
      return node.kind();
    }
    if (node.has("jsonrpc")) {
      // an ACP message: its method, or for a response its id
      return node.get("method").text().orElse("response " + node.get("id").raw());
    }
    String type = node.get("type").text().orElse("(no type)");
    return node.get("subtype").isString() ? type + "/" + node.get("subtype").asText() : type;
  }

  private static JsonSlice value(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return JsonSlice.of(bytes, 0, bytes.length);
  }

  /** The JSON text with every timing field's value blanked, unless timing is compared. */
  private String maskTiming(String json) {
    if (timing) {
      return json;
    }
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    JsonWalk.Splice splice = new JsonWalk.Splice();
    try {
      JsonWalk.walk(
          bytes,
          0,
          bytes.length,
          (c, token, place) -> {
            String key = place.keyRaw();
            if (token != JsonCursor.Token.FIELD_NAME
                && key.length() > 2
                && TIMING_FIELDS.contains(key.substring(1, key.length() - 1))) {
              splice.add(c.tokenStart(), c.tokenEnd(), "0");
            }
          });
    } catch (JsonCursor.Malformed e) {
      return json;
    }
    return splice.isEmpty()
        ? json
        : new String(splice.apply(bytes, 0, bytes.length), StandardCharsets.UTF_8);
  }

  /** The header as its line. */
  private static JsonSlice headerValue(Header h) {
    byte[] bytes = HeaderCodec.write(h);
    return JsonSlice.of(bytes, 0, bytes.length);
  }

  /** Each JSON path where {@code a} and {@code b} differ: {@code path: old -> new}. */
  static void paths(String path, JsonSlice a, JsonSlice b, List<String> out) {
    paths(path, a, b, out, Set.of());
  }

  /**
   * As {@link #paths(String, JsonSlice, JsonSlice, List)}, without the paths in {@code ignored}.
   */
  static void paths(String path, JsonSlice a, JsonSlice b, List<String> out, Set<String> ignored) {
    paths(path, a, b, out, ignored, 0);
  }

  private static void paths(
      String path, JsonSlice a, JsonSlice b, List<String> out, Set<String> ignored, int depth) {
    boolean mayIgnore = !ignored.isEmpty() && a.isObject() && b.isObject();
    if (!mayIgnore && same(a, b, depth)) {
      return;
    }
    if (depth < MAX_DEPTH && a.isObject() && b.isObject()) {
      Set<String> names = new LinkedHashSet<>(a.names());
      names.addAll(b.names());
      for (String name : names) {
        String p = join(path, name);
        if (ignored.contains(p)) {
          continue;
        }
        JsonSlice va = a.get(name);
        JsonSlice vb = b.get(name);
        if (vb.isMissing()) {
          out.add(p + ": " + shortValue(va) + " -> (absent)");
        } else if (va.isMissing()) {
          out.add(p + ": (absent) -> " + shortValue(vb));
        } else {
          paths(p, va, vb, out, ignored, depth + 1);
        }
      }
      return;
    }
    if (depth < MAX_DEPTH && a.isArray() && b.isArray()) {
      List<JsonSlice> xs = a.elements();
      List<JsonSlice> ys = b.elements();
      for (int i = 0; i < Math.max(xs.size(), ys.size()); i++) {
        String p = path + "[" + i + "]";
        if (i >= ys.size()) {
          out.add(p + ": " + shortValue(xs.get(i)) + " -> (absent)");
        } else if (i >= xs.size()) {
          out.add(p + ": (absent) -> " + shortValue(ys.get(i)));
        } else {
          paths(p, xs.get(i), ys.get(i), out, ignored, depth + 1);
        }
      }
      return;
    }
    String[] pair = abbreviate(a.raw(), b.raw());
    out.add((path.isEmpty() ? "$" : path) + ": " + pair[0] + " -> " + pair[1]);
  }

  /**
   * Whether two values are the same JSON value, whatever their spelling: key order, escapes, {@code
   * -0} and {@code 0} do not count; {@code 1.0} and {@code 1.00}, or {@code 1e2} and {@code 100},
   * do. Below {@link #MAX_DEPTH} levels, values must be written the same.
   */
  private static boolean same(JsonSlice a, JsonSlice b, int depth) {
    String ra = a.raw();
    String rb = b.raw();
    if (ra.equals(rb)) {
      return true;
    }
    if (!a.kind().equals(b.kind()) || depth >= MAX_DEPTH) {
      return false;
    }
    switch (a.kind()) {
      case "object" -> {
        List<String> names = a.names();
        if (!new LinkedHashSet<>(names).equals(new LinkedHashSet<>(b.names()))) {
          return false;
        }
        for (String name : names) {
          if (!same(a.get(name), b.get(name), depth + 1)) {
            return false;
          }
        }
        return true;
      }
      case "array" -> {
        List<JsonSlice> xs = a.elements();
        List<JsonSlice> ys = b.elements();
        if (xs.size() != ys.size()) {
          return false;
        }
        for (int i = 0; i < xs.size(); i++) {
          if (!same(xs.get(i), ys.get(i), depth + 1)) {
            return false;
          }
        }
        return true;
      }
      case "string" -> {
        return a.text().equals(b.text());
      }
      case "number" -> {
        boolean ia = integer(ra);
        if (ia != integer(rb)) {
          return false;
        }
        return ia
            ? new BigInteger(ra).equals(new BigInteger(rb))
            : new BigDecimal(ra).equals(new BigDecimal(rb));
      }
      default -> {
        return false;
      }
    }
  }

  private static boolean integer(String number) {
    return number.indexOf('.') < 0 && number.indexOf('e') < 0 && number.indexOf('E') < 0;
  }

  private static String join(String path, String name) {
    List<Object> segment = List.of(name);
    String text = JsonWalk.pathText(segment);
    if (path.isEmpty()) {
      return text;
    }
    return text.startsWith("[") ? path + text : path + "." + text;
  }

  private static String shortValue(JsonSlice node) {
    String text = node.raw();
    return text.length() <= SHORT ? text : text.substring(0, SHORT - 3) + "...";
  }

  /**
   * Two long texts cut to where they differ, with some context: {@code ...abc[X]def...}. Short ones
   * are kept whole.
   */
  static String[] abbreviate(String a, String b) {
    if (a.length() <= SHORT && b.length() <= SHORT) {
      return new String[] {a, b};
    }
    int prefix = 0;
    int max = Math.min(a.length(), b.length());
    while (prefix < max && a.charAt(prefix) == b.charAt(prefix)) {
      prefix++;
    }
    int suffix = 0;
    while (suffix < max - prefix
        && a.charAt(a.length() - 1 - suffix) == b.charAt(b.length() - 1 - suffix)) {
      suffix++;
    }
    int from = Math.max(0, prefix - 20);
    return new String[] {cut(a, from, suffix), cut(b, from, suffix)};
  }

  private static String cut(String s, int from, int suffix) {
    int to = Math.min(s.length(), s.length() - suffix + 20);
    if (to - from > SHORT) {
      to = from + SHORT;
    }
    return (from > 0 ? "..." : "") + s.substring(from, to) + (to < s.length() ? "..." : "");
  }

  /**
   * The alignment of two frame lists: pairs {@code {i, j}} for equal frames, {@code {i, -1}} for a
   * frame only in the first, {@code {-1, j}} for one only in the second, in order.
   */
  static List<int[]> align(List<Key> x, List<Key> y) {
    int n = x.size();
    int m = y.size();
    int start = 0;
    while (start < n && start < m && x.get(start).equals(y.get(start))) {
      start++;
    }
    int end = 0;
    while (end < n - start && end < m - start && x.get(n - 1 - end).equals(y.get(m - 1 - end))) {
      end++;
    }
    List<int[]> ops = new ArrayList<>();
    for (int i = 0; i < start; i++) {
      ops.add(new int[] {i, i});
    }
    int rows = n - start - end;
    int cols = m - start - end;
    if ((long) rows * cols > MAX_CELLS) {
      for (int k = 0; k < Math.max(rows, cols); k++) {
        if (k < rows && k < cols && x.get(start + k).equals(y.get(start + k))) {
          ops.add(new int[] {start + k, start + k});
          continue;
        }
        if (k < rows) {
          ops.add(new int[] {start + k, -1});
        }
        if (k < cols) {
          ops.add(new int[] {-1, start + k});
        }
      }
    } else {
      int[][] lcs = new int[rows + 1][cols + 1];
      for (int i = rows - 1; i >= 0; i--) {
        for (int j = cols - 1; j >= 0; j--) {
          lcs[i][j] =
              x.get(start + i).equals(y.get(start + j))
                  ? lcs[i + 1][j + 1] + 1
                  : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
        }
      }
      int i = 0;
      int j = 0;
      while (i < rows || j < cols) {
        if (i < rows && j < cols && x.get(start + i).equals(y.get(start + j))) {
          ops.add(new int[] {start + i++, start + j++});
        } else if (j < cols && (i == rows || lcs[i][j + 1] >= lcs[i + 1][j])) {
          ops.add(new int[] {-1, start + j++});
        } else {
          ops.add(new int[] {start + i++, -1});
        }
      }
    }
    for (int k = end; k > 0; k--) {
      ops.add(new int[] {n - k, m - k});
    }
    return ops;
  }
}
