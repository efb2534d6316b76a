package dev.agentdouble.fake.internal.profile;

import java.util.List;
import java.util.Optional;

/**
 * A command as commander models it: options, arguments, subcommands, and whether an action runs
 * when it is invoked. Every command has commander's {@code -h, --help}; a command with subcommands
 * also has the {@code help [command]} command.
 *
 * <p>An {@code opaque} command is one the fake names but does not model (Claude Code's {@code mcp},
 * {@code doctor}, ...): parsing stops when it is named, whatever follows.
 */
public record CliCommand(
    String name,
    Optional<String> alias,
    String description,
    List<CliOption> options,
    List<Argument> arguments,
    List<CliCommand> subcommands,
    boolean hasAction,
    boolean opaque) {

  /** A declared positional argument, e.g. {@code [prompt...]} or {@code <identifier>}. */
  public record Argument(String name, boolean required, boolean variadic, String description) {
    /** As commander's {@code humanReadableArgName}: {@code <name>}, {@code [name...]}. */
    public String term() {
      String n = name + (variadic ? "..." : "");
      return required ? "<" + n + ">" : "[" + n + "]";
    }
  }

  /** A command whose options and arguments are modelled. */
  public CliCommand(
      String name,
      Optional<String> alias,
      String description,
      List<CliOption> options,
      List<Argument> arguments,
      List<CliCommand> subcommands,
      boolean hasAction) {
    this(name, alias, description, options, arguments, subcommands, hasAction, false);
  }

  public CliCommand {
    options = List.copyOf(options);
    arguments = List.copyOf(arguments);
    subcommands = List.copyOf(subcommands);
  }

  /** The option {@code arg} names exactly, or null. */
  public CliOption findOption(String arg) {
    for (CliOption o : options) {
      if (o.is(arg)) {
        return o;
      }
    }
    return null;
  }

  /** The subcommand named or aliased {@code word}, or null. */
  public CliCommand findSubcommand(String word) {
    for (CliCommand c : subcommands) {
      if (c.name.equals(word) || (c.alias.isPresent() && c.alias.get().equals(word))) {
        return c;
      }
    }
    return null;
  }

  /** Whether {@code help [command]} is one of this command's commands. */
  public boolean hasHelpCommand() {
    return !subcommands.isEmpty();
  }

  /** Whether {@code arg} asks for help: commander's help option is {@code -h, --help}. */
  public static boolean isHelpFlag(String arg) {
    return arg.equals("-h") || arg.equals("--help");
  }
}
