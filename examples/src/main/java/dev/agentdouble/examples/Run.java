package dev.agentdouble.examples;

import dev.agentdouble.examples.AgentEvent.Result;
import dev.agentdouble.examples.AgentEvent.SystemInit;
import dev.agentdouble.examples.AgentEvent.ToolCallCompleted;
import dev.agentdouble.examples.AgentEvent.ToolCallStarted;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run of the agent that succeeded.
 *
 * @param sessionId the session id, for {@code --resume}
 * @param text the final answer: the {@code result} event's text
 * @param toolCalls the tools the agent called, in the order they started
 * @param events every event, in order
 * @param exitCode the CLI's exit code: 0, or 137 when the CLI lingered after its result and the
 *     client stopped it
 * @param stderr what the CLI wrote on stderr (at most the last 64 KiB)
 * @param skippedLines stdout lines that were not JSON objects, skipped
 */
public record Run(
    String sessionId,
    String text,
    List<ToolCall> toolCalls,
    List<AgentEvent> events,
    int exitCode,
    String stderr,
    int skippedLines) {

  public Run {
    toolCalls = List.copyOf(toolCalls);
    events = List.copyOf(events);
  }

  static Run of(
      List<AgentEvent> events, Result result, int exitCode, String stderr, int skippedLines) {
    String sessionId = result.sessionId();
    Map<String, ToolCall> calls = new LinkedHashMap<>();
    for (AgentEvent event : events) {
      if (event instanceof SystemInit init && sessionId.isEmpty()) {
        sessionId = init.sessionId();
      } else if (event instanceof ToolCallStarted started) {
        calls.put(
            started.callId(),
            new ToolCall(started.callId(), started.tool(), started.args(), Optional.empty()));
      } else if (event instanceof ToolCallCompleted done) {
        // a completion may come without its start; the completion's args win when it has them
        ToolCall start = calls.get(done.callId());
        calls.put(
            done.callId(),
            new ToolCall(
                done.callId(),
                done.tool(),
                done.args().isMissingNode() && start != null ? start.args() : done.args(),
                Optional.of(done.result())));
      }
    }
    return new Run(
        sessionId,
        result.text(),
        new ArrayList<>(calls.values()),
        events,
        exitCode,
        stderr,
        skippedLines);
  }
}
