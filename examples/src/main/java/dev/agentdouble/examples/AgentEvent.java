package dev.agentdouble.examples;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;

/**
 * One event of the CLI's {@code stream-json} output. Fields the CLI adds over time are ignored;
 * event types this client does not know become {@link Unknown}, so a newer CLI never breaks it.
 */
public sealed interface AgentEvent {

  /** {@code system/init}: the first event of a run. */
  record SystemInit(
      String sessionId, String model, String cwd, String apiKeySource, String permissionMode)
      implements AgentEvent {}

  /** {@code user}: the prompt, as the agent received it. */
  record UserMessage(String text) implements AgentEvent {}

  /**
   * {@code assistant}: a piece of the answer (a whole segment, or a delta when streaming partial
   * output).
   */
  record AssistantText(String text) implements AgentEvent {}

  /** {@code thinking/delta}: a piece of the model's reasoning. */
  record ThinkingDelta(String text) implements AgentEvent {}

  /**
   * {@code tool_call/started}.
   *
   * @param tool the tool's kind as the CLI names it, e.g. {@code readToolCall}, {@code
   *     shellToolCall}
   * @param args its arguments; a missing node when the CLI sent none
   */
  record ToolCallStarted(String callId, String tool, JsonNode args) implements AgentEvent {}

  /**
   * {@code tool_call/completed}, correlated with its start by {@code callId}.
   *
   * @param result e.g. {@code {"success":{...}}} or {@code {"rejected":{...}}}
   */
  record ToolCallCompleted(String callId, String tool, JsonNode args, JsonNode result)
      implements AgentEvent {
    /** {@code success}, {@code rejected}, {@code error}, ...: the result's only key. */
    public String outcome() {
      Iterator<String> names = result.fieldNames();
      return names.hasNext() ? names.next() : "unknown";
    }
  }

  /** {@code result}: the terminal event of a run that succeeded. */
  record Result(String subtype, boolean isError, String text, long durationMs, String sessionId)
      implements AgentEvent {}

  /**
   * Any other event ({@code thinking/completed}, {@code connection}, {@code retry}, ...), kept
   * whole.
   */
  record Unknown(String type, String subtype, JsonNode raw) implements AgentEvent {}
}
