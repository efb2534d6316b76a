package dev.agentdouble.fake.internal.cursor;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.fake.internal.cli.Answer;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.HelpText;
import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliOption;
import dev.agentdouble.fake.internal.profile.Model;
import dev.agentdouble.fake.internal.profile.ModelCatalog;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What the CLI answers when an invocation is not an agent run: {@code --version}, help, and the
 * subcommands, from the {@link Profile}; their shapes and texts are the profile's {@link
 * Profile.Surface}. Nothing here has a side effect: {@code login} and {@code logout} change no
 * state, {@code update} installs nothing, {@code install-shell-integration} writes no file.
 */
public final class Subcommands {
  private static final String NO_MCP_CONFIG =
      " not found in .cursor/mcp.json or" + " ~/.cursor/mcp.json\n";

  /**
   * The account fields {@code status --format json} shows besides the e-mail address. A profile has
   * no fields for them, so they are fixed, plausible values.
   */
  static final long USER_ID = 100200300L;

  static final String FIRST_NAME = "Dev";
  static final String LAST_NAME = "Example";
  static final String CREATED_AT = "2024-01-15T09:30:00.000Z";

  private Subcommands() {}

  /**
   * The answer to {@code args}, or empty when the invocation is an agent run (print mode or not)
   * that the replay engine plays. In order: {@code --version}; help; a subcommand; {@code
   * --list-models}. Both surfaces:
   *
   * <ul>
   *   <li>{@code -v/--version}: the profile's version line.
   *   <li>{@code -h/--help}, {@code help [command]}: commander's help of the command in the
   *       surface's command tree, its usage line always naming {@code agent}.
   *   <li>{@code status}/{@code whoami}: {@code ✓ Logged in as <email>} or {@code Not logged in},
   *       exit 0 either way; {@code --format json} below.
   *   <li>{@code create-chat}: a fresh random UUID.
   *   <li>{@code models}, {@code --list-models}: {@code Available models}, a blank line, one {@code
   *       <id> - <name>} line per model of the profile's {@link ModelCatalog}, the current one
   *       marked {@code (current, default)} or {@code (current)} and the default {@code (default)}
   *       (a listed {@code --model} is the current one), a blank line, a {@code Tip:} line. No
   *       models: {@code No models available for this account.} Not logged in: an authentication
   *       error, exit 1.
   *   <li>{@code about}: the profile's {@code about} text, or {@code About Cursor CLI} and aligned
   *       rows; {@code --format json} below.
   *   <li>{@code ls}, {@code resume}: the interactive picker cannot start without a terminal;
   *       stderr, exit 1.
   *   <li>{@code login}, {@code logout}, {@code update}: a plausible line, exit 0.
   *   <li>{@code mcp list}: no servers configured; {@code mcp login|list-tools|enable|disable
   *       <identifier>}: that server is not configured, exit 1.
   * </ul>
   *
   * <p>Where versions differ, the profile's surface says: {@code status --format json} and {@code
   * about --format json} on one line or pretty-printed as {@code JSON.stringify(value, null, 2)}
   * ({@code json}); the keys of status's {@code userInfo} ({@code status-user-info}: {@code email},
   * {@code userId}, {@code firstName}, {@code lastName}, {@code createdAt}) and its {@code message}
   * without an account ({@code status-signed-out-message}); whether about shows the latest version
   * ({@code about-latest}: {@code latestStatus} and {@code latestVersion} after {@code cliVersion},
   * a {@code Latest} row); the last line of {@code models} ({@code models-tip}) and its error
   * without an account ({@code models-signed-out}). Which commands exist is the profile's command
   * tree; of those beyond the documented ones:
   *
   * <ul>
   *   <li>{@code persist}, {@code plugin}, {@code team}, {@code bedrock}, {@code generate-rule}:
   *       interactive, so they fail as {@code ls} does without a terminal.
   *   <li>{@code install-shell-integration}, {@code uninstall-shell-integration}: a line saying it
   *       was done, exit 0, no file touched.
   *   <li>{@code worker}: not impersonated (a worker connects to Cursor and runs until stopped);
   *       AgentDouble's own problem, exit {@value dev.agentdouble.contract.ExitStatus#OWN_PROBLEM}.
   * </ul>
   */
  public static Optional<Answer> answer(CliArgs args, Profile profile) {
    if (args.version()) {
      return Optional.of(Answer.out(profile.version() + "\n"));
    }
    if (args.help()) {
      return Optional.of(Answer.out(HelpText.render(chain(args, profile))));
    }
    if (args.subcommand().isPresent()) {
      return Optional.of(subcommand(args, profile));
    }
    if (args.listModels()) {
      return Optional.of(models(args, profile));
    }
    return Optional.empty();
  }

