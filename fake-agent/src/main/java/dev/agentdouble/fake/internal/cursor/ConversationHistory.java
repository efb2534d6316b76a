package dev.agentdouble.fake.internal.cursor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the 2026.10 CLI makes of a {@code --conversation-history-file}: protobuf JSON of {@code
 * agent.v1.ConversationHistory}, read with protobuf-es's {@code fromJsonString} (unknown fields
 * ignored). Source: cagase/dsh-cursor {@code docs/live-cli-contract.md} §5, which quotes the CLI's
 * parser and its messages. Two kinds of bad contents are told apart, each with the CLI's words:
 *
 * <ul>
 *   <li>not JSON: {@code cannot decode agent.v1.ConversationHistory from JSON: } and what Node's
 *       {@code JSON.parse} (V8) says, e.g. {@code Unexpected token 'o', "not json at all" is not
 *       valid JSON};
 *   <li>JSON that is not a message: {@code cannot decode message agent.v1.ConversationHistory from
 *       JSON: array} (protobuf-es names an array {@code array}, an object {@code object}, a string
 *       of up to 100 characters quoted, else {@code string}), and the same for a {@code messages}
 *       field that is not a list ({@code cannot decode field agent.v1.ConversationHistory.messages
 *       from JSON: ...}) or an element of it that is not an object ({@code cannot decode message
 *       agent.v1.ConversationHistoryMessage from JSON: ...}).
 * </ul>
 *
 * Deeper fields (the parts of each message) are not checked.
 */
final class ConversationHistory {
  private static final String TYPE = "agent.v1.ConversationHistory";

  private ConversationHistory() {}

  /** Why the CLI refuses these contents, after {@code Invalid conversation history: }; or none. */
  static Optional<String> problem(String contents) {
    Object json;
    try {
      json = new V8Json(contents).parse();
    } catch (SyntaxError e) {
      return Optional.of("cannot decode " + TYPE + " from JSON: " + e.getMessage());
    }
    if (!(json instanceof Map<?, ?> history)) {
      return Optional.of("cannot decode message " + TYPE + " from JSON: " + debug(json));
    }
    Object messages = history.get("messages");
    if (messages == null || messages == V8Json.NULL) {
      return Optional.empty();
    }
    if (!(messages instanceof List<?> list)) {
      return Optional.of("cannot decode field " + TYPE + ".messages from JSON: " + debug(messages));
    }
    for (Object message : list) {
      if (!(message instanceof Map<?, ?>)) {
        return Optional.of(
            "cannot decode message " + TYPE + "Message from JSON: " + debug(message));
      }
    }
    return Optional.empty();
  }

  /** A JSON value as protobuf-es's errors name it. */
  private static String debug(Object json) {
    if (json == V8Json.NULL) {
      return "null";
    }
    if (json instanceof Map<?, ?>) {
      return "object";
    }
    if (json instanceof List<?>) {
      return "array";
    }
    if (json instanceof String s) {
      return s.length() > 100 ? "string" : "\"" + s.replace("\"", "\\\"") + "\"";
    }
    return String.valueOf(json); // a number's source text, true or false
  }

  /** A syntax error, worded as V8's {@code JSON.parse} words it. */
  static final class SyntaxError extends Exception {
    SyntaxError(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * A JSON parser that fails where and as V8's fails (Node 22's wording, with line and column):
   * objects are maps, arrays lists, strings strings, numbers {@link Num}, {@code true} and {@code
   * false} booleans, {@code null} {@link #NULL}.
   */
  static final class V8Json {
    static final Object NULL = new Object();
    private static final int CONTEXT = 10;

    private final String s;
    private int at;

    V8Json(String source) {
      this.s = source;
    }

    Object parse() throws SyntaxError {
      skipSpace();
      Object value = value();
      skipSpace();
      if (at < s.length()) {
        throw at("Unexpected non-whitespace character after JSON");
      }
      return value;
    }

    private Object value() throws SyntaxError {
      if (at >= s.length()) {
        throw new SyntaxError("Unexpected end of JSON input");
      }
      char c = s.charAt(at);
      switch (c) {
        case '{':
          return object();
        case '[':
          return array();
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", NULL);
        default:
          if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
          }
          throw unexpectedToken();
      }
    }

    private Map<String, Object> object() throws SyntaxError {
      Map<String, Object> map = new LinkedHashMap<>();
      at++;
      skipSpace();
      if (peek() == '}') {
        at++;
        return map;
      }
      if (peek() != '"') {
        throw positioned("Expected property name or '}'");
      }
      while (true) {
        String key = string();
        skipSpace();
        if (peek() != ':') {
          throw positioned("Expected ':' after property name");
        }
        at++;
        skipSpace();
        map.put(key, value());
        skipSpace();
        if (peek() == ',') {
          at++;
          skipSpace();
          if (peek() != '"') {
            throw positioned("Expected double-quoted property name");
          }
          continue;
        }
        if (peek() != '}') {
          throw positioned("Expected ',' or '}' after property value");
        }
        at++;
        return map;
      }
    }

    private List<Object> array() throws SyntaxError {
      List<Object> list = new ArrayList<>();
      at++;
      skipSpace();
      if (peek() == ']') {
        at++;
        return list;
      }
      while (true) {
        list.add(value());
        skipSpace();
        if (peek() == ',') {
          at++;
          skipSpace();
          continue;
        }
        if (peek() != ']') {
          throw positioned("Expected ',' or ']' after array element");
        }
        at++;
        return list;
      }
    }

    private String string() throws SyntaxError {
      StringBuilder out = new StringBuilder();
      at++;
      while (true) {
        if (at >= s.length()) {
          throw positioned("Unterminated string");
        }
        char c = s.charAt(at);
        if (c == '"') {
          at++;
          return out.toString();
        }
        if (c < 0x20) {
          throw positioned("Bad control character in string literal");
        }
        if (c != '\\') {
          out.append(c);
          at++;
          continue;
        }
        at++;
        if (at >= s.length()) {
          throw positioned("Unterminated string");
        }
        char e = s.charAt(at);
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            int code = 0;
            for (int i = 1; i <= 4; i++) {
              int digit = at + i < s.length() ? Character.digit(s.charAt(at + i), 16) : -1;
              if (digit < 0) {
                at += i;
                throw positioned("Bad Unicode escape");
              }
              code = code * 16 + digit;
            }
            out.append((char) code);
            at += 4;
          }
          default -> throw positioned("Bad escaped character");
        }
        at++;
      }
    }

