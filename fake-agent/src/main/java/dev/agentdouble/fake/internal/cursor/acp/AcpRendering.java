package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.event.Event;
import dev.agentdouble.event.EventLine;
import dev.agentdouble.fake.internal.run.Player;
import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.StdoutLines;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One turn of a stream-json run, played over ACP: each event becomes the {@code session/update}
 * notification Cursor sends for it, written on the wire at the event's time. Thinking deltas are
 * {@code agent_thought_chunk}s, assistant text {@code agent_message_chunk}s (text repeated after
 * partial-output deltas is sent once), a started tool call a {@code tool_call} (pending) and a
 * {@code tool_call_update} (in_progress), a completed one a {@code tool_call_update} (completed
 * with {@code rawOutput}, or failed). A shell command asks {@code session/request_permission}
 * first, unless the session runs with {@code --force}/{@code --yolo} or the client allowed the
 * program always; it runs only when allowed ({@link AcpPermission}). Lines that are not events go
 * out verbatim (a malformed line stays malformed); events with no ACP face (init, user, connection,
 * retry, unknown types) send nothing. A successful {@code result} ends the turn ({@link Finished}).
 * Stderr, gates and the ending are left to the {@link Player}.
 */
final class AcpRendering implements Player.Transform {
  /**
   * Asks the client whether a tool may run; throws {@link AcpPermission.Failed} for an answer that
   * fails the turn.
   */
  interface Asker {
    AcpPermission.Answer ask(String toolCall, String program);
  }

