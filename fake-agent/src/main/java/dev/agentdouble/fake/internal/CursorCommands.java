package dev.agentdouble.fake.internal;

import dev.agentdouble.fake.internal.CliCommand.Argument;
import java.util.List;
import java.util.Optional;

/**
 * The command tree of the Cursor Agent CLI 2026.10, as its commander program declares it: every
 * option with its arity, the hidden options that work but are not listed, and the subcommands.
 * Descriptions are the CLI's own help text, with commander's {@code (default: ...)} and
 * {@code (choices: ...)} suffixes as it prints them.
 */
final class CursorCommands {
  private CursorCommands() {}

  /** The root command; its name is replaced by the name the program was invoked as. */
  static final CliCommand ROOT = root();

  /** The root command of the CLI version {@code surface}. */
  static CliCommand root(Profile.Surface surface) {
    return ROOT;
  }

  private static final String HELP = "Display help for command";

  private static CliCommand root() {
    List<CliOption> options = List.of(
        CliOption.of("-v, --version", "Output the version number"),
        CliOption.of("--api-key <key>",
            "API key for authentication (can also use CURSOR_API_KEY env var)"),
        CliOption.of("-H, --header <header>",
            "Add custom header to agent requests (format: 'Name: Value', can be used multiple"
                + " times)"),
        CliOption.of("-e, --endpoint <url>",
            "API endpoint URL (default: \"https://api2.cursor.sh\")"),
        CliOption.of("-p, --print",
            "Print responses to console (for scripts or non-interactive use). Has access to all"
                + " tools, including write and shell. (default: false)"),
        // The CLI's help shows no choices here, but a value outside them is refused.
        CliOption.choice("--output-format <format>", List.of("text", "json", "stream-json"),
            "Output format (only works with --print): text | json | stream-json (default:"
                + " \"text\")"),
        CliOption.of("--stream-partial-output",
            "Stream partial output as individual text deltas (only works with --print and"
                + " stream-json format) (default: false)"),
        CliOption.choice("--mode <mode>", List.of("plan", "ask"),
            "Start in the given execution mode. plan: read-only/planning (analyze, propose plans,"
                + " no edits). ask: Q&A style for explanations and questions (read-only)."
                + " (choices: \"plan\", \"ask\")"),
        CliOption.of("--plan",
            "Start in plan mode (shorthand for --mode=plan). (default: false)"),
        CliOption.of("--resume [chatId]", "Select a session to resume (default: false)"),
        CliOption.of("--continue", "Continue previous session (default: false)"),
        CliOption.of("--model <model>",
            "Model to use (e.g., gpt-5, sonnet-4-thinking). Parameterized models accept quoted"
                + " bracket overrides, e.g. 'claude-opus-4-8[context=1m,effort=high,fast=false]'"),
        CliOption.of("--list-models", "List available models and exit (default: false)"),
        CliOption.of("-f, --force",
            "Force allow commands unless explicitly denied (default: false)"),
        CliOption.of("--yolo", "Alias for --force (Run Everything) (default: false)"),
        CliOption.of("--auto-review",
            "Use Auto-review (Smart Auto): a server classifier auto-runs safe tool calls and"
                + " prompts for the rest (default: false)"),
        CliOption.choice("--sandbox <mode>", List.of("enabled", "disabled"),
            "Explicitly enable or disable sandbox mode (overrides config) (choices: \"enabled\","
                + " \"disabled\")"),
        CliOption.of("--approve-mcps",
            "Automatically approve all MCP servers (default: false)"),
        CliOption.of("--trust",
            "Trust the current workspace without prompting (only works with --print/headless"
                + " mode) (default: false)"),
        CliOption.of("--workspace <path-or-name>",
            "Workspace directory or saved workspace name to use (defaults to current working"
                + " directory)"),
        CliOption.of("--add-dir <path>",
            "Add an additional workspace root directory (can be specified multiple times)"),
        CliOption.of("--plugin-dir <path>",
            "Load a local plugin directory (can be specified multiple times)"),
        CliOption.of("-w, --worktree [name]",
            "Start in an isolated git worktree at ~/.cursor/worktrees/<reponame>/<name>. If"
                + " omitted, a name is generated."),
        CliOption.of("--worktree-base <branch>",
            "Branch or ref to base the new worktree on (default: current HEAD)"),
        CliOption.of("--skip-worktree-setup",
            "Skip running worktree setup scripts from .cursor/worktrees.json (default: false)"),
        CliOption.hidden("--new-session-id <uuidv4>"),
        CliOption.hidden("--show-thinking"),
        CliOption.hidden("--allowed-tools <tools>"),
        CliOption.hidden("--exclude-tools <tools>"),
        CliOption.hidden("--auth-token <token>"));
    Argument prompt = new Argument("prompt", false, true, "Initial prompt for the agent");
    List<CliCommand> commands = List.of(
        leaf("login", "Authenticate with Cursor. Set NO_OPEN_BROWSER to disable browser opening."),
        leaf("logout", "Sign out and clear stored authentication"),
        mcp(),
        new CliCommand("status", Optional.of("whoami"), "View authentication status",
            List.of(format()), List.of(), List.of(), true),
        leaf("models", "List available models for this account"),
        new CliCommand("about", Optional.empty(),
            "Display version, system, and account information", List.of(format()), List.of(),
            List.of(), true),
        leaf("update", "Update Cursor Agent to the latest version"),
        leaf("create-chat", "Create a new empty chat and return its ID"),
        new CliCommand("agent", Optional.empty(), "Start the Cursor Agent", List.of(),
            List.of(prompt), List.of(), true),
        leaf("ls", "Resume a chat session"),
        leaf("resume", "Resume the latest chat session"));
    return new CliCommand("agent", Optional.empty(), "Start the Cursor Agent", options,
        List.of(prompt), commands, true);
  }

  private static CliCommand mcp() {
    Argument identifier = new Argument("identifier", true, false, "");
    return new CliCommand("mcp", Optional.empty(), "Manage MCP servers", List.of(), List.of(),
        List.of(
            new CliCommand("login", Optional.empty(),
                "Authenticate with an MCP server configured in .cursor/mcp.json or"
                    + " ~/.cursor/mcp.json", List.of(), List.of(identifier), List.of(), true),
            leaf("list", "List configured MCP servers and their status"),
            new CliCommand("list-tools", Optional.empty(),
                "List available tools and their argument names for a specific MCP", List.of(),
                List.of(identifier), List.of(), true),
            new CliCommand("enable", Optional.empty(),
                "Add an MCP server to the local approved list", List.of(), List.of(identifier),
                List.of(), true),
            new CliCommand("disable", Optional.empty(),
                "Remove an MCP server from the local approved list", List.of(),
                List.of(identifier), List.of(), true)),
        false);
  }

  private static CliOption format() {
    return CliOption.of("--format <format>", "Output format: text or json (default: \"text\")");
  }

  private static CliCommand leaf(String name, String description) {
    return new CliCommand(name, Optional.empty(), description, List.of(), List.of(), List.of(),
        true);
  }

  /** The help command every command with subcommands has, as commander lists it. */
  static final CliCommand HELP_COMMAND = new CliCommand("help", Optional.empty(), HELP,
      List.of(), List.of(new Argument("command", false, false, "")), List.of(), true);

  /** Commander's help option, listed last among a command's options. */
  static final CliOption HELP_OPTION = CliOption.of("-h, --help", HELP);
}
