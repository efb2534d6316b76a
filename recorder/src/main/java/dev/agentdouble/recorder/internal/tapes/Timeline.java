package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.event.Event;
import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A tape as a readable timeline: one line per frame with its time, stream, event type, tool and a
 * short text. Failures are marked with {@code !} and long silences get a line of their own. Events
 * are read where they lie ({@link JsonSlice}), so whatever the fake replays is shown: values of any
 * size or depth, and events with a key twice (the first one is shown).
 */
final class Timeline {
  /** A silence at least this long gets its own line. */
  static final long GAP_MS = 1000;

  private Timeline() {}

  public static String render(String name, Tape tape) {
    StringBuilder sb = new StringBuilder();
    sb.append(name).append('\n');
    var h = tape.header();
    sb.append("  ")
        .append(h.source().map(Object::toString).orElse("tape"))
        .append(h.cli().map(c -> " from " + c).orElse(""))
        .append(h.cliVersion().map(v -> " " + v).orElse(""))
        .append(", output format ")
        .append(h.format().cliName())
        .append(", ")
        .append(tape.frames().size())
        .append(" frames")
        .append(h.argv().isEmpty() ? "" : ", argv " + h.argv())
        .append('\n');
    long last = 0;
    for (Frame frame : tape.frames()) {
      if (frame.t() - last >= GAP_MS) {
        sb.append(
            String.format(
                Locale.ROOT,
                "  %9s  ... %.1fs without output ...%n",
                "",
                (frame.t() - last) / 1000.0));
      }
      last = frame.t();
      sb.append(
          String.format(
              Locale.ROOT, "%s %8.3fs  %s%n", marker(frame), frame.t() / 1000.0, describe(frame)));
    }
    return sb.toString();
  }

  private static String marker(Frame frame) {
    boolean bad =
        frame instanceof Frame.Err
            || frame instanceof Frame.Kill
            || frame instanceof Frame.Hang
            || (frame instanceof Frame.Exit e && e.code() != 0);
    return bad ? " !" : "  ";
  }

  static String describe(Frame frame) {
    if (frame instanceof Frame.In in) {
      return "in   " + message(in.json());
    }
    if (frame instanceof Frame.Out out) {
      return "out  "
          + (out.json().startsWith("{\"jsonrpc\"") ? message(out.json()) : event(out.json()));
    }
    if (frame instanceof Frame.OutBytes raw) {
      return "out  (raw) " + shortText(new String(raw.bytes(), StandardCharsets.UTF_8));
    }
    if (frame instanceof Frame.Err err) {
      return "err  " + shortText(new String(err.bytes(), StandardCharsets.UTF_8));
    }
    if (frame instanceof Frame.Exit exit) {
      return "end  exit " + exit.code();
    }
    if (frame instanceof Frame.Kill kill) {
      return "end  killed by " + kill.signal() + " (a shell sees " + kill.shellStatus() + ")";
    }
    if (frame instanceof Frame.Gate gate) {
      return "gate " + gate.name() + " (held here until the test releases it)";
    }
    Frame.Hang hang = (Frame.Hang) frame;
    return "end  hangs until killed" + (hang.closeStdout() ? ", stdout closed" : "");
  }

  /**
   * An ACP message in a line: a request or notification by its method and id ({@code
   * session/update} by its kind and text), a response by its id and its stop reason, keys or error.
   */
  static String message(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    JsonSlice node = JsonSlice.of(bytes, 0, bytes.length);
    if (!node.isObject()) {
      return "(json) " + shortText(json);
    }
    JsonSlice id = node.get("id");
    String ids = id.isMissing() ? "" : " #" + id.asText();
    if (node.has("method")) {
      String method = node.get("method").asText();
      JsonSlice update = node.get("params").get("update");
      if (method.equals("session/update")) {
        String kind = update.get("sessionUpdate").asText("?");
        String detail =
            update
                .get("content")
                .get("text")
                .asText(update.get("title").asText(update.get("status").asText("")));
        return String.format(Locale.ROOT, "%-22s %s", method, kind + " " + shortText(detail))
            .stripTrailing();
      }
      return method + ids;
    }
    JsonSlice error = node.get("error");
    if (!error.isMissing()) {
      return String.format(
              Locale.ROOT,
              "%-22s %s",
              "error" + ids,
              error.get("code").asText()
                  + " "
                  + error.get("message").asText()
                  + " "
                  + shortText(error.get("data").get("details").asText("")))
          .stripTrailing();
    }
    JsonSlice result = node.get("result");
    String detail =
        result.get("stopReason").isString()
            ? "stopReason " + result.get("stopReason").asText()
            : result.names().isEmpty() ? "{}" : String.join(",", result.names());
    return String.format(Locale.ROOT, "%-22s %s", "result" + ids, shortText(detail));
  }

  private static String event(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    JsonSlice node = JsonSlice.of(bytes, 0, bytes.length);
    if (!node.isObject()) {
      return "(json) " + shortText(json);
    }
    String type = node.get("type").asText("?");
    String subtype = node.get("subtype").asText("");
    String head = subtype.isEmpty() ? type : type + "/" + subtype;
    String detail =
        switch (Event.Kind.of(type)) {
          case SYSTEM -> "model=" + node.get("model").asText() + " cwd=" + node.get("cwd").asText();
          case USER, ASSISTANT -> shortText(text(node.get("message")));
          case THINKING -> shortText(node.get("text").asText(""));
          case TOOL_CALL -> tool(node.get("tool_call"));
          case RESULT ->
              (node.get("is_error").isTrue() ? "error " : "")
                  + node.get("duration_ms").asText("")
                  + "ms "
                  + shortText(node.get("result").asText(""));
          case CONNECTION, RETRY -> "attempt " + node.get("attempt").asText("-");
          case INTERACTION_QUERY, UNKNOWN -> "";
        };
    return String.format(Locale.ROOT, "%-22s %s", head, detail).stripTrailing();
  }

  private static String text(JsonSlice message) {
    StringBuilder sb = new StringBuilder();
    for (JsonSlice part : message.get("content").elements()) {
      sb.append(part.get("text").asText(""));
    }
    return sb.toString();
  }

  private static String tool(JsonSlice toolCall) {
    for (String name : toolCall.names()) {
      if (name.endsWith("ToolCall") || name.equals("function")) {
        JsonSlice call = toolCall.get(name);
        JsonSlice result = call.get("result");
        // a rejected call's completion has no args; its result names the command or path
        String arg = argument(call.get("args"));
        if (arg.isEmpty()) {
          arg = argument(result.get("rejected"));
        }
        if (arg.isEmpty()) {
          arg = call.get("name").asText("");
        }
        String outcome =
            result.has("rejected")
                ? " (rejected)"
                : result.has("error")
                    ? " (error)"
                    : result.has("spawnError") ? " (spawn error)" : "";
        return name + (arg.isEmpty() ? "" : " " + shortText(arg)) + outcome;
      }
    }
    return "";
  }

  /** What a tool works on: its path, command, pattern or name, the first one present. */
  private static String argument(JsonSlice args) {
    for (String key : new String[] {"path", "command", "globPattern", "pattern", "name"}) {
      if (args.get(key).isString()) {
        return args.get(key).asText();
      }
    }
    return "";
  }

  private static String shortText(String s) {
    String one = s.replace("\n", "\\n");
    return one.length() > 70 ? one.substring(0, 67) + "..." : one;
  }
}
