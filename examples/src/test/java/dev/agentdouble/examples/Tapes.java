package dev.agentdouble.examples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tapes for the tests, built in code: the runs and failures of the Cursor Agent CLI as
 * {@code docs/cli.md} and the CLI reference describe them. Events are written in the CLI's own key
 * order; the session id, cwd and prompt are declared as variables, so the fake replaces them with
 * live values.
 */
final class Tapes {
  static final String SESSION = "0b7e4c2a-91d3-4f5e-8a6b-3c2d1e0f9a8b";
  static final String CWD = "/home/dev/shop";
  static final String NOT_LOGGED_IN = "Error: Authentication required. Please run 'agent login' "
      + "first, or set CURSOR_API_KEY environment variable.\n";
  static final String USAGE_LIMIT = "ActionRequiredError: You've hit your usage limit. Switch to a "
      + "different model or set a Spend Limit to continue with this model.\n";
  static final String MAX_RETRIES = "T: [internal] Failed to run step, exceeded max retries\n";

  private static final ObjectMapper JSON = new ObjectMapper();

  private Tapes() {}

  /** A tape of {@code frames}, replaying with a live session id and cwd. */
  static Tape tape(Frame... frames) {
    Header header = Header.builder()
        .cli("cursor-agent")
        .cliVersion("2026.10.01-e373342")
        .source(Header.Source.SCRIPTED)
        .vars(Vars.NONE.sessionId(SESSION).cwd(CWD))
        .build();
    return new Tape(header, List.of(frames));
  }

  /** A run that answers {@code answer}, without tools. */
  static Tape answers(String prompt, String answer) {
    return tape(init(150), user(152, prompt), assistant(700, answer), result(710, answer),
        new Frame.Exit(720, 0));
  }

  /** Not logged in: nothing on stdout, the message on stderr, exit 1. */
  static Tape notLoggedIn() {
    return tape(Frame.Err.text(420, NOT_LOGGED_IN), new Frame.Exit(425, 1));
  }

  /** The usage limit: init and user, then the error on stderr, exit 1. */
  static Tape usageLimit(String prompt) {
    return tape(init(160), user(162, prompt), Frame.Err.text(890, USAGE_LIMIT),
        new Frame.Exit(900, 1));
  }

  /** The network gave out: three reconnects, the error on stderr, exit 1, no result. */
  static Tape networkFailure(String prompt) {
    return tape(init(170), user(172, prompt),
        out(900, "type", "connection", "subtype", "reconnecting", "session_id", SESSION,
            "timestamp_ms", 1790000000900L, "attempt", 1),
        out(1200, "type", "retry", "subtype", "starting", "session_id", SESSION,
            "timestamp_ms", 1790000001200L, "attempt", 1, "is_resume", true),
        out(1400, "type", "connection", "subtype", "reconnecting", "session_id", SESSION,
            "timestamp_ms", 1790000001400L, "attempt", 2),
        Frame.Err.text(2400, MAX_RETRIES), new Frame.Exit(2405, 1));
  }

  static Frame.Out init(long t) {
    return out(t, "type", "system", "subtype", "init", "apiKeySource", "login", "cwd", CWD,
        "session_id", SESSION, "model", "Auto", "permissionMode", "default");
  }

  static Frame.Out user(long t, String prompt) {
    return out(t, "type", "user", "message", message("user", prompt), "session_id", SESSION);
  }

  static Frame.Out assistant(long t, String text) {
    return out(t, "type", "assistant", "message", message("assistant", text),
        "session_id", SESSION);
  }

  static Frame.Out thinking(long t, String text) {
    return out(t, "type", "thinking", "subtype", "delta", "text", text, "session_id", SESSION,
        "timestamp_ms", 1790000000000L + t);
  }

  /** A {@code readToolCall} starting. */
  static Frame.Out readStarted(long t, String callId, String path) {
    return out(t, "type", "tool_call", "subtype", "started", "call_id", callId,
        "tool_call", object("readToolCall", object("args", object("path", path))),
        "session_id", SESSION);
  }

  /** A {@code readToolCall} that read {@code content}. */
  static Frame.Out readCompleted(long t, String callId, String path, String content) {
    Map<String, Object> success = object("content", content, "isEmpty", content.isEmpty(),
        "exceededLimit", false, "totalLines", content.lines().count(),
        "totalChars", content.length());
    return out(t, "type", "tool_call", "subtype", "completed", "call_id", callId,
        "tool_call", object("readToolCall", object("args", object("path", path),
            "result", object("success", success))),
        "session_id", SESSION);
  }

  static Frame.Out result(long t, String text) {
    return out(t, "type", "result", "subtype", "success", "duration_ms", t, "duration_api_ms", t,
        "is_error", false, "result", text, "session_id", SESSION, "request_id", "8d2e4b1c");
  }

  /** One stdout line: a JSON object of these keys and values, in order. */
  static Frame.Out out(long t, Object... keysAndValues) {
    try {
      return new Frame.Out(t, JSON.writeValueAsString(object(keysAndValues)));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(e);
    }
  }

  static Map<String, Object> object(Object... keysAndValues) {
    Map<String, Object> object = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      object.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return object;
  }

  private static Map<String, Object> message(String role, String text) {
    return object("role", role, "content", List.of(object("type", "text", "text", text)));
  }
}