  private static Answer subcommand(CliArgs args, Profile profile) {
    String name = args.subcommand().orElseThrow();
    switch (name) {
      case "status":
        return status(args, profile);
      case "create-chat":
        return Answer.out(UUID.randomUUID() + "\n");
      case "models":
        return models(args, profile);
      case "about":
        return about(args, profile);
      case "ls":
      case "resume":
      case "persist":
      case "plugin":
      case "team":
      case "bedrock":
      case "generate-rule":
        return Answer.fail(CursorMessages.RAW_MODE_UNSUPPORTED);
      case "login":
        return Answer.out(
            profile.loggedIn()
                ? "✓ Already logged in as " + profile.email() + "\n"
                : "Starting login process...\n✓ Login successful!\n");
      case "logout":
        return Answer.out(profile.loggedIn() ? "✓ Logged out successfully\n" : "Not logged in\n");
      case "update":
        return Answer.out("✓ Already up to date (" + profile.version() + ")\n");
      case "install-shell-integration":
        return Answer.out("✓ Shell integration installed to ~/.zshrc\n");
      case "uninstall-shell-integration":
        return Answer.out("✓ Shell integration removed from ~/.zshrc\n");
      case "worker":
        return new Answer(
            "",
            "agentdouble: 'agent worker' is not impersonated: a worker"
                + " connects to Cursor and runs tool calls until it is stopped\n",
            ExitStatus.OWN_PROBLEM);
      case "mcp":
        return mcp(args);
      default:
        throw new IllegalArgumentException("no answer for subcommand " + name);
    }
  }

  private static Answer status(CliArgs args, Profile profile) {
    boolean json = isJson(args);
    if (!json) {
      return Answer.out(
          profile.loggedIn() ? "✓ Logged in as " + profile.email() + "\n" : "Not logged in\n");
    }
    Profile.Surface surface = profile.behaviour().surface();
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("status", profile.loggedIn() ? "authenticated" : "unauthenticated");
    status.put("isAuthenticated", profile.loggedIn());
    status.put("hasAccessToken", profile.loggedIn());
    status.put("hasRefreshToken", profile.loggedIn());
    if (profile.loggedIn()) {
      Map<String, Object> user = new LinkedHashMap<>();
      for (String key : surface.statusUserInfo()) {
        user.put(key, userInfo(key, profile));
      }
      status.put("userInfo", user);
    } else if (surface.statusSignedOut().isPresent()) {
      status.put("message", surface.statusSignedOut().get());
    }
    return Answer.out(json(surface, status));
  }

  /** The value of the {@code userInfo} key {@code key}: the profile's e-mail or a fixed value. */
  private static Object userInfo(String key, Profile profile) {
    switch (key) {
      case "email":
        return profile.email();
      case "userId":
        return USER_ID;
      case "firstName":
        return FIRST_NAME;
      case "lastName":
        return LAST_NAME;
      case "createdAt":
        return CREATED_AT;
      default:
        throw new IllegalArgumentException("no value for the userInfo key " + key);
    }
  }

  /** {@code object} as the surface prints {@code --format json}: pretty or on one line. */
  private static String json(Profile.Surface surface, Map<String, Object> object) {
    return surface.prettyJson() ? pretty(object) : compact(object);
  }

