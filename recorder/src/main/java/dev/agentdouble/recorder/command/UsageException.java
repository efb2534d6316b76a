package dev.agentdouble.recorder.command;

/** A command line that cannot be run as given; reported with exit status 2. */
public final class UsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UsageException(String message) {
    super(message);
  }
}
