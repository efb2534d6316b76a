package dev.agentdouble.fake.internal;

import dev.agentdouble.tape.internal.JsonText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * What the CLI answers when an invocation is not an agent run: {@code --version}, help, and the
 * subcommands, from the {@link Profile}. Nothing here has a side effect: {@code login} and
 * {@code logout} change no state, {@code update} installs nothing.
 */
public final class Subcommands {
  /** The CLI's message when a run or a command needs an account and none is logged in. */
  static final String AUTH_REQUIRED = "Error: Authentication required. Please run 'agent login'"
      + " first, or set CURSOR_API_KEY environment variable.\n";
  /** The TUI commands fail so when stdin is not a terminal; the fake has no TUI at all. */
  static final String NEEDS_TTY = "Error: Raw mode is not supported on the current"
      + " process.stdin, which Ink uses as input stream by default.\n";
  private static final String NO_MCP_CONFIG = " not found in .cursor/mcp.json or"
      + " ~/.cursor/mcp.json\n";

  private Subcommands() {}

  /**
   * The answer to {@code args}, or empty when the invocation is an agent run (print mode or not)
   * that the replay engine plays. In order: {@code --version}; help; a subcommand;
   * {@code --list-models}.
   *
   * <ul>
   *   <li>{@code -v/--version}: the profile's version line.
   *   <li>{@code -h/--help}, {@code help [command]}: commander's help of the command.
   *   <li>{@code status}/{@code whoami}: {@code ✓ Logged in as <email>} or {@code Not logged in},
   *       exit 0 either way. With {@code --format json} one compact JSON line, the shape the 2026
   *       CLI prints: {@code {"status":"authenticated","isAuthenticated":true,
   *       "hasAccessToken":true,"hasRefreshToken":true,"userInfo":{"email":"<email>"}}}, or
   *       {@code {"status":"unauthenticated","isAuthenticated":false,"hasAccessToken":false,
   *       "hasRefreshToken":false}}.
   *   <li>{@code create-chat}: a fresh random UUID.
   *   <li>{@code models}, {@code --list-models}: {@code Available models}, a blank line, one
   *       {@code <id> - <name>} line per model (the profile's model marked {@code (current,
   *       default)}; a {@code --model} id marks its line {@code (current)}), a blank line, a
   *       {@code Tip:} line. No models: {@code No models available for this account.} Not
   *       logged in: the authentication error, exit 1.
   *   <li>{@code about}: the profile's {@code about} text, or {@code About Cursor CLI} and
   *       aligned rows (CLI Version, Model, Subscription Tier, OS, Terminal, Shell, User Email).
   *       With {@code --format json}: {@code {"cliVersion","model","subscriptionTier",
   *       "osPlatform","osArch","userEmail","terminalProgram","shell","lastRequestId"}}.
   *   <li>{@code ls}, {@code resume}: the interactive picker cannot start without a terminal;
   *       stderr, exit 1.
   *   <li>{@code login}, {@code logout}, {@code update}: a plausible line, exit 0.
   *   <li>{@code mcp list}: no servers configured; {@code mcp login|list-tools|enable|disable
   *       <identifier>}: that server is not configured, exit 1.
   * </ul>
   */
  public static Optional<Outcome> answer(CliArgs args, Profile profile) {
    if (args.version()) {
      return Optional.of(Outcome.out(profile.version() + "\n"));
    }
    if (args.help()) {
      return Optional.of(Outcome.out(HelpText.render(args.programName(), chain(args, profile))));
    }
    if (args.subcommand().isPresent()) {
      return Optional.of(subcommand(args, profile));
    }
    if (args.listModels()) {
      return Optional.of(models(args, profile));
    }
    return Optional.empty();
  }

  private static Outcome subcommand(CliArgs args, Profile profile) {
    String name = args.subcommand().orElseThrow();
    switch (name) {
      case "status":
        return status(args, profile);
      case "create-chat":
        return Outcome.out(UUID.randomUUID() + "\n");
      case "models":
        return models(args, profile);
      case "about":
        return about(args, profile);
      case "ls":
      case "resume":
        return Outcome.fail(NEEDS_TTY);
      case "login":
        return Outcome.out(profile.loggedIn()
            ? "✓ Already logged in as " + profile.email() + "\n"
            : "Starting login process...\n✓ Login successful!\n");
      case "logout":
        return Outcome.out(profile.loggedIn() ? "✓ Logged out successfully\n" : "Not logged in\n");
      case "update":
        return Outcome.out("✓ Already up to date (" + profile.version() + ")\n");
      case "mcp":
        return mcp(args);
      default:
        throw new IllegalArgumentException("no answer for subcommand " + name);
    }
  }