  private static Answer models(CliArgs args, Profile profile) {
    Profile.Surface surface = profile.behaviour().surface();
    if (!profile.loggedIn()) {
      return Answer.fail(surface.message("models-signed-out"));
    }
    ModelCatalog catalog = profile.catalog();
    List<Model> listed = catalog.listed();
    if (listed.isEmpty()) {
      return Answer.out("No models available for this account.\n");
    }
    // a listed --model is the current one; otherwise the account's (a fresh account: the default)
    String current = catalog.current().orElse(null);
    if (args.model().isPresent()) {
      Optional<Model> chosen = catalog.resolve(args.model().get());
      if (chosen.isPresent() && listed.contains(chosen.get())) {
        current = chosen.get().id();
      }
    }
    String byDefault = catalog.byDefault().orElse(null);
    StringBuilder sb = new StringBuilder("Available models\n\n");
    for (Model m : listed) {
      boolean isCurrent = m.id().equals(current);
      boolean isDefault = m.id().equals(byDefault);
      sb.append(m.id()).append(" - ").append(m.name());
      if (isCurrent && isDefault) {
        sb.append(" (current, default)");
      } else if (isCurrent) {
        sb.append(" (current)");
      } else if (isDefault) {
        sb.append(" (default)");
      }
      sb.append('\n');
    }
    sb.append('\n').append(surface.message("models-tip")).append('\n');
    return Answer.out(sb.toString());
  }

  private static Answer about(CliArgs args, Profile profile) {
    Profile.Surface surface = profile.behaviour().surface();
    boolean latest = surface.aboutLatest();
    String platform = platform();
    String arch = arch();
    String tier = profile.loggedIn() ? "Pro" : "Unknown";
    if (isJson(args)) {
      Map<String, Object> about = new LinkedHashMap<>();
      about.put("cliVersion", profile.version());
      if (latest) {
        about.put("latestStatus", "up_to_date");
        about.put("latestVersion", profile.version());
      }
      about.put("model", profile.model());
      about.put("subscriptionTier", tier);
      about.put("osPlatform", platform);
      about.put("osArch", arch);
      about.put("userEmail", profile.loggedIn() ? profile.email() : null);
      about.put("terminalProgram", "unknown");
      about.put("shell", "unknown");
      about.put("lastRequestId", null);
      return Answer.out(json(surface, about));
    }
    if (profile.about().isPresent()) {
      String text = profile.about().get();
      return Answer.out(text.endsWith("\n") ? text : text + "\n");
    }
    return Answer.out(
        "About Cursor CLI\n\n"
            + row("CLI Version", profile.version())
            + (latest ? row("Latest", profile.version() + " (up to date)") : "")
            + row("Model", profile.model())
            + row("Subscription Tier", tier)
            + row("OS", platform + " (" + arch + ")")
            + row("Terminal", "unknown")
            + row("Shell", "unknown")
            + row("User Email", profile.loggedIn() ? profile.email() : "Not logged in"));
  }

  /**
   * {@code JSON.stringify(object, null, 2)} and a newline, for objects whose values are strings,
   * numbers, booleans, {@code null} or such objects.
   */
  static String pretty(Map<String, Object> object) {
    StringBuilder sb = new StringBuilder();
    pretty(sb, object, "");
    return sb.append('\n').toString();
  }

  private static void pretty(StringBuilder sb, Map<String, Object> object, String indent) {
    if (object.isEmpty()) {
      sb.append("{}");
      return;
    }
    String inner = indent + "  ";
    sb.append("{\n");
    int i = 0;
    for (Map.Entry<String, Object> e : object.entrySet()) {
      sb.append(inner).append(JsonText.quote(e.getKey())).append(": ");
      value(sb, e.getValue(), inner, true);
      sb.append(++i < object.size() ? ",\n" : "\n");
    }
    sb.append(indent).append('}');
  }

