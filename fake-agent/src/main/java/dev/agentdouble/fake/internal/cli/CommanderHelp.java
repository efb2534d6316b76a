package dev.agentdouble.fake.internal.cli;

import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliCommand.Argument;
import dev.agentdouble.fake.internal.profile.CliOption;
import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What every command tree of the Cursor Agent CLI has from commander itself: the help option and
 * the help command. The trees are the profiles' ({@link ProfileResource}): every option with its
 * arity, the hidden options that work but are not listed, and the subcommands, in the order the
 * help lists them, with the CLI's own help texts. The root is named {@code agent} in every tree:
 * the real CLI's help says {@code agent} whatever name it was invoked as.
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

  /** Commander's help option, listed last among a command's options. */
  static final CliOption HELP_OPTION = CliOption.of("-h, --help", HELP);

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
