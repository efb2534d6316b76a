package dev.agentdouble.fake.internal.run;

import dev.agentdouble.json.JsonCursor;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a recorded prompt stands in a stdout line, as {@link Substitution}'s rule for {@code
 * prompt} allows it: the {@code user} event's {@code message.content[].text}, nowhere else.
 */
final class UserPrompt {
  private UserPrompt() {}

  /**
   * The offsets in {@code buf} of each {@code message.content[].text} string equal to {@code
   * prompt} (at its opening quote), when the line {@code buf[off, off+len)} is a {@code user}
   * event; none otherwise.
   */
  static List<Integer> offsets(byte[] buf, int off, int len, String prompt) {
    List<Integer> offsets = new ArrayList<>();
    String type = null;
    JsonCursor c = new JsonCursor(buf, off, len);
    try {
      if (c.next() != JsonCursor.Token.START_OBJECT) {
        return List.of();
      }
      while (c.next() == JsonCursor.Token.FIELD_NAME) {
        String name = c.text();
        JsonCursor.Token value = c.next();
        if (name.equals("type") && value == JsonCursor.Token.STRING) {
          type = c.text();
        } else if (name.equals("message") && value == JsonCursor.Token.START_OBJECT) {
          while (c.next() == JsonCursor.Token.FIELD_NAME) {
            String field = c.text();
            JsonCursor.Token v = c.next();
            if (field.equals("content") && v == JsonCursor.Token.START_ARRAY) {
              JsonCursor.Token part;
              while ((part = c.next()) != JsonCursor.Token.END_ARRAY) {
                if (part != JsonCursor.Token.START_OBJECT) {
                  c.skipChildren(part);
                  continue;
                }
                while (c.next() == JsonCursor.Token.FIELD_NAME) {
                  String partField = c.text();
                  JsonCursor.Token pv = c.next();
                  if (partField.equals("text") && pv == JsonCursor.Token.STRING) {
                    if (prompt.equals(c.text())) {
                      offsets.add(c.tokenStart());
                    }
                  } else {
                    c.skipChildren(pv);
                  }
                }
              }
            } else {
              c.skipChildren(v);
            }
          }
        } else {
          c.skipChildren(value);
        }
      }
    } catch (JsonCursor.Malformed e) {
      return List.of(); // validated before replay: nothing to substitute in what cannot parse
    }
    return "user".equals(type) ? offsets : List.of();
  }
}
