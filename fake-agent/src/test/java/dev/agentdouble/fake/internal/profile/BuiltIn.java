package dev.agentdouble.fake.internal.profile;

import java.util.ArrayList;
import java.util.List;

/** The built-in profiles, by name, for tests. */
public final class BuiltIn {
  private BuiltIn() {}

  public static final String CLI_2026_10 = "2026.10";
  public static final String DOCUMENTED = "documented";

  /**
   * The options the real CLI accepts but leaves out of its help (reference/cursor-cli.md part 3),
   * which every built-in tree accepts.
   */
  public static final List<String> HIDDEN =
      List.of(
          "--new-session-id <uuidv4>",
          "--show-thinking",
          "--allowed-tools <tools>",
          "--exclude-tools <tools>",
          "--exclude-workspace-context",
          "--single-turn",
          "--printenv",
          "--background-shell-timeout <seconds>",
          "--conversation-history-file <file>",
          "--system-prompt <file>",
          "--auth-token <token>");

  public static Profile profile(String name) {
    return Profiles.builtIn(name).orElseThrow();
  }

  public static Profile.Surface surface(String name) {
    return profile(name).behaviour().surface();
  }

  public static CliCommand root(String name) {
    return surface(name).root();
  }

  /** The surface of every built-in profile. */
  static List<Profile.Surface> surfaces() {
    List<Profile.Surface> surfaces = new ArrayList<>();
    for (String name : Profiles.builtInNames()) {
      surfaces.add(surface(name));
    }
    return surfaces;
  }
}
