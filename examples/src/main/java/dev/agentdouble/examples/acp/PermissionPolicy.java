package dev.agentdouble.examples.acp;

/**
 * How the client answers the agent's permission requests: an editor asks its user, an orchestrator
 * applies rules. Called on a thread of the client's own, so it may block (a dialog); a policy that
 * throws answers the request with an error.
 */
@FunctionalInterface
public interface PermissionPolicy {

  /**
   * The kinds of answer ACP defines; the client picks the option of that kind the agent offered.
   */
  enum Choice {
    ALLOW_ONCE,
    ALLOW_ALWAYS,
    REJECT_ONCE,
    REJECT_ALWAYS
  }

  Choice decide(PermissionRequest request);

  /** Allows each request once. */
  static PermissionPolicy allowOnce() {
    return request -> Choice.ALLOW_ONCE;
  }

  /** Rejects each request once: the default, as nothing runs that nobody allowed. */
  static PermissionPolicy rejectOnce() {
    return request -> Choice.REJECT_ONCE;
  }
}
