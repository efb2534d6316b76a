package dev.agentdouble.recorder.internal;

/**
 * A command that was understood but could not be done (a file that cannot be read or written);
 * reported as {@code agentdouble: message} with exit status 1.
 */
public final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  CommandFailure(String message) {
    super(message);
  }
}
