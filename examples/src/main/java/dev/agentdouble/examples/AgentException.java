package dev.agentdouble.examples;

import java.time.Duration;
import java.util.List;

/** A run of the agent that did not succeed: what went wrong, and what the CLI said until then. */
public final class AgentException extends RuntimeException {

  /** How a run failed. */
  public enum Kind {
    /** The CLI exited with a non-zero code (not logged in, usage limit, network, ...). */
    FAILED,
    /** The CLI died by a signal it was sent by someone else (out of memory, a crash, ...). */
    KILLED,
    /** The CLI did not finish within the client's timeout; the client killed it. */
    TIMED_OUT,
    /** The CLI exited 0 but its output ended without a result. */
    NO_RESULT
  }

  /** Messages on stderr that no retry fixes. */
  private static final List<String> PERMANENT =
      List.of(
          "Authentication required",
          "usage limit",
          "Cannot use this model",
          "unknown option",
          "error: option",
          "Workspace Trust Required");

  private final Kind kind;
  private final int exitCode;
  private final String stderr;
  private final List<AgentEvent> events;

  AgentException(Kind kind, String message, int exitCode, String stderr, List<AgentEvent> events) {
    super(message);
    this.kind = kind;
    this.exitCode = exitCode;
    this.stderr = stderr;
    this.events = List.copyOf(events);
  }

  static AgentException failed(int exitCode, String stderr, List<AgentEvent> events) {
    return new AgentException(
        Kind.FAILED,
        "cursor-agent failed with exit code " + exitCode + ": " + firstLine(stderr),
        exitCode,
        stderr,
        events);
  }

  static AgentException killed(int exitCode, String stderr, List<AgentEvent> events) {
    return new AgentException(
        Kind.KILLED,
        "cursor-agent was killed by signal " + (exitCode - 128) + " after " + count(events),
        exitCode,
        stderr,
        events);
  }

  static AgentException timedOut(
      Duration timeout, int exitCode, String stderr, List<AgentEvent> events) {
    return new AgentException(
        Kind.TIMED_OUT,
        "cursor-agent did not finish within "
            + timeout.toMillis()
            + "ms and was killed after "
            + count(events),
        exitCode,
        stderr,
        events);
  }

  static AgentException noResult(int exitCode, String stderr, List<AgentEvent> events) {
    return new AgentException(
        Kind.NO_RESULT,
        "cursor-agent exited with "
            + exitCode
            + " but its output had no result, after "
            + count(events),
        exitCode,
        stderr,
        events);
  }

  public Kind kind() {
    return kind;
  }

  /** The CLI's exit code; 128 + n when it died by signal n (also when the client killed it). */
  public int exitCode() {
    return exitCode;
  }

  /** What the CLI wrote on stderr (at most the last 64 KiB). */
  public String stderr() {
    return stderr;
  }

  /** The events the CLI sent before it failed. */
  public List<AgentEvent> events() {
    return events;
  }

  /** Whether running again may help: not when the account or the command line is the problem. */
  public boolean retryable() {
    return kind != Kind.FAILED || PERMANENT.stream().noneMatch(stderr::contains);
  }

  private static String firstLine(String stderr) {
    return stderr.lines().filter(l -> !l.isBlank()).findFirst().orElse("(nothing on stderr)");
  }

  private static String count(List<AgentEvent> events) {
    return events.size() + (events.size() == 1 ? " event" : " events");
  }
}
