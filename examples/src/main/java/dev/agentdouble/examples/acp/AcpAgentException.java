package dev.agentdouble.examples.acp;

import java.util.List;
import java.util.OptionalInt;

/** The agent could not do what the client asked: what went wrong, and what it sent until then. */
public final class AcpAgentException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** How it failed. */
  public enum Kind {
    /** {@code authenticate} failed: the account is not logged in ({@code agent login}). */
    AUTH_FAILED,
    /** The agent answered a request with a JSON-RPC error. */
    ERROR,
    /** The agent process ended while the client waited for it (a crash, a kill). */
    DIED,
    /** The agent did not answer within the client's timeout. */
    TIMED_OUT
  }

  private final Kind kind;
  private final transient OptionalInt errorCode;
  private final String details;
  private final transient OptionalInt exitCode;
  private final String stderr;
  private final transient List<AcpUpdate> updates;

  AcpAgentException(
      Kind kind,
      String message,
      OptionalInt errorCode,
      String details,
      OptionalInt exitCode,
      String stderr,
      List<AcpUpdate> updates) {
    super(message);
    this.kind = kind;
    this.errorCode = errorCode;
    this.details = details;
    this.exitCode = exitCode;
    this.stderr = stderr;
    this.updates = List.copyOf(updates);
  }

  public Kind kind() {
    return kind;
  }

  /** The JSON-RPC error's code, e.g. -32603, when the agent answered with one. */
  public OptionalInt errorCode() {
    return errorCode;
  }

  /** The JSON-RPC error's {@code data.details} (or message); empty when there was no error. */
  public String details() {
    return details;
  }

  /** The agent's exit code once it ended: 128 + n when it died by signal n. */
  public OptionalInt exitCode() {
    return exitCode;
  }

  /** What the agent wrote on stderr (at most the last 64 KiB). */
  public String stderr() {
    return stderr;
  }

  /** The updates of the turn before it failed; empty outside a turn. */
  public List<AcpUpdate> updates() {
    return updates;
  }
}
