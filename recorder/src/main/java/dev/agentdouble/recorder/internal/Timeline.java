package dev.agentdouble.recorder.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.internal.Json;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * A tape as a readable timeline: one line per frame with its time, stream, event type, tool and a
 * short text. Failures are marked with {@code !} and long silences get a line of their own.
 */
public final class Timeline {
  /** A silence at least this long gets its own line. */
  static final long GAP_MS = 1000;

  private Timeline() {}

  public static String render(String name, Tape tape) {
    StringBuilder sb = new StringBuilder();
    sb.append(name).append('\n');
    var h = tape.header();
    sb.append("  ").append(h.source().map(Object::toString).orElse("tape"))
        .append(h.cli().map(c -> " from " + c).orElse(""))
        .append(h.cliVersion().map(v -> " " + v).orElse(""))
        .append(", output format ").append(h.format().cliName())
        .append(", ").append(tape.frames().size()).append(" frames")
        .append(h.argv().isEmpty() ? "" : ", argv " + h.argv())
        .append('\n');
    long last = 0;
    for (Frame frame : tape.frames()) {
      if (frame.t() - last >= GAP_MS) {
        sb.append(String.format(Locale.ROOT, "  %9s  ... %.1fs without output ...%n", "",
            (frame.t() - last) / 1000.0));
      }
      last = frame.t();
      sb.append(String.format(Locale.ROOT, "%s %8.3fs  %s%n", marker(frame), frame.t() / 1000.0,
          describe(frame)));
    }
    return sb.toString();
  }

  private static String marker(Frame frame) {
    boolean bad = frame instanceof Frame.Err
        || frame instanceof Frame.Kill
        || frame instanceof Frame.Hang
        || (frame instanceof Frame.Exit e && e.code() != 0);
    return bad ? " !" : "  ";
  }

  static String describe(Frame frame) {
    if (frame instanceof Frame.Out out) {
      return "out  " + event(out.json());
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

  private static String event(String json) {
    JsonNode node = Json.tree(json);
    if (!node.isObject()) {
      return "(json) " + shortText(json);
    }
    String type = node.path("type").asText("?");
    String subtype = node.path("subtype").asText("");
    String head = subtype.isEmpty() ? type : type + "/" + subtype;
    String detail = switch (type) {
      case "system" -> "model=" + node.path("model").asText() + " cwd=" + node.path("cwd").asText();
      case "user", "assistant" -> shortText(text(node.path("message")));
      case "thinking" -> shortText(node.path("text").asText(""));
      case "tool_call" -> tool(node.path("tool_call"));
      case "result" -> (node.path("is_error").asBoolean() ? "error " : "")
          + node.path("duration_ms").asText("") + "ms " + shortText(node.path("result").asText(""));
      case "connection", "retry" -> "attempt " + node.path("attempt").asText("-");
      default -> "";
    };
    return String.format(Locale.ROOT, "%-22s %s", head, detail).stripTrailing();
  }

  private static String text(JsonNode message) {
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : message.path("content")) {
      sb.append(part.path("text").asText(""));
    }
    return sb.toString();
  }

  private static String tool(JsonNode toolCall) {
    Iterator<Map.Entry<String, JsonNode>> fields = toolCall.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> e = fields.next();
      if (e.getKey().endsWith("ToolCall") || e.getKey().equals("function")) {
        JsonNode result = e.getValue().path("result");
        // a rejected call's completion has no args; its result names the command or path
        String arg = argument(e.getValue().path("args"));
        if (arg.isEmpty()) {
          arg = argument(result.path("rejected"));
        }
        if (arg.isEmpty()) {
          arg = e.getValue().path("name").asText("");
        }
        String outcome = result.has("rejected") ? " (rejected)"
            : result.has("error") ? " (error)" : result.has("spawnError") ? " (spawn error)" : "";
        return e.getKey() + (arg.isEmpty() ? "" : " " + shortText(arg)) + outcome;
      }
    }
    return "";
  }

  /** What a tool works on: its path, command, pattern or name, the first one present. */
  private static String argument(JsonNode args) {
    for (String key : new String[] {"path", "command", "globPattern", "pattern", "name"}) {
      if (args.path(key).isTextual()) {
        return args.path(key).asText();
      }
    }
    return "";
  }

  private static String shortText(String s) {
    String one = s.replace("\n", "\\n");
    return one.length() > 70 ? one.substring(0, 67) + "..." : one;
  }
}
