package dev.agentdouble.fake.internal;

import dev.agentdouble.fake.internal.CliCommand.Argument;
import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The command trees of the Cursor Agent CLI, as its commander program declares them: every option
 * with its arity, the hidden options that work but are not listed, and the subcommands, in the
 * order the help lists them. Descriptions are the CLI's own help text, with commander's {@code
 * (default: ...)}, {@code (choices: ...)} and {@code env:} suffixes as it prints them.
 *
 * <p>Two trees: {@link #CLI_2026_10}, the 2026.10.01 CLI whose help is {@code
 * reference/help-2026.10.01.txt} byte for byte, and {@link #DOCUMENTED}, the commands and options
 * of the vendor's documentation page (the 2026.07 help, with {@code stream-json} as the default
 * output format). The root is named {@code agent} in both: the real CLI's help says {@code agent}
 * whatever name it was invoked as.
 */
final class CursorCommands {
  private CursorCommands() {}

  private static final String HELP = "Display help for command";

  /** The help command every command with subcommands has, as commander lists it. */
  static final CliCommand HELP_COMMAND =
      new CliCommand(
          "help",
          Optional.empty(),
          HELP,
          List.of(),
          List.of(new Argument("command", false, false, "")),
          List.of(),
          true);

  /**
   * {@code acp}, hidden from the root's help and not a command of either tree (the fake runs it
   * from the prompt word, see {@link Impersonation}): only its help is a command's, as 2026.08 and
   * 2026.09 print it for {@code agent acp --help}.
   */
  static final CliCommand ACP =
      leaf(Impersonation.ACP, "Start the Cursor Agent as an ACP (Agent Client Protocol) server");

  /** Commander's help option, listed last among a command's options. */
  static final CliOption HELP_OPTION = CliOption.of("-h, --help", HELP);

  /**
   * The options the real CLI accepts but leaves out of its help (reference part 3). Each value
   * given is kept, in order, in {@link CliArgs#options()}; {@code --allowed-tools} and {@code
   * --exclude-tools} may be given several times, each a comma-separated list.
   */
  static final List<CliOption> HIDDEN =
      List.of(
          CliOption.hidden("--new-session-id <uuidv4>"),
          CliOption.hidden("--show-thinking"),
          CliOption.hidden("--allowed-tools <tools>"),
          CliOption.hidden("--exclude-tools <tools>"),
          CliOption.hidden("--exclude-workspace-context"),
          CliOption.hidden("--single-turn"),
          CliOption.hidden("--printenv"),
          CliOption.hidden("--background-shell-timeout <seconds>"),
          CliOption.hidden("--conversation-history-file <file>"),
          CliOption.hidden("--system-prompt <file>"),
          CliOption.hidden("--auth-token <token>"));

  /** The vendor page's CLI: today's commands, {@code stream-json} by default. */
  static final CliCommand DOCUMENTED = documented();

  /** The 2026.10.01 CLI. */
  static final CliCommand CLI_2026_10 = cli202610();