    /** A number, as its source text. */
    record Num(String text) {
      @Override
      public String toString() {
        return text;
      }
    }

    private Num number() throws SyntaxError {
      int start = at;
      if (peek() == '-') {
        at++;
        if (!digit(peek())) {
          throw positioned("No number after minus sign");
        }
      }
      if (peek() == '0') {
        at++;
      } else {
        while (digit(peek())) {
          at++;
        }
      }
      if (peek() == '.') {
        at++;
        if (!digit(peek())) {
          throw positioned("Unterminated fractional number");
        }
        while (digit(peek())) {
          at++;
        }
      }
      if (peek() == 'e' || peek() == 'E') {
        at++;
        if (peek() == '+' || peek() == '-') {
          at++;
        }
        if (!digit(peek())) {
          throw positioned("Exponent part is missing a number");
        }
        while (digit(peek())) {
          at++;
        }
      }
      return new Num(s.substring(start, at));
    }

    private Object literal(String word, Object value) throws SyntaxError {
      for (int i = 0; i < word.length(); i++, at++) {
        if (at >= s.length()) {
          throw new SyntaxError("Unexpected end of JSON input");
        }
        if (s.charAt(at) != word.charAt(i)) {
          throw unexpectedToken();
        }
      }
      return value;
    }

    /** V8's message for a character no JSON value starts with, with its context. */
    private SyntaxError unexpectedToken() {
      if (s.equals("NaN")
          || s.equals("Infinity")
          || s.equals("undefined")
          || s.equals("[object Object]")) {
        return new SyntaxError("\"" + s + "\" is not valid JSON");
      }
      String token = "Unexpected token '" + s.charAt(at) + "', ";
      int length = s.length();
      if (length < CONTEXT * 2 + 1) {
        return new SyntaxError(token + "\"" + s + "\" is not valid JSON");
      }
      if (at < CONTEXT) {
        return new SyntaxError(
            token + "\"" + s.substring(0, at + CONTEXT) + "\"... is not valid JSON");
      }
      if (at < length - CONTEXT) {
        return new SyntaxError(
            token + "...\"" + s.substring(at - CONTEXT, at + CONTEXT) + "\"... is not valid JSON");
      }
      return new SyntaxError(token + "...\"" + s.substring(at - CONTEXT) + "\" is not valid JSON");
    }

    /** {@code WHAT in JSON at position N (line L column C)}, at the parser's position. */
    private SyntaxError positioned(String what) {
      return at(what + " in JSON");
    }

    /** {@code WHAT at position N (line L column C)}, at the parser's position. */
    private SyntaxError at(String what) {
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < at && i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '\r' && i + 1 < s.length() && s.charAt(i + 1) == '\n') {
          continue;
        }
        if (c == '\n' || c == '\r') {
          line++;
          lineStart = i + 1;
        }
      }
      return new SyntaxError(
          what + " at position " + at + " (line " + line + " column " + (at - lineStart + 1) + ")");
    }

    private char peek() {
      return at < s.length() ? s.charAt(at) : '\0';
    }

    private static boolean digit(char c) {
      return c >= '0' && c <= '9';
    }

    private void skipSpace() {
      while (at < s.length()) {
        char c = s.charAt(at);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          return;
        }
        at++;
      }
    }
  }
}
