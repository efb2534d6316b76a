package dev.agentdouble.fake.internal.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A check a print run may make before it needs the server ({@link
 * dev.agentdouble.fake.internal.cursor.Checks}), by the name a profile's {@code checks} line gives
 * it; the line lists a version's checks in its order.
 */
public enum RunCheck {
  AUTH("auth"),
  API_KEY("api-key"),
  OUTPUT_FORMAT("output-format"),
  TRUST_GATE("trust-gate"),
  RESUME("resume"),
  NEW_SESSION_ID("new-session-id"),
  ALLOWED_TOOLS("allowed-tools"),
  CONVERSATION_HISTORY_FILE("conversation-history-file"),
  SYSTEM_PROMPT("system-prompt"),
  PROMPT("prompt"),
  MODEL("model");

  /** Every check's name, in declaration order: what a message offers. */
  public static final List<String> NAMES;

  static {
    List<String> names = new ArrayList<>();
    for (RunCheck c : values()) {
      names.add(c.checkName);
    }
    NAMES = List.copyOf(names);
  }

  private final String checkName;

  RunCheck(String checkName) {
    this.checkName = checkName;
  }

  /** The check a {@code checks} line names {@code name}. */
  public static Optional<RunCheck> named(String name) {
    for (RunCheck c : values()) {
      if (c.checkName.equals(name)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
