package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.json.JsonText;
import java.nio.charset.StandardCharsets;

/**
 * One line a client wrote to {@code claude --input-format stream-json} (claude-code.md §2; FINDINGS
 * f, g.3): a user message (one turn), a {@code control_request} of the SDK's (initialize,
 * interrupt, ...), a {@code control_response} answering the CLI's own request (can_use_tool), or a
 * line the real CLI refuses.
 *
 * @param json the line as it was sent, without its newline
 * @param type the value of its {@code type}: for a line that is not JSON, as the real CLI reads it
 *     from the raw text ({@code unknown} when there is none)
 */
record StdinMessage(Kind kind, String json, String type) {
  /** What a line is, as the session acts on it. */
  enum Kind {
    USER,
    CONTROL_REQUEST,
    CONTROL_RESPONSE,
    /** JSON of a type the CLI ignores (FINDINGS i.2). */
    OTHER,
    /** Not JSON: the real CLI ends the session (FINDINGS i.1). */
    BAD
  }

  private static final byte[] TYPE_KEY = "\"type\":\"".getBytes(StandardCharsets.UTF_8);

  static StdinMessage parse(byte[] buf, int off, int len) {
    String json = new String(buf, off, len, StandardCharsets.UTF_8);
    if (JsonText.syntaxError(buf, off, len).isPresent()) {
      return new StdinMessage(Kind.BAD, json, rawType(buf, off, len));
    }
    JsonSlice m = JsonSlice.of(buf, off, off + len);
    String type = m.get("type").asText();
    Kind kind =
        switch (type) {
          case "user" -> Kind.USER;
          case "control_request" -> Kind.CONTROL_REQUEST;
          case "control_response" -> Kind.CONTROL_RESPONSE;
          default -> Kind.OTHER;
        };
    return new StdinMessage(m.isObject() ? kind : Kind.OTHER, json, type);
  }

  /**
   * What the real CLI says of a line it cannot parse, and exits 1 on (FINDINGS i.1): {@code Error
   * parsing streaming input line (type=user, 14 chars): SyntaxError}, its text the profile's.
   */
  String parseError(ClaudeProfile profile) {
    return profile.message(
        "stdin-bad-line", "type", type, "chars", Integer.toString(json.length()));
  }

  private JsonSlice slice() {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    return JsonSlice.of(bytes, 0, bytes.length);
  }

  /** A control request's or response's {@code request_id}, as written (a JSON string). */
  String requestId() {
    JsonSlice m = slice();
    JsonSlice id =
        kind == Kind.CONTROL_RESPONSE ? m.get("response").get("request_id") : m.get("request_id");
    return id.isMissing() ? "" : id.raw();
  }

  /** A control request's {@code request.subtype}; {@code ""} for any other line. */
  String subtype() {
    return kind == Kind.CONTROL_REQUEST ? slice().get("request").get("subtype").asText() : "";
  }

  /** A control response's {@code response.response.behavior} (allow, deny); else {@code ""}. */
  String behavior() {
    return slice().get("response").get("response").get("behavior").asText();
  }

  /**
   * A user message's prompt: its {@code content} when a string, else its text blocks joined by a
   * newline.
   */
  String prompt() {
    JsonSlice content = slice().get("message").get("content");
    if (!content.isArray()) {
      return content.asText();
    }
    StringBuilder text = new StringBuilder();
    for (JsonSlice block : content.elements()) {
      if (block.get("type").asText().equals("text")) {
        text.append(text.length() == 0 ? "" : "\n").append(block.get("text").asText());
      }
    }
    return text.toString();
  }

  /** What the line is, for a message: {@code user}, {@code control_request interrupt}, ... */
  String describe() {
    return switch (kind) {
      case CONTROL_REQUEST -> "control_request " + subtype();
      case CONTROL_RESPONSE -> "control_response to " + requestId() + " (" + behavior() + ")";
      case BAD -> "a line that is not JSON";
      default -> "a " + type + " message";
    };
  }

  /** The {@code type} the real CLI names for a line that is not JSON: the first it can see. */
  private static String rawType(byte[] buf, int off, int len) {
    for (int i = off; i + TYPE_KEY.length <= off + len; i++) {
      int j = 0;
      while (j < TYPE_KEY.length && buf[i + j] == TYPE_KEY[j]) {
        j++;
      }
      if (j == TYPE_KEY.length) {
        int start = i + j;
        int end = start;
        while (end < off + len && buf[end] != '"') {
          end++;
        }
        if (end < off + len) {
          return new String(buf, start, end - start, StandardCharsets.UTF_8);
        }
      }
    }
    return "unknown";
  }
}
