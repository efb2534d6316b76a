package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.fake.internal.cli.Answer;
import dev.agentdouble.json.JsonSlice;
import java.util.Optional;

/**
 * What the client's response to the agent's {@code session/request_permission} means, as ACP
 * defines it (agentclientprotocol.com, Tool Calls, "Requesting Permission"): a result whose {@code
 * outcome} is {@code selected} with an {@code optionId}, or {@code cancelled}. Only {@code
 * allow-once} and {@code allow-always} let the tool run: an id the agent did not offer is not an
 * approval. {@code cancelled} ends the turn {@code cancelled} (ACP, Prompt Turn, "Cancellation").
 * Anything else (a JSON-RPC error, a result that is no outcome) ends the wait as a Node agent on
 * the ACP SDK ends it, whose awaited request rejects or whose result cannot be read: the prompt's
 * handler throws, and the prompt is answered {@code -32603 "Internal error"} with the reason in
 * {@code data.details}.
 */
final class AcpPermission {
  private AcpPermission() {}

  /**
   * A response that ends the turn with an error: the prompt is answered {@code -32603} with {@code
   * agentdouble: } and {@link #getMessage()} as {@code data.details}, which stderr says too.
   */
  static final class Failed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Failed(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * An answer as the journal names it ({@link PermissionAnswer#optionId}), and why it fails the
   * turn, when it does.
   */
  record Answer(String name, Optional<String> failure) {
    /** Whether the tool may run. */
    boolean allows() {
      return name.equals(CursorAcp.ALLOW_ONCE) || name.equals(CursorAcp.ALLOW_ALWAYS);
    }

    boolean cancelled() {
      return name.equals(PermissionAnswer.CANCELLED);
    }
  }

  /** The agent's own answer for a request its turn stopped waiting for (the turn was cancelled). */
  static final Answer CANCELLED_BY_THE_CLIENT =
      new Answer(PermissionAnswer.CANCELLED, Optional.empty());

  /** What {@code reply}, the client's response to request {@code id}, answers. */
  static Answer read(long id, AcpWire.Message reply) {
    JsonSlice m = reply.slice();
    JsonSlice error = m.get("error");
    if (!error.isMissing()) {
      return failed(
          PermissionAnswer.ERROR,
          id,
          "the client answered with the error " + abbreviate(error.raw()));
    }
    JsonSlice result = m.get("result");
    JsonSlice outcome = result.get("outcome");
    if (!result.isObject() || !outcome.isObject()) {
      return failed(
          PermissionAnswer.INVALID,
          id,
          "the client's result " + abbreviate(result.raw()) + " has no \"outcome\" object");
    }
    JsonSlice kind = outcome.get("outcome");
    if (kind.isString() && kind.asText().equals("cancelled")) {
      return CANCELLED_BY_THE_CLIENT;
    }
    if (kind.isString() && kind.asText().equals("selected")) {
      JsonSlice option = outcome.get("optionId");
      if (option.isString() && !option.asText().isEmpty()) {
        return new Answer(option.asText(), Optional.empty());
      }
      return failed(
          PermissionAnswer.INVALID,
          id,
          "the client's outcome " + abbreviate(outcome.raw()) + " has no \"optionId\"");
    }
    return failed(
        PermissionAnswer.INVALID,
        id,
        "the client's outcome "
            + abbreviate(outcome.raw())
            + " is neither \"selected\" nor \"cancelled\"");
  }

  private static Answer failed(String name, long id, String problem) {
    return new Answer(
        name,
        Optional.of(
            "session/request_permission (id "
                + id
                + "): "
                + problem
                + "; the turn fails: answer {\"outcome\":{\"outcome\":\"selected\",\"optionId\":ID}}"
                + " with an offered ID, or {\"outcome\":{\"outcome\":\"cancelled\"}}"));
  }

  /** A client's value in a message: its first 100 characters. */
  private static String abbreviate(String raw) {
    return raw.length() <= 100 ? raw : raw.substring(0, 100) + "...";
  }
}
