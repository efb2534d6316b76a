package dev.agentdouble.examples.acp;

import java.util.List;

/**
 * A turn that ended: the {@code session/prompt} response and what the agent sent until then.
 *
 * @param stopReason why it ended
 * @param text the answer: every {@code agent_message_chunk}, joined
 * @param thoughts the reasoning: every {@code agent_thought_chunk}, joined
 * @param toolCalls the tools the agent called, in the order they started
 * @param updates every update of the turn, in order
 */
public record TurnResult(
    StopReason stopReason,
    String text,
    String thoughts,
    List<AcpToolCall> toolCalls,
    List<AcpUpdate> updates) {

  public TurnResult {
    toolCalls = List.copyOf(toolCalls);
    updates = List.copyOf(updates);
  }
}
