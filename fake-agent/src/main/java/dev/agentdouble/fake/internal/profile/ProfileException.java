package dev.agentdouble.fake.internal.profile;

/**
 * A profile that cannot be used. The message names the file and the problem, e.g. {@code
 * profiles/ci.json: line 3: "loggedIn" must be true or false}; print it as {@code agentdouble:
 * <message>} and exit 70.
 */
public final class ProfileException extends Exception {
  private static final long serialVersionUID = 1L;

  ProfileException(String source, String problem) {
    super(source + ": " + problem, null, false, false);
  }
}