  /** {@code JSON.stringify(object)} and a newline. */
  private static String compact(Map<String, Object> object) {
    StringBuilder sb = new StringBuilder();
    compact(sb, object);
    return sb.append('\n').toString();
  }

  private static void compact(StringBuilder sb, Map<String, Object> object) {
    sb.append('{');
    int i = 0;
    for (Map.Entry<String, Object> e : object.entrySet()) {
      sb.append(i++ == 0 ? "" : ",").append(JsonText.quote(e.getKey())).append(':');
      value(sb, e.getValue(), "", false);
    }
    sb.append('}');
  }

  @SuppressWarnings("unchecked")
  private static void value(StringBuilder sb, Object value, String indent, boolean pretty) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      sb.append(JsonText.quote(s));
    } else if (value instanceof Map<?, ?> m) {
      if (pretty) {
        pretty(sb, (Map<String, Object>) m, indent);
      } else {
        compact(sb, (Map<String, Object>) m);
      }
    } else {
      sb.append(value); // Boolean, Long
    }
  }

  /** Whether {@code --format json} was given; any other format is text. */
  private static boolean isJson(CliArgs args) {
    Optional<String> format = args.option("format");
    return format.isPresent() && format.get().equals("json");
  }

  private static String row(String label, String value) {
    return label + " ".repeat(20 - label.length()) + value + "\n";
  }

  /** Node's {@code process.platform} for this JVM's OS. */
  private static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (os.startsWith("mac")) {
      return "darwin";
    }
    if (os.startsWith("windows")) {
      return "win32";
    }
    return os.isEmpty() ? "linux" : os.replace(" ", "");
  }

  /** Node's {@code process.arch} for this JVM's architecture. */
  private static String arch() {
    String arch = System.getProperty("os.arch", "");
    switch (arch) {
      case "amd64":
      case "x86_64":
        return "x64";
      case "aarch64":
        return "arm64";
      default:
        return arch.isEmpty() ? "x64" : arch;
    }
  }

  private static Answer mcp(CliArgs args) {
    String command = args.commandPath().get(args.commandPath().size() - 1);
    if (command.equals("list")) {
      return Answer.out("No MCP servers configured\n");
    }
    return Answer.fail("Error: MCP server \"" + args.commandArgs().get(0) + "\"" + NO_MCP_CONFIG);
  }

  /** The commands of {@code args.commandPath()} in the profile's tree, the root first. */
  private static List<CliCommand> chain(CliArgs args, Profile profile) {
    List<CliCommand> chain = new ArrayList<>();
    Profile.Surface surface = profile.behaviour().surface();
    CliCommand cmd = withDefaultOutputFormat(surface.root(), profile.defaultOutputFormat());
    chain.add(cmd);
    for (String name : args.commandPath()) {
      cmd =
          chain.size() == 1 && name.equals(CliArgs.ACP) ? surface.acp() : cmd.findSubcommand(name);
      if (cmd == null) {
        throw new IllegalArgumentException("no command " + args.commandPath());
      }
      chain.add(cmd);
    }
    return chain;
  }

  /**
   * {@code root} with the help of {@code --output-format} naming {@code format} as the default, so
   * that help states the default a run actually uses (a profile file may change it).
   */
  private static CliCommand withDefaultOutputFormat(CliCommand root, OutputFormat format) {
    List<CliOption> options = new ArrayList<>(root.options().size());
    boolean changed = false;
    for (CliOption o : root.options()) {
      int at = o.help().lastIndexOf(DEFAULT_PREFIX);
      if (o.longFlag().equals("--output-format") && at >= 0) {
        String help = o.help().substring(0, at) + DEFAULT_PREFIX + format.cliName() + "\")";
        changed |= !help.equals(o.help());
        options.add(o.withHelp(help));
      } else {
        options.add(o);
      }
    }
    return !changed
        ? root
        : new CliCommand(
            root.name(),
            root.alias(),
            root.description(),
            options,
            root.arguments(),
            root.subcommands(),
            root.hasAction());
  }

  private static final String DEFAULT_PREFIX = "(default: \"";
}
