package dev.agentdouble.fake.internal.profile;

import dev.agentdouble.contract.AccountModels;
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
 * <p>Chosen by {@code AGENTDOUBLE_PROFILE}: the name of a built-in profile or the path of a JSON
 * file. A built-in profile is one CLI version, a resource of this package read by {@link
 * ProfileResource} ({@code profile-<name>.txt}: {@code 2026.10}, the default, the newest real CLI;
 * {@code 2026.09}; {@code documented}, the vendor's page). Every field of the file is optional; the
 * rest come from the built-in named by {@code "base"} (the default profile when absent):
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

  /**
   * The surface of one CLI version, as its profile resource gives it: the command tree, the order
   * of checks, the shapes of the subcommands' answers and the texts that differ between versions.
   * Code never asks which version this is: it reads these values.
   *
   * @param name the built-in profile it comes from, e.g. {@code 2026.10}
   * @param root the root command: every option with its arity, hidden options, subcommands
   * @param acp the hidden {@code acp} command, for its help ({@code agent acp --help})
   * @param checks what a print run checks before it needs the server, in order
   * @param prettyJson whether {@code status} and {@code about} print {@code --format json} as
   *     {@code JSON.stringify(value, null, 2)} (else on one line)
   * @param statusUserInfo the keys of {@code status --format json}'s {@code userInfo}, in order
   * @param statusSignedOut the {@code message} of {@code status --format json} without an account;
   *     empty for none
   * @param aboutLatest whether {@code about} shows the latest version ({@code Latest} row, {@code
   *     latestStatus} and {@code latestVersion})
   * @param messages the texts by key ({@code trust-required}, {@code models-tip}, ...)
   */
  public record Surface(
      String name,
      CliCommand root,
      CliCommand acp,
      List<RunCheck> checks,
      boolean prettyJson,
      List<String> statusUserInfo,
      Optional<String> statusSignedOut,
      boolean aboutLatest,
      Map<String, String> messages) {
    public Surface {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(root, "root");
      Objects.requireNonNull(acp, "acp");
      checks = List.copyOf(checks);
      statusUserInfo = List.copyOf(statusUserInfo);
      Objects.requireNonNull(statusSignedOut, "statusSignedOut");
      messages = Map.copyOf(messages);
    }

    /** The text {@code key} names; every profile has each key the fake asks for. */
    public String message(String key) {
      String text = messages.get(key);
      if (text == null) {
        throw new IllegalStateException("profile " + name + " has no message " + key);
      }
      return text;
    }
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

  /**
   * This profile for an account whose models are {@code declared} ({@link ModelCatalog#declared}).
   */
  public Profile withModels(AccountModels declared) {
    return new Profile(
        name,
        version,
        loggedIn,
        email,
        defaultOutputFormat,
        textStyle,
        model,
        catalog.declared(declared),
        about,
        behaviour,
        apiKeyValid);
  }

  /** What {@code models} and {@code --list-models} list, in order. */
  public List<Model> models() {
    return catalog.listed();
  }
}
