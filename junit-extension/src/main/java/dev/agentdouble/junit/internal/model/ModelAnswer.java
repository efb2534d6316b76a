package dev.agentdouble.junit.internal.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** One answer of the model API to one request of the CLI, as a {@link ModelScript} reads it. */
public sealed interface ModelAnswer {
  /** How long to wait before answering, in milliseconds, as the tape's times say. */
  long delayMs();

  /**
   * A model's message: {@code events} as the SSE stream sends them ({@code event:} name and {@code
   * data:} JSON each), {@code message} the whole message a non-streaming request gets.
   */
  record Message(long delayMs, String requestId, List<Event> events, ObjectNode message)
      implements ModelAnswer {}

  /** An HTTP error: its status and Anthropic's error JSON. */
  record Failure(long delayMs, int status, String requestId, ObjectNode body)
      implements ModelAnswer {}

  /**
   * A stream cut short: {@code events}, the beginning of a message, and no {@code message_stop};
   * the CLI takes it as a broken stream, as it does a connection closed mid-stream (an {@code
   * api_retry} line with no {@code error_status}), and counts the usage of its {@code
   * message_start}.
   */
  record Cut(long delayMs, List<Event> events) implements ModelAnswer {}

  /** One server-sent event. */
  record Event(String name, String data) {}
}
