package dev.agentdouble.examples.acp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * One {@code session/update} the agent sent. Kinds this client does not model (Cursor's {@code
 * session_info_update}, {@code available_commands_update}, kinds added later) are {@link Other},
 * kept whole, so a newer agent never breaks the client.
 */
public sealed interface AcpUpdate {

  /** {@code agent_thought_chunk}: a piece of the model's reasoning. */
  record Thought(String text) implements AcpUpdate {}

  /** {@code agent_message_chunk}: a piece of the answer. */
  record Message(String text) implements AcpUpdate {}

  /** {@code user_message_chunk}: a prompt of the session, as {@code session/load} replays it. */
  record UserMessage(String text) implements AcpUpdate {}

  /**
   * {@code tool_call}: the agent starts a tool.
   *
   * @param kind ACP's tool kind: {@code read}, {@code edit}, {@code execute}, {@code search}, ...
   * @param status {@code pending} as a rule
   * @param rawInput the tool's input, e.g. {@code {"command":"npm test"}}; a missing node if none
   */
  record ToolCallStarted(String id, String title, String kind, String status, JsonNode rawInput)
      implements AcpUpdate {}

  /**
   * {@code tool_call_update}: a tool's progress.
   *
   * @param status {@code in_progress}, {@code completed} or {@code failed}, when the update says
   * @param rawOutput the tool's output, when the update has it
   */
  record ToolCallUpdated(String id, Optional<String> status, Optional<JsonNode> rawOutput)
      implements AcpUpdate {}

  /** {@code current_mode_update}: the session's mode is now {@code modeId}. */
  record ModeChanged(String modeId) implements AcpUpdate {}

  /** Any other kind of update, kept whole. */
  record Other(String kind, JsonNode raw) implements AcpUpdate {}
}
