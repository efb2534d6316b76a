package dev.agentdouble.examples.acp;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A tool the agent called in a turn, as its {@code tool_call} and later updates left it.
 *
 * @param id the {@code toolCallId}
 * @param title e.g. {@code `npm test`} for a shell command
 * @param kind ACP's tool kind, e.g. {@code execute}, {@code read}
 * @param status the last status: {@code pending}, {@code in_progress}, {@code completed} or {@code
 *     failed}
 * @param rawInput the tool's input; a missing node if the agent sent none
 * @param rawOutput the tool's output, once an update carried one
 * @param permission the option this client chose when the agent asked permission for it
 */
public record AcpToolCall(
    String id,
    String title,
    String kind,
    String status,
    JsonNode rawInput,
    Optional<JsonNode> rawOutput,
    Optional<String> permission) {

  /** Whether the tool ran to its end. */
  public boolean completed() {
    return status.equals("completed");
  }
}
