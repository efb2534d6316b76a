package dev.agentdouble.fake.internal.profile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The built-in profiles, by name, for tests. */
public final class BuiltIn {
  private BuiltIn() {}

  public static final String CLI_2026_10 = "2026.10";
  public static final String DOCUMENTED = "documented";
  public static final String CLI_2026_09 = "2026.09";

  /**
   * Where the whole files of the built-ins that now name a base are kept, as they were before
   * (profile-2026.09.txt was a copy of 2026.10's with its differences): what their profiles must
   * still be.
   */
  static final Path WHOLE_FILES = Path.of("src/test/resources/profile-before-base");

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

  /**
   * The built-in profile {@code name} as its whole file gave it before it named a base: the kept
   * copy in {@link #WHOLE_FILES}, else its resource, which must then name no base.
   */
  public static Profile wholeFile(String name) {
    Path kept = WHOLE_FILES.resolve("profile-" + name + ".txt");
    List<ProfileLine> top;
    try {
      top =
          Files.exists(kept)
              ? ProfileResource.parse(kept.getFileName().toString(), Files.readString(kept))
              : ProfileResource.parse(
                  name,
                  new String(
                      PackageResource.read("profile-" + name + ".txt"), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (ProfileLine n : top) {
      if (n.key().equals(ProfileOverlay.BASE)) {
        throw new AssertionError(name + " names a base and has no whole file in " + WHOLE_FILES);
      }
    }
    return ProfileResource.profile(name, top);
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
