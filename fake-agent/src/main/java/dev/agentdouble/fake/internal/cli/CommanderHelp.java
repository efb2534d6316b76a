package dev.agentdouble.fake.internal.cli;

import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliCommand.Argument;
import dev.agentdouble.fake.internal.profile.CliOption;
import java.util.List;
import java.util.Optional;

/**
 * What every command tree has from commander itself, the library that parses a CLI's argv: the help
 * option and the help command, as commander lists them. The trees are the profiles' ({@link
 * dev.agentdouble.fake.internal.profile.ProfileResource}).
 */
final class CommanderHelp {
  private CommanderHelp() {}

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
}
