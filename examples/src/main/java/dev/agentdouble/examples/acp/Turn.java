package dev.agentdouble.examples.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A prompt in progress. Updates reach the listener (on the client's reader thread) as the agent
 * sends them; {@link #updates()} shows those seen so far; {@link #await()} gives the outcome;
 * {@link #cancel()} asks the agent to stop. Closing it cancels the turn if it is still running.
 */
public final class Turn implements AutoCloseable {
  private final AgentLink client;
  private final String sessionId;
  private final String prompt;
  private final Consumer<AcpUpdate> listener;
  private final long deadline;
  private final List<AcpUpdate> updates = new ArrayList<>();
  private final Map<String, Call> calls = new LinkedHashMap<>();
  private final Map<String, String> permissions = new HashMap<>();
  private volatile CompletableFuture<AcpSchema.PromptResponse> response;
  private volatile boolean cancelled;
  private volatile RuntimeException listenerFailure;

  /** A tool call as its updates left it so far. */
  private static final class Call {
    final String id;
    String title = "";
    String kind = "";
    String status = "";
    JsonNode rawInput = Updates.tree(null);
    Optional<JsonNode> rawOutput = Optional.empty();

    Call(String id) {
      this.id = id;
    }
  }

  Turn(AgentLink client, String sessionId, String prompt, Consumer<AcpUpdate> listener) {
    this.client = client;
    this.sessionId = sessionId;
    this.prompt = prompt;
    this.listener = listener;
    this.deadline = System.nanoTime() + client.turnTimeout().toNanos();
  }

  void send() {
    response = client.prompt(sessionId, prompt);
  }

  public String prompt() {
    return prompt;
  }

  /** The updates of this turn so far, in order. */
  public List<AcpUpdate> updates() {
    synchronized (this) {
      return List.copyOf(updates);
    }
  }

  /** The answer so far: the message chunks, joined. */
  public String text() {
    return join(AcpUpdate.Message.class);
  }

  /** The tool calls so far, in the order they started. */
  public List<AcpToolCall> toolCalls() {
    synchronized (this) {
      List<AcpToolCall> all = new ArrayList<>();
      for (Call c : calls.values()) {
        all.add(
            new AcpToolCall(
                c.id,
                c.title,
                c.kind,
                c.status,
                c.rawInput,
                c.rawOutput,
                Optional.ofNullable(permissions.get(c.id))));
      }
      return all;
    }
  }

  /**
   * Asks the agent to stop ({@code session/cancel}); the turn then ends with {@link
   * StopReason#CANCELLED}, and permission requests still to come are answered cancelled.
   */
  public void cancel() {
    if (!done()) {
      cancelled = true;
      client.cancel(sessionId);
    }
  }

  /**
   * Waits for the turn to end (at most the client's turn timeout, counted from the prompt).
   *
   * @throws AcpAgentException when the agent answered the prompt with an error, died, or did not
   *     end the turn in time (the turn is cancelled then, and waited for up to the request timeout)
   * @throws RuntimeException what the listener threw, once the turn has ended
   */
  public TurnResult await() throws InterruptedException {
    AcpSchema.PromptResponse answer;
    try {
      answer =
          client.await(
              AcpSchema.METHOD_SESSION_PROMPT,
              response,
              Duration.ofNanos(Math.max(1, deadline - System.nanoTime())),
              client.turnTimeout(),
              this::updates);
    } catch (AcpAgentException e) {
      if (e.kind() == AcpAgentException.Kind.TIMED_OUT) {
        // the turn is cancelled, and given a moment to end, so that the session takes a next one
        cancel();
        try {
          response.get(client.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException stillRunning) {
          // the agent did not end it: the exception says the turn timed out all the same
        }
      }
      throw e;
    }
    if (listenerFailure != null) {
      throw listenerFailure;
    }
    return new TurnResult(
        stopReason(answer.stopReason()),
        text(),
        join(AcpUpdate.Thought.class),
        toolCalls(),
        updates());
  }

  /** Cancels the turn if it is still running. */
  @Override
  public void close() {
    cancel();
  }

  boolean done() {
    CompletableFuture<AcpSchema.PromptResponse> r = response;
    return r != null && r.isDone();
  }

  boolean cancelled() {
    return cancelled;
  }

  void answered(String toolCallId, String optionId) {
    synchronized (this) {
      permissions.put(toolCallId, optionId);
    }
  }

  void updated(AcpUpdate update) {
    synchronized (this) {
      updates.add(update);
      if (update instanceof AcpUpdate.ToolCallStarted started) {
        Call call = calls.computeIfAbsent(started.id(), Call::new);
        call.title = started.title();
        call.kind = started.kind();
        call.status = started.status();
        call.rawInput = started.rawInput();
      } else if (update instanceof AcpUpdate.ToolCallUpdated updated) {
        // an update may come without its tool_call: it still counts
        Call call = calls.computeIfAbsent(updated.id(), Call::new);
        updated.status().ifPresent(s -> call.status = s);
        if (updated.rawOutput().isPresent()) {
          call.rawOutput = updated.rawOutput();
        }
      }
    }
    if (listenerFailure == null) {
      try {
        listener.accept(update);
      } catch (RuntimeException e) {
        listenerFailure = e;
      }
    }
  }

  private String join(Class<? extends AcpUpdate> kind) {
    StringBuilder text = new StringBuilder();
    for (AcpUpdate update : updates()) {
      if (kind.isInstance(update)) {
        text.append(
            update instanceof AcpUpdate.Message m ? m.text() : ((AcpUpdate.Thought) update).text());
      }
    }
    return text.toString();
  }

  private static StopReason stopReason(AcpSchema.StopReason reason) {
    if (reason == null) {
      // a reason the SDK does not know: the turn ended all the same
      return StopReason.END_TURN;
    }
    return StopReason.valueOf(reason.name());
  }
}
