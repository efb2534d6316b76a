package dev.agentdouble.fake.internal.profile;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a {@link Profile} comes from: {@value Profile#ENV} names a built-in ({@link
 * ProfileResource}, one resource per CLI version) or a JSON file ({@link ProfileFile}).
 */
public final class Profiles {
  private Profiles() {}

  /**
   * The profile {@code env} names in {@value Profile#ENV}: a built-in name or a JSON file; the
   * default built-in profile when unset or empty.
   *
   * @throws ProfileException when the file cannot be read or is not a valid profile
   */
  public static Profile load(Map<String, String> env) throws ProfileException {
    String value = env.get(Profile.ENV);
    if (value == null || value.isEmpty()) {
      return byDefault();
    }
    Optional<Profile> builtIn = builtIn(value);
    if (builtIn.isPresent()) {
      return builtIn.get();
    }
    if (ClaudeProfile.isBuiltIn(value) && !Files.exists(Path.of(value))) {
      throw new ProfileException(
          Profile.ENV + "=" + value,
          "is a profile of claude, not of cursor-agent; cursor-agent takes "
              + String.join(", ", builtInNames())
              + ", or a profile file");
    }
    return read(value);
  }

  /** The built-in profile of this name, if there is one. */
  public static Optional<Profile> builtIn(String name) {
    return ProfileResource.load(name);
  }

  /** The default built-in profile: the newest real CLI. */
  public static Profile byDefault() {
    return ProfileResource.load(ProfileResource.defaultName()).orElseThrow();
  }

  /** The names of the built-in profiles, in order: what a message offers. */
  public static List<String> builtInNames() {
    return ProfileResource.names();
  }

  /**
   * The built-in profile, of either CLI, that the interpreter reads from the package's resource
   * {@code file}; null when the resource is no built-in profile. The build's step that compiles the
   * resources makes each one again from it ({@link ResourceCompiler}).
   */
  static Object interpretedResource(String file) {
    if (file.startsWith(ProfileResource.PREFIX) && file.endsWith(ProfileResource.SUFFIX)) {
      return ProfileResource.load(ProfileResource.stem(file)).orElse(null);
    }
    if (file.startsWith(ClaudeProfile.PREFIX) && file.endsWith(ClaudeProfile.SUFFIX)) {
      return ClaudeProfile.builtIn(ClaudeProfile.stem(file)).orElse(null);
    }
    return null;
  }

  /**
   * Reads a profile file. Only this path loads the JSON parser.
   *
   * @param file the path as the user gave it, used in messages
   */
  public static Profile read(String file) throws ProfileException {
    return ProfileFile.read(file);
  }
}
