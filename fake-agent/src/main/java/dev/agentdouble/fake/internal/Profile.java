package dev.agentdouble.fake.internal;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TextStyle;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the fake CLI says about itself and its account: the answers of {@code --version}, {@code
 * status}, {@code models}, {@code about}, and the defaults of a run.
 *
 * <p>Chosen by {@code AGENTDOUBLE_PROFILE}: a built-in name ({@value #CLI_2026_10}, the default:
 * the newest real CLI, or {@value #DOCUMENTED}: the vendor's page) or the path of a JSON file.
 * Every field of the file is optional; the rest come from the built-in named by {@code "base"}
 * ({@value #CLI_2026_10} when absent):
 *
 * <pre>{@code
 * {"base": "2026.10", "version": "2026.10.01-e373342", "loggedIn": true,
 *  "email": "dev@example.com", "defaultOutputFormat": "text", "textStyle": "final",
 *  "model": "Auto", "models": [{"id": "auto", "name": "Auto"}], "about": "About Cursor CLI\n...",
 *  "trustGate": true, "apiKeyValid": true}
 * }</pre>
 *
 * @param name the built-in's name, or the file as given
 * @param version the line {@code --version} prints, e.g. {@code 2026.10.01-e373342}
 * @param loggedIn whether the account is logged in
 * @param email the account's e-mail address
 * @param defaultOutputFormat the format of a print run without {@code --output-format}
 * @param textStyle how {@code --output-format text} renders
 * @param model the display name of the account's default model, e.g. {@code Auto}
 * @param catalog the account's models: what {@code models} lists and {@code --model} accepts
 * @param about the verbatim text {@code about} prints; empty to build it from the other fields
 * @param behaviour how this version of the CLI behaves where versions differ
 * @param apiKeyValid whether an API key given with {@code --api-key} or {@code CURSOR_API_KEY} is
 *     accepted; false plays the CLI's invalid-key warning
 */
public record Profile(
    String name,
    String version,
    boolean loggedIn,
    String email,
    OutputFormat defaultOutputFormat,
    TextStyle textStyle,
    String model,
    ModelCatalog catalog,
    Optional<String> about,
    Behaviour behaviour,
    boolean apiKeyValid) {

  /** The environment variable that names the profile. */
  public static final String ENV = FakeEnvironment.PROFILE;

  /** The built-in profile that follows the vendor's documentation; the default. */
  public static final String DOCUMENTED = "documented";

  /** The built-in profile that behaves as the 2026.10 CLI does. */
  public static final String CLI_2026_10 = "2026.10";

  /** A model {@code models} lists: {@code <id> - <name>}. */
  public record Model(String id, String name) {
    public Model {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * The surface of one CLI version: which command tree, help text, subcommand shapes and validation
   * messages it has. A new CLI version is a new constant here and a new profile.
   */
  public enum Surface {
    /** The vendor's documentation page: {@code stream-json} by default, no trust gate. */
    DOCUMENTED,
    /** The 2026.10.01 CLI as observed ({@code reference/cursor-cli.md} parts 2 and 3). */
    CLI_2026_10
  }

  /** What a print run does with a stdin pipe that is left open. */
  public enum StdinRule {
    /** Reads stdin to its end before running (2026.01 and the documented behaviour). */
    READ_BEFORE_RUN,
    /**
     * With a prompt in argv, runs at once and does not exit until stdin ends (2026.09 and later);
     * without one, reads stdin to its end for the prompt first.
     */
    RUN_THEN_AWAIT_EOF
  }

  /**
   * Everything that differs between CLI versions, in one place.
   *
   * @param surface the command tree, help and messages
   * @param trustGate whether a print run in an untrusted workspace stops at the trust gate
   * @param authFirst whether authentication is checked before the output format, the prompt and the
   *     model are validated
   * @param stdin what a print run does with a stdin pipe left open
   */
  public record Behaviour(Surface surface, boolean trustGate, boolean authFirst, StdinRule stdin) {
    public Behaviour {
      Objects.requireNonNull(surface, "surface");
      Objects.requireNonNull(stdin, "stdin");
    }

    /** The vendor page's CLI. */
    public static final Behaviour DOCUMENTED =
        new Behaviour(Surface.DOCUMENTED, false, false, StdinRule.READ_BEFORE_RUN);

    /** The 2026.10 CLI. */
    public static final Behaviour CLI_2026_10 =
        new Behaviour(Surface.CLI_2026_10, true, true, StdinRule.RUN_THEN_AWAIT_EOF);

    /** This behaviour with the trust gate on or off. */
    public Behaviour withTrustGate(boolean on) {
      return new Behaviour(surface, on, authFirst, stdin);
    }
  }

  /** A profile whose API keys are accepted. */
  public Profile(
      String name,
      String version,
      boolean loggedIn,
      String email,
      OutputFormat defaultOutputFormat,
      TextStyle textStyle,
      String model,
      List<Model> models,
      Optional<String> about,
      Behaviour behaviour) {
    this(
        name,
        version,
        loggedIn,
        email,
        defaultOutputFormat,
        textStyle,
        model,
        models,
        about,
        behaviour,
        true);
  }

  /**
   * A profile listing {@code models}, the one named {@code model} current and the default, without
   * variants.
   */
  public Profile(
      String name,
      String version,
      boolean loggedIn,
      String email,
      OutputFormat defaultOutputFormat,
      TextStyle textStyle,
      String model,
      List<Model> models,
      Optional<String> about,
      Behaviour behaviour,
      boolean apiKeyValid) {
    this(
        name,
        version,
        loggedIn,
        email,
        defaultOutputFormat,
        textStyle,
        model,
        ModelCatalog.of(models, model),
        about,
        behaviour,
        apiKeyValid);
  }

  public Profile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(email, "email");
    Objects.requireNonNull(defaultOutputFormat, "defaultOutputFormat");
    Objects.requireNonNull(textStyle, "textStyle");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(catalog, "catalog");
    Objects.requireNonNull(about, "about");
    Objects.requireNonNull(behaviour, "behaviour");
  }

  /** What {@code models} and {@code --list-models} list, in order. */
  public List<Model> models() {
    return catalog.listed();
  }

  /**
   * The profile {@code env} names in {@value #ENV}: a built-in name or a JSON file; the {@value
   * #CLI_2026_10} profile when unset or empty.
   *
   * @throws ProfileException when the file cannot be read or is not a valid profile
   */
  public static Profile load(Map<String, String> env) throws ProfileException {
    String value = env.get(ENV);
    if (value == null || value.isEmpty()) {
      return cli202610();
    }
    Optional<Profile> builtIn = builtIn(value);
    if (builtIn.isPresent()) {
      return builtIn.get();
    }
    return read(value);
  }

  /** The built-in profile of this name, if there is one. */
  public static Optional<Profile> builtIn(String name) {
    switch (name) {
      case DOCUMENTED:
        return Optional.of(documented());
      case CLI_2026_10:
        return Optional.of(cli202610());
      default:
        return Optional.empty();
    }
  }

  /** The vendor page's contract: stream-json unless asked otherwise, no trust gate. */
  public static Profile documented() {
    return new Profile(
        DOCUMENTED,
        "2026.10.01-e373342",
        true,
        "dev@example.com",
        OutputFormat.STREAM_JSON,
        TextStyle.ACTIONS,
        "Auto",
        ModelCatalog.resource("models-documented.txt"),
        Optional.empty(),
        Behaviour.DOCUMENTED,
        true);
  }

  /** The default profile: the newest real CLI, 2026.10 (text by default, the trust gate). */
  public static Profile cli202610() {
    return new Profile(
        CLI_2026_10,
        "2026.10.01-e373342",
        true,
        "dev@example.com",
        OutputFormat.TEXT,
        TextStyle.FINAL,
        "Auto",
        ModelCatalog.resource("models-2026.10.txt"),
        Optional.empty(),
        Behaviour.CLI_2026_10,
        true);
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
