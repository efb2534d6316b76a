package dev.agentdouble.recorder.internal.scan;

import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.json.JsonText;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Walks the tokens of one JSON value in order, telling a {@link Visitor} about every field name and
 * scalar with its place, and splices replacements into the text without touching any other byte.
 * Redaction and normalisation both rewrite whole JSON strings this way, so key order, number
 * spelling and escapes stay exactly as the CLI wrote them.
 */
public final class JsonWalk {
  private JsonWalk() {}

  /** Where a token stands. */
  public interface Place {
    /**
     * The path from the root: field names ({@code String}) and array indexes ({@code Integer}). For
     * a field name token it ends with that name; for a value, with the key or index it stands
     * under.
     */
    List<Object> path();

    /** The raw bytes (quotes and escapes included) of the field name a value stands under. */
    String keyRaw();
  }

  /** Told about each field name and scalar. */
  @FunctionalInterface
  public interface Visitor {
    /**
     * @param token {@code FIELD_NAME}, {@code STRING}, {@code NUMBER}, {@code TRUE}, {@code FALSE}
     *     or {@code NULL}; the cursor is on it ({@link JsonCursor#text()}, {@link
     *     JsonCursor#tokenStart()}, ...)
     */
    void token(JsonCursor json, JsonCursor.Token token, Place place) throws JsonCursor.Malformed;
  }

  /** Walks {@code buf[off, off+len)}, one well-formed JSON value. */
  public static void walk(byte[] buf, int off, int len, Visitor visitor)
      throws JsonCursor.Malformed {
    JsonCursor c = new JsonCursor(buf, off, len);
    List<Object> path = new ArrayList<>();
    List<Object> view = Collections.unmodifiableList(path);
    // per open container: 'O' or 'A'; the key raw text of each open object's current field
    StringBuilder kinds = new StringBuilder();
    List<String> keys = new ArrayList<>();
    Place place =
        new Place() {
          @Override
          public List<Object> path() {
            return view;
          }

          @Override
          public String keyRaw() {
            int top = kinds.length() - 1;
            return top >= 0 && kinds.charAt(top) == 'O' ? keys.get(top) : "";
          }
        };
    JsonCursor.Token token;
    while ((token = c.next()) != null) {
      switch (token) {
        case FIELD_NAME -> {
          int top = kinds.length() - 1;
          path.set(top, c.text());
          keys.set(top, c.raw());
          visitor.token(c, token, place);
        }
        case END_OBJECT, END_ARRAY -> {
          int top = kinds.length() - 1;
          kinds.setLength(top);
          keys.remove(top);
          path.remove(top);
        }
        default -> {
          int top = kinds.length() - 1;
          if (top >= 0 && kinds.charAt(top) == 'A') {
            path.set(top, (Integer) path.get(top) + 1);
          }
          if (token == JsonCursor.Token.START_OBJECT || token == JsonCursor.Token.START_ARRAY) {
            kinds.append(token == JsonCursor.Token.START_OBJECT ? 'O' : 'A');
            keys.add("");
            path.add(token == JsonCursor.Token.START_OBJECT ? "" : (Object) (-1));
          } else {
            visitor.token(c, token, place);
          }
        }
      }
    }
  }

  /** The path as people read it: {@code message.content[0].text}; {@code $} for the root. */
  public static String pathText(List<Object> path) {
    StringBuilder sb = new StringBuilder();
    for (Object segment : path) {
      if (segment instanceof Integer i) {
        sb.append('[').append(i).append(']');
      } else {
        String name = (String) segment;
        boolean plain =
            !name.isEmpty()
                && name.chars()
                    .allMatch(ch -> Character.isLetterOrDigit(ch) || ch == '_' || ch == '-');
        if (plain) {
          if (sb.length() > 0) {
            sb.append('.');
          }
          sb.append(name);
        } else {
          sb.append('[').append(JsonText.quote(name)).append(']');
        }
      }
    }
    return sb.length() == 0 ? "$" : sb.toString();
  }

  /** Replacements of byte ranges, added in increasing order of position, then applied at once. */
  public static final class Splice {
    private final List<int[]> ranges = new ArrayList<>();
    private final List<byte[]> replacements = new ArrayList<>();

    /** Replaces {@code [start, end)} by {@code text} (UTF-8). */
    public void add(int start, int end, String text) {
      ranges.add(new int[] {start, end});
      replacements.add(text.getBytes(StandardCharsets.UTF_8));
    }

    public boolean isEmpty() {
      return ranges.isEmpty();
    }

    /** {@code buf[off, off+len)} with the replacements made. */
    public byte[] apply(byte[] buf, int off, int len) {
      int size = len;
      for (int i = 0; i < ranges.size(); i++) {
        int[] r = ranges.get(i);
        size += replacements.get(i).length - (r[1] - r[0]);
      }
      byte[] out = new byte[size]; // filled in place: a long line is not copied twice
      int pos = off;
      int at = 0;
      for (int i = 0; i < ranges.size(); i++) {
        int[] r = ranges.get(i);
        System.arraycopy(buf, pos, out, at, r[0] - pos);
        at += r[0] - pos;
        byte[] replacement = replacements.get(i);
        System.arraycopy(replacement, 0, out, at, replacement.length);
        at += replacement.length;
        pos = r[1];
      }
      System.arraycopy(buf, pos, out, at, off + len - pos);
      return out;
    }
  }
}