  /** Thrown out of the player when the client cancelled the turn. */
  static final class Cancelled extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Cancelled() {
      super("cancelled", null, false, false);
    }
  }

  /**
   * Thrown out of the player at a successful {@code result}: over ACP the turn ends there (the
   * prompt's response), whatever the process did after it (a CLI lingering after its result).
   */
  static final class Finished extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Finished() {
      super("finished", null, false, false);
    }
  }

  private final AcpWire wire;
  private final String sessionJson;
  private final Asker asker;
  private final Consumer<String> history;
  private final StdoutLines lines = new StdoutLines();
  private final Set<String> rejected = new HashSet<>();
  private volatile boolean cancelled;
  private Optional<String> error = Optional.empty();
  private int index;
  private long streamed;
  private StringBuilder streamedText = new StringBuilder();

  AcpRendering(AcpWire wire, String sessionId, Asker asker, Consumer<String> history) {
    this.wire = wire;
    this.sessionJson = JsonText.quote(sessionId);
    this.asker = asker;
    this.history = history;
  }

  void cancel() {
    cancelled = true;
  }

  boolean cancelled() {
    return cancelled;
  }

  /** The message of the run's last {@code error} event (a foreign error envelope), if any. */
  Optional<String> error() {
    return error;
  }

  @Override
  public List<Frame> next(Frame in) {
    if (cancelled) {
      throw new Cancelled();
    }
    List<Frame> out = new ArrayList<>(1);
    if (in instanceof Frame.Out || in instanceof Frame.OutBytes) {
      for (StdoutLines.Line line : lines.add(index, in)) {
        line(line);
      }
    } else if (in.terminal()) {
      lines.rest().ifPresent(this::line);
      out.add(in);
    } else {
      out.add(in);
    }
    index++;
    return out;
  }

  private void line(StdoutLines.Line line) {
    if (cancelled) {
      throw new Cancelled();
    }
    EventLine event;
    try {
      event = EventLine.parse(line.bytes());
    } catch (EventLine.NotAnEvent e) {
      byte[] bytes = line.bytes();
      wire.write(bytes, 0, bytes.length);
      if (line.terminated()) {
        wire.write(new byte[] {'\n'}, 0, 1);
      }
      return;
    }
    // A switch expression over the kind, not a switch over the type's string: a new Event.Kind does
    // not compile until it says here whether it has an ACP face.
    boolean rendered =
        switch (Event.Kind.of(event.type())) {
          case THINKING -> {
            thinking(event);
            yield true;
          }
          case ASSISTANT -> {
            assistant(event);
            yield true;
          }
          case TOOL_CALL -> {
            toolCall(event);
            yield true;
          }
          case RESULT -> {
            result(event);
            yield true;
          }
          case UNKNOWN -> {
            unknown(event);
            yield true;
          }
          case SYSTEM, USER, CONNECTION, RETRY, INTERACTION_QUERY -> false; // no ACP face
        };
  }

  private void thinking(EventLine event) {
    if (event.is("thinking", "delta")) {
      event
          .string("text")
          .filter(t -> !t.isEmpty())
          .ifPresent(t -> chunk("agent_thought_chunk", t));
    }
  }

  private void result(EventLine event) {
    if (!event.value("is_error").isTrue()) {
      throw new Finished();
    }
  }

  /**
   * A type the CLI does not write has no ACP face, except another agent's {@code
   * {"type":"error","message":..}} (the catalog's foreign error envelope), whose message the turn
   * reports.
   */
  private void unknown(EventLine event) {
    if (event.type().equals("error")) {
      error = event.string("message");
    }
  }

  private void assistant(EventLine event) {
    String text = event.messageText();
    if (event.has("timestamp_ms") && !event.has("model_call_id")) {
      streamed += text.length();
      streamedText.append(text);
      chunk("agent_message_chunk", text);
      return;
    }
    if (streamed > 0) {
      String deltas = streamedText.toString();
      streamed = 0;
      streamedText = new StringBuilder();
      if (text.startsWith(deltas)) {
        chunk("agent_message_chunk", text.substring(deltas.length()));
        return;
      }
    }
    chunk("agent_message_chunk", text);
  }

  private void chunk(String kind, String text) {
    if (text.isEmpty()) {
      return;
    }
    update(
        "{\"sessionUpdate\":\""
            + kind
            + "\",\"content\":{\"type\":\"text\",\"text\":"
            + JsonText.quote(text)
            + "}}");
  }

  private void update(String updateJson) {
    history.accept(updateJson);
    wire.send(
        AcpWire.notification(
            "session/update", "{\"sessionId\":" + sessionJson + ",\"update\":" + updateJson + "}"));
  }

  private void toolCall(EventLine event) {
    Optional<String> id = event.string("call_id");
    JsonSlice toolCall = event.value("tool_call");
    Optional<String> kindKey = kindKey(toolCall);
    if (id.isEmpty() || kindKey.isEmpty()) {
      return;
    }
    String callId = JsonText.quote(id.get());
    JsonSlice call = toolCall.get(kindKey.get());
    String kind = acpKind(kindKey.get());
    String title = JsonText.quote(title(kindKey.get(), call.get("args")));
    if (event.is("tool_call", "started")) {
      String rawInput = rawInput(kindKey.get(), call.get("args"));
      update(
          "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":"
              + callId
              + ",\"title\":"
              + title
              + ",\"kind\":\""
              + kind
              + "\",\"status\":\"pending\",\"rawInput\":"
              + rawInput
              + "}");
      update(
          "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":"
              + callId
              + ",\"status\":\"in_progress\"}");
      if (kindKey.get().equals("shellToolCall")) {
        String command = call.get("args").get("command").asText();
        String program = program(command);
        String request =
            "{\"toolCallId\":"
                + callId
                + ",\"title\":"
                + title
                + ",\"kind\":\""
                + kind
                + "\",\"status\":\"pending\",\"content\":[{\"type\":\"content\",\"content\":"
                + "{\"type\":\"text\",\"text\":"
                + JsonText.quote(CursorAcp.notInAllowlist(program))
                + "}}]}";
        AcpPermission.Answer answer = asker.ask(request, program);
        if (answer.cancelled()) {
          cancelled = true;
          throw new Cancelled();
        }
        if (!answer.allows()) {
          rejected.add(id.get());
          update(
              "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":"
                  + callId
                  + ",\"status\":\"failed\",\"rawOutput\":{\"rejected\":{\"command\":"
                  + JsonText.quote(command)
                  + ",\"reason\":\"Rejected by the user\"}}}");
        }
      }
      return;
    }
    if (event.is("tool_call", "completed") && !rejected.remove(id.get())) {
      JsonSlice result = call.get("result");
      boolean ok = result.has("success");
      update(
          "{\"sessionUpdate\":\"tool_call_update\",\"toolCallId\":"
              + callId
              + ",\"status\":\""
              + (ok ? "completed" : "failed")
              + "\",\"rawOutput\":"
              + rawOutput(kindKey.get(), result)
              + "}");
    }
  }

  /** The tool kind key of a {@code tool_call} object: the key ending in ToolCall, or function. */
  private static Optional<String> kindKey(JsonSlice toolCall) {
    for (String name : toolCall.names()) {
      if (name.endsWith("ToolCall") || name.equals("function")) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }

  /** ACP's tool kind for a stream-json tool: read, edit, delete, search, execute, fetch, other. */
  static String acpKind(String kindKey) {
    return switch (kindKey) {
      case "readToolCall" -> "read";
      case "editToolCall", "writeToolCall" -> "edit";
      case "deleteToolCall" -> "delete";
      case "globToolCall", "grepToolCall", "lsToolCall", "semSearchToolCall" -> "search";
      case "shellToolCall" -> "execute";
      case "webFetchToolCall", "fetchToolCall" -> "fetch";
      case "updateTodosToolCall" -> "think";
      default -> "other";
    };
  }

  /**
   * The title: a shell call's command in backticks, as Cursor titles it; for other tools (not yet
   * observed over ACP) what they act on.
   */
  static String title(String kindKey, JsonSlice args) {
    return switch (kindKey) {
      case "shellToolCall" -> "`" + args.get("command").asText() + "`";
      case "readToolCall" -> "Read " + args.get("path").asText();
      case "editToolCall", "writeToolCall" -> "Edit " + args.get("path").asText();
      case "deleteToolCall" -> "Delete " + args.get("path").asText();
      case "globToolCall" -> "Find " + args.get("globPattern").asText(args.get("pattern").asText());
      case "grepToolCall" -> "Grep " + args.get("pattern").asText();
      case "lsToolCall" -> "List " + args.get("path").asText();
      default ->
          kindKey.endsWith("ToolCall") ? kindKey.substring(0, kindKey.length() - 8) : kindKey;
    };
  }

  /** A shell call's input is its command, as Cursor sends it; other tools' args as recorded. */
  private static String rawInput(String kindKey, JsonSlice args) {
    if (kindKey.equals("shellToolCall")) {
      return "{\"command\":" + JsonText.quote(args.get("command").asText()) + "}";
    }
    return args.isMissing() ? "{}" : args.raw();
  }

  /** A shell call's output is its exit code, stdout and stderr; other tools' result as recorded. */
  private static String rawOutput(String kindKey, JsonSlice result) {
    JsonSlice success = result.get("success");
    if (kindKey.equals("shellToolCall") && success.isObject()) {
      return "{\"exitCode\":"
          + success.get("exitCode").asText("0")
          + ",\"stdout\":"
          + JsonText.quote(success.get("stdout").asText())
          + ",\"stderr\":"
          + JsonText.quote(success.get("stderr").asText())
          + "}";
    }
    if (success.isObject()) {
      return success.raw();
    }
    return result.isMissing() ? "{}" : result.raw();
  }

  /** The program a command runs: its first word. */
  static String program(String command) {
    String trimmed = command.strip();
    int end = 0;
    while (end < trimmed.length() && !Character.isWhitespace(trimmed.charAt(end))) {
      end++;
    }
    return trimmed.substring(0, end);
  }
}
