package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.recorder.command.Command;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every command of {@code agentdouble} is a {@link Command} of its own: a class named after it, in
 * a room of the recorder, whose {@code --help} is its own and whose usage and summary the top-level
 * help shows.
 */
class RegisteredCommandsTest {
  private static final List<Command> COMMANDS =
      AgentDoubleCommand.installedAt(Cli.root()).commands();

  @Test
  void everyCommandIsAClassOfItsOwnNamedAfterIt() {
    assertThat(COMMANDS)
        .extracting(Command::name)
        .containsExactly(
            "demo", "record", "shim", "replay", "import", "lint", "show", "diff", "vary", "drift",
            "catalog");
    for (Command command : COMMANDS) {
      Class<?> type = command.getClass();
      String name = command.name();
      assertThat(type.getSimpleName())
          .as("the class of '%s'", name)
          .isEqualTo(name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1) + "Command");
      assertThat(type.isSynthetic() || type.isAnonymousClass() || type.isRecord())
          .as("'%s' is a class, not a lambda or a record wrapping one", name)
          .isFalse();
      assertThat(type.getPackageName())
          .as("the room of '%s'", name)
          .startsWith("dev.agentdouble.recorder.")
          .isNotEqualTo(Command.class.getPackageName());
    }
  }

  @Test
  void everyCommandsHelpIsItsOwn() {
    Map<String, String> helps = new HashMap<>();
    for (Command command : COMMANDS) {
      Cli.Result r = Cli.runInstalled(command.name(), "--help");

      assertThat(r.exit()).as(r.toString()).isEqualTo(ExitStatus.OK);
      assertThat(r.err()).as(r.toString()).isEmpty();
      assertThat(r.out()).startsWith("usage: agentdouble " + command.name() + " ");
      assertThat(helps.put(r.out(), command.name()))
          .as("another command with the help of '%s'", command.name())
          .isNull();
    }
  }

  @Test
  void theTopLevelHelpShowsEveryCommandsUsageAndSummary() {
    String help = Cli.run("--help").out();

    for (Command command : COMMANDS) {
      assertThat(help).contains("  " + command.usage());
      for (String line : command.summary().lines().toList()) {
        assertThat(help).as("the summary of '%s'", command.name()).contains(line + "\n");
      }
      for (Command.Option option : command.options()) {
        assertThat(help).contains(option.usage()).contains(option.summary());
      }
    }
  }
}