  /**
   * {@code root} with the help of {@code --output-format} naming {@code format} as the default, so
   * that help states the default a run actually uses (a profile file may change it).
   */
  static CliCommand withDefaultOutputFormat(CliCommand root, OutputFormat format) {
    List<CliOption> options = new ArrayList<>(root.options().size());
    boolean changed = false;
    for (CliOption o : root.options()) {
      int at = o.help().lastIndexOf(DEFAULT_PREFIX);
      if (o.longFlag().equals("--output-format") && at >= 0) {
        String help = o.help().substring(0, at) + DEFAULT_PREFIX + format.cliName() + "\")";
        changed |= !help.equals(o.help());
        options.add(
            new CliOption(
                o.flags(), o.shortFlag(), o.longFlag(), o.arity(), o.choices(), o.hidden(), help));
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

  /** The root command of the CLI version {@code surface}. */
  static CliCommand root(Profile.Surface surface) {
    switch (surface) {
      case DOCUMENTED:
        return DOCUMENTED;
      case CLI_2026_10:
        return CLI_2026_10;
      default:
        throw new IllegalArgumentException("no command tree for " + surface);
    }
  }

  private static CliCommand documented() {
    List<CliOption> options =
        options(
            CliOption.of(
                "-e, --endpoint <url>", "API endpoint URL (default: \"https://api2.cursor.sh\")"),
            // the help shows no choices here, but commander refuses a value outside them
            CliOption.choice(
                "--output-format <format>",
                List.of("text", "json", "stream-json"),
                "Output format (only works with --print): text | json | stream-json (default:"
                    + " \"stream-json\")"),
            CliOption.of(
                "--trust",
                "Trust the current workspace without prompting (only works with --print/headless"
                    + " mode) (default: false)"));
    List<CliCommand> commands =
        List.of(
            login(),
            logout(),
            mcp(),
            status(),
            models(),
            about(),
            update(),
            createChat(),
            agent(),
            ls(),
            resume());
    return new CliCommand(
        "agent",
        Optional.empty(),
        "Start the Cursor Agent",
        options,
        List.of(prompt()),
        commands,
        true);
  }

  private static CliCommand cli202610() {
    List<CliOption> options =
        options(
            CliOption.of(
                "-e, --endpoint <url>",
                "Target API endpoint URL (can also use CURSOR_API_ENDPOINT env var) (default:"
                    + " \"https://api2.cursor.sh\", env: CURSOR_API_ENDPOINT)"),
            // no choices: the 2026.10 CLI checks the value after the account (Checks)
            CliOption.of(
                "--output-format <format>",
                "Output format (only works with --print):"
                    + " text | json | stream-json (default: \"text\")"),
            CliOption.of(
                "--trust", "Trust the current workspace without prompting (default: false)"));
    List<CliCommand> commands =
        List.of(
            leaf("persist", "Start or manage a session that survives terminal disconnects"),
            leaf("install-shell-integration", "Install shell integration to ~/.zshrc"),
            leaf("uninstall-shell-integration", "Remove shell integration from ~/.zshrc"),
            login(),
            logout(),
            mcp(),
            leaf("plugin", "Manage plugins and plugin marketplaces"),
            worker(),
            status(),
            models(),
            leaf("team", "View or switch the active team for this account"),
            leaf("bedrock", "Configure AWS Bedrock usage for CLI"),
            about(),
            update(),
            createChat(),
            new CliCommand(
                "generate-rule",
                Optional.of("rule"),
                "Generate a new Cursor rule with interactive prompts",
                List.of(),
                List.of(),
                List.of(),
                true),
            agent(),
            ls(),
            resume());
    return new CliCommand(
        "agent",
        Optional.empty(),
        "Start the Cursor Agent",
        options,
        List.of(prompt()),
        commands,
        true);
  }

  /**
   * The root's options, the same in both trees but for three texts; then the hidden ones, which
   * both trees accept.
   */
  private static List<CliOption> options(
      CliOption endpoint, CliOption outputFormat, CliOption trust) {
    List<CliOption> options =
        new ArrayList<>(
            List.of(
                CliOption.of("-v, --version", "Output the version number"),
                CliOption.of(
                    "--api-key <key>",
                    "API key for authentication (can also use CURSOR_API_KEY env var)"),
                CliOption.of(
                    "-H, --header <header>",
                    "Add custom header to agent requests (format: 'Name: Value', can be used multiple"
                        + " times)"),
                endpoint,
                CliOption.of(
                    "-p, --print",
                    "Print responses to console (for scripts or non-interactive use). Has access to all"
                        + " tools, including write and shell. (default: false)"),
                outputFormat,
                CliOption.of(
                    "--stream-partial-output",
                    "Stream partial output as individual text deltas (only works with --print and"
                        + " stream-json format) (default: false)"),
                CliOption.choice(
                    "--mode <mode>",
                    List.of("plan", "ask"),
                    "Start in the given execution mode. plan: read-only/planning (analyze, propose plans,"
                        + " no edits). ask: Q&A style for explanations and questions (read-only)."
                        + " (choices: \"plan\", \"ask\")"),
                CliOption.of(
                    "--plan", "Start in plan mode (shorthand for --mode=plan). (default: false)"),
                CliOption.of("--resume [chatId]", "Select a session to resume (default: false)"),
                CliOption.of("--continue", "Continue previous session (default: false)"),
                CliOption.of(
                    "--model <model>",
                    "Model to use (e.g., gpt-5, sonnet-4-thinking). Parameterized models accept quoted"
                        + " bracket overrides, e.g. 'claude-opus-4-8[context=1m,effort=high,fast=false]'"),
                CliOption.of("--list-models", "List available models and exit (default: false)"),
                CliOption.of(
                    "-f, --force",
                    "Force allow commands unless explicitly denied (default: false)"),
                CliOption.of("--yolo", "Alias for --force (Run Everything) (default: false)"),
                CliOption.of(
                    "--auto-review",
                    "Use Auto-review (Smart Auto): a server classifier auto-runs safe tool calls and"
                        + " prompts for the rest (default: false)"),
                CliOption.choice(
                    "--sandbox <mode>",
                    List.of("enabled", "disabled"),
                    "Explicitly enable or disable sandbox mode (overrides config) (choices: \"enabled\","
                        + " \"disabled\")"),
                CliOption.of(
                    "--approve-mcps", "Automatically approve all MCP servers (default: false)"),
                trust,
                CliOption.of(
                    "--workspace <path-or-name>",
                    "Workspace directory or saved workspace name to use (defaults to current working"
                        + " directory)"),
                CliOption.of(
                    "--add-dir <path>",
                    "Add an additional workspace root directory (can be specified multiple times)"),
                CliOption.of(
                    "--plugin-dir <path>",
                    "Load a local plugin directory (can be specified multiple times)"),
                CliOption.of(
                    "-w, --worktree [name]",
                    "Start in an isolated git worktree at ~/.cursor/worktrees/<reponame>/<name>. If"
                        + " omitted, a name is generated."),
                CliOption.of(
                    "--worktree-base <branch>",
                    "Branch or ref to base the new worktree on (default: current HEAD)"),
                CliOption.of(
                    "--skip-worktree-setup",
                    "Skip running worktree setup scripts from .cursor/worktrees.json (default: false)")));
    options.addAll(HIDDEN);
    return List.copyOf(options);
  }

  private static Argument prompt() {
    return new Argument("prompt", false, true, "Initial prompt for the agent");
  }

  private static CliCommand login() {
    return leaf(
        "login", "Authenticate with Cursor. Set NO_OPEN_BROWSER to disable browser opening.");
  }

  private static CliCommand logout() {
    return leaf("logout", "Sign out and clear stored authentication");
  }

  private static CliCommand status() {
    return new CliCommand(
        "status",
        Optional.of("whoami"),
        "View authentication status",
        List.of(format()),
        List.of(),
        List.of(),
        true);
  }

  private static CliCommand models() {
    return leaf("models", "List available models for this account");
  }

  private static CliCommand about() {
    return new CliCommand(
        "about",
        Optional.empty(),
        "Display version, system, and account information",
        List.of(format()),
        List.of(),
        List.of(),
        true);
  }

  private static CliCommand update() {
    return leaf("update", "Update Cursor Agent to the latest version");
  }

  private static CliCommand createChat() {
    return leaf("create-chat", "Create a new empty chat and return its ID");
  }

  private static CliCommand agent() {
    return new CliCommand(
        "agent",
        Optional.empty(),
        "Start the Cursor Agent",
        List.of(),
        List.of(prompt()),
        List.of(),
        true);
  }

  private static CliCommand ls() {
    return leaf("ls", "Resume a chat session");
  }

  private static CliCommand resume() {
    return leaf("resume", "Resume the latest chat session");
  }

  /**
   * {@code worker [options]}: the help shows that it has options but not which. The vendor's worker
   * pages name {@code --pool}, {@code --name <name>} and {@code --worker-dir <path>}; they are
   * accepted and kept hidden, as their help texts are unknown.
   */
  private static CliCommand worker() {
    return new CliCommand(
        "worker",
        Optional.empty(),
        "Run a self-hosted Cloud Agent worker that connects to Cursor and executes agent tool"
            + " calls on this machine. Without --pool it is a personal My Machines worker (no"
            + " Enterprise plan needed); with --pool it joins a team Self-Hosted Pool (Enterprise"
            + " plan + service account API key).",
        List.of(
            CliOption.hidden("--pool"),
            CliOption.hidden("--name <name>"),
            CliOption.hidden("--worker-dir <path>")),
        List.of(),
        List.of(),
        true);
  }

  private static CliCommand mcp() {
    Argument identifier = new Argument("identifier", true, false, "");
    return new CliCommand(
        "mcp",
        Optional.empty(),
        "Manage MCP servers",
        List.of(),
        List.of(),
        List.of(
            new CliCommand(
                "login",
                Optional.empty(),
                "Authenticate with an MCP server configured in .cursor/mcp.json or"
                    + " ~/.cursor/mcp.json",
                List.of(),
                List.of(identifier),
                List.of(),
                true),
            leaf("list", "List configured MCP servers and their status"),
            new CliCommand(
                "list-tools",
                Optional.empty(),
                "List available tools and their argument names for a specific MCP",
                List.of(),
                List.of(identifier),
                List.of(),
                true),
            new CliCommand(
                "enable",
                Optional.empty(),
                "Add an MCP server to the local approved list",
                List.of(),
                List.of(identifier),
                List.of(),
                true),
            new CliCommand(
                "disable",
                Optional.empty(),
                "Remove an MCP server from the local approved list",
                List.of(),
                List.of(identifier),
                List.of(),
                true)),
        false);
  }

  private static CliOption format() {
    return CliOption.of("--format <format>", "Output format: text or json (default: \"text\")");
  }

  private static CliCommand leaf(String name, String description) {
    return new CliCommand(
        name, Optional.empty(), description, List.of(), List.of(), List.of(), true);
  }
}