  private static Outcome status(CliArgs args, Profile profile) {
    boolean json = isJson(args);
    if (!json) {
      return Outcome.out(profile.loggedIn()
          ? "✓ Logged in as " + profile.email() + "\n"
          : "Not logged in\n");
    }
    if (!profile.loggedIn()) {
      return Outcome.out("{\"status\":\"unauthenticated\",\"isAuthenticated\":false,"
          + "\"hasAccessToken\":false,\"hasRefreshToken\":false}\n");
    }
    return Outcome.out("{\"status\":\"authenticated\",\"isAuthenticated\":true,"
        + "\"hasAccessToken\":true,\"hasRefreshToken\":true,\"userInfo\":{\"email\":"
        + JsonText.quote(profile.email()) + "}}\n");
  }

  private static Outcome models(CliArgs args, Profile profile) {
    if (!profile.loggedIn()) {
      return Outcome.fail(AUTH_REQUIRED);
    }
    if (profile.models().isEmpty()) {
      return Outcome.out("No models available for this account.\n");
    }
    String chosen = args.model().orElse(null);
    boolean chosenListed = false;
    for (Profile.Model m : profile.models()) {
      chosenListed |= m.id().equals(chosen);
    }
    StringBuilder sb = new StringBuilder("Available models\n\n");
    boolean defaultMarked = false;
    for (Profile.Model m : profile.models()) {
      boolean isDefault = !defaultMarked && m.name().equals(profile.model());
      defaultMarked |= isDefault;
      boolean current = chosenListed ? m.id().equals(chosen) : isDefault;
      sb.append(m.id()).append(" - ").append(m.name());
      if (current && isDefault) {
        sb.append(" (current, default)");
      } else if (current) {
        sb.append(" (current)");
      } else if (isDefault) {
        sb.append(" (default)");
      }
      sb.append('\n');
    }
    sb.append("\nTip: use --model <id> (or /model <id> in interactive mode) to switch.\n");
    return Outcome.out(sb.toString());
  }

  private static Outcome about(CliArgs args, Profile profile) {
    String platform = platform();
    String arch = arch();
    String tier = profile.loggedIn() ? "Pro" : "Unknown";
    if (isJson(args)) {
      return Outcome.out("{\"cliVersion\":" + JsonText.quote(profile.version())
          + ",\"model\":" + JsonText.quote(profile.model())
          + ",\"subscriptionTier\":" + JsonText.quote(tier)
          + ",\"osPlatform\":" + JsonText.quote(platform)
          + ",\"osArch\":" + JsonText.quote(arch)
          + ",\"userEmail\":" + (profile.loggedIn() ? JsonText.quote(profile.email()) : "null")
          + ",\"terminalProgram\":\"unknown\",\"shell\":\"unknown\",\"lastRequestId\":null}\n");
    }
    if (profile.about().isPresent()) {
      String text = profile.about().get();
      return Outcome.out(text.endsWith("\n") ? text : text + "\n");
    }
    return Outcome.out("About Cursor CLI\n\n"
        + row("CLI Version", profile.version())
        + row("Model", profile.model())
        + row("Subscription Tier", tier)
        + row("OS", platform + " (" + arch + ")")
        + row("Terminal", "unknown")
        + row("Shell", "unknown")
        + row("User Email", profile.loggedIn() ? profile.email() : "Not logged in"));
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

  private static Outcome mcp(CliArgs args) {
    String command = args.commandPath().get(args.commandPath().size() - 1);
    if (command.equals("list")) {
      return Outcome.out("No MCP servers configured\n");
    }
    return Outcome.fail("Error: MCP server \"" + args.commandArgs().get(0) + "\"" + NO_MCP_CONFIG);
  }

  /** The commands of {@code args.commandPath()}, the root first. */
  private static List<CliCommand> chain(CliArgs args, Profile profile) {
    List<CliCommand> chain = new ArrayList<>();
    CliCommand cmd = CursorCommands.root(profile.behaviour().surface());
    chain.add(cmd);
    for (String name : args.commandPath()) {
      cmd = cmd.findSubcommand(name);
      if (cmd == null) {
        throw new IllegalArgumentException("no command " + args.commandPath());
      }
      chain.add(cmd);
    }
    return chain;
  }
}
