package dev.agentdouble.recorder.command;

import dev.agentdouble.commander.DidYouMean;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.Release;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The commands of {@code agentdouble}: this module's own, then those other modules on the classpath
 * provide as {@link ServiceLoader} providers of {@link Command} (looked up only when a name is not
 * one of this module's, so that {@code record} starts without scanning the classpath). It runs the
 * one a command line names, writes the top-level help and gives the exit statuses every command
 * shares ({@link ExitStatus}).
 */
public final class CommandRegistry {
  /**
   * The command did what it was asked.
   *
   * @deprecated use {@link ExitStatus#OK}, where every exit status AgentDouble gives is defined
   */
  @Deprecated public static final int OK = ExitStatus.OK;

  /**
   * The command failed: a tape that cannot be read, a run that failed, a difference found.
   *
   * @deprecated use {@link ExitStatus#FAILED} (or {@link ExitStatus#DIFFERENT} for a difference)
   */
  @Deprecated public static final int FAILED = ExitStatus.FAILED;

  /**
   * The command line cannot be run as given (unknown command or option, missing operand).
   *
   * @deprecated use {@link ExitStatus#USAGE}
   */
  @Deprecated public static final int USAGE = ExitStatus.USAGE;

  private static final String HEADER = "usage: agentdouble <command> [options]\n\nCommands:\n";
  private static final String FOOTER =
      "\nRun `agentdouble <command> --help` for a command's details, "
          + "`agentdouble --version` for the version.\n";

  /** The column of the summaries in the top-level help. */
  private static final int SUMMARY_COLUMN = 28;

  /** The column of an option's summary, and the indentation of the option. */
  private static final int OPTION_SUMMARY_COLUMN = 30;

  private static final int OPTION_INDENT = 6;

  private final List<Command> own;
  private List<Command> all;

  private CommandRegistry(List<Command> own) {
    this.own = List.copyOf(own);
  }

  /**
   * A registry of {@code own} commands, in the order of the help, and of the commands other modules
   * provide ({@link ServiceLoader} of {@link Command}), after them by name.
   */
  public static CommandRegistry of(List<Command> own) {
    return new CommandRegistry(own);
  }

  /** Every command, in the order of the help: this module's, then the others' by name. */
  public synchronized List<Command> commands() {
    if (all == null) {
      List<Command> commands = new ArrayList<>(own);
      List<Command> others = new ArrayList<>();
      for (Command other :
          ServiceLoader.load(Command.class, CommandRegistry.class.getClassLoader())) {
        if (find(commands, other.name()).isEmpty() && find(others, other.name()).isEmpty()) {
          others.add(other);
        }
      }
      others.sort((a, b) -> a.name().compareTo(b.name()));
      commands.addAll(others);
      all = List.copyOf(commands);
    }
    return all;
  }

  /** The command called {@code name}. */
  public Optional<Command> command(String name) {
    Optional<Command> command = find(own, name);
    return command.isPresent() ? command : find(commands(), name);
  }

  private static Optional<Command> find(List<Command> commands, String name) {
    return commands.stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /** The top-level help: every command's usage and summary, and the options it shows. */
  public String help() {
    StringBuilder help = new StringBuilder(HEADER);
    for (Command command : commands()) {
      String entry = "  " + command.usage();
      List<String> lines = command.summary().lines().toList();
      int first = 0;
      if (entry.length() + 2 <= SUMMARY_COLUMN && !lines.isEmpty()) {
        help.append(pad(entry, SUMMARY_COLUMN)).append(lines.get(0)).append('\n');
        first = 1;
      } else {
        help.append(entry).append('\n');
      }
      for (String line : lines.subList(first, lines.size())) {
        help.append(" ".repeat(SUMMARY_COLUMN)).append(line).append('\n');
      }
      for (Command.Option option : command.options()) {
        help.append(pad(" ".repeat(OPTION_INDENT) + option.usage(), OPTION_SUMMARY_COLUMN))
            .append(option.summary())
            .append('\n');
      }
    }
    return help.append(FOOTER).toString();
  }

  private static String pad(String text, int column) {
    return text + " ".repeat(Math.max(2, column - text.length()));
  }

  /**
   * Runs {@code agentdouble ARGS}: the command {@code ARGS[0]} names with the rest; the help
   * without a command. Never a stack trace: a command's failure is one line on {@code err}.
   */
  public int run(InputStream in, PrintStream out, PrintStream err, String... args) {
    if (args.length == 0) {
      err.print(help());
      return ExitStatus.USAGE;
    }
    String name = args[0];
    if (name.equals("-h") || name.equals("--help") || name.equals("help")) {
      out.print(help());
      return ExitStatus.OK;
    }
    if (name.equals("--version") || name.equals("-V") || name.equals("version")) {
      out.println("agentdouble " + Release.VERSION);
      return ExitStatus.OK;
    }
    Optional<Command> command = command(name);
    if (command.isEmpty()) {
      return usage(err, "unknown command '" + name + "'; " + suggest(name), "--help");
    }
    List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
    try {
      return command.get().run(rest, in, out, err);
    } catch (UsageException e) {
      return usage(err, e.getMessage(), name + " --help");
    } catch (CommandFailure | TapeException e) {
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.FAILED;
    } catch (InvalidPathException e) {
      return usage(
          err,
          "not a valid path: '" + e.getInput() + "' (" + e.getReason() + ")",
          name + " --help");
    } catch (IOException e) {
      err.println("agentdouble: " + CommandFailure.reason(e, ""));
      return ExitStatus.FAILED;
    } catch (UncheckedIOException e) {
      err.println("agentdouble: " + CommandFailure.reason(e.getCause(), ""));
      return ExitStatus.FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("agentdouble: interrupted");
      return ExitStatus.FAILED;
    } catch (IllegalStateException e) {
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.FAILED;
    } catch (OutOfMemoryError e) {
      err.println("agentdouble: " + name + ": out of memory" + LineReader.memoryHint());
      return ExitStatus.FAILED;
    } catch (RuntimeException | StackOverflowError e) {
      // never a stack trace: say what broke, in one line
      err.println(
          "agentdouble: "
              + name
              + ": internal error ("
              + e
              + "); please report it, "
              + "with the command line and its files");
      return ExitStatus.FAILED;
    }
  }

  /** {@code did you mean X?} when a command's name is close to {@code name}, else the list. */
  private String suggest(String name) {
    List<String> names = commands().stream().map(Command::name).toList();
    List<String> close = DidYouMean.closest(name, names);
    return close.isEmpty()
        ? "commands are " + String.join(", ", names)
        : "did you mean " + String.join(" or ", close) + "?";
  }

  /** Reports a usage error and where help is: {@code --help} or {@code COMMAND --help}. */
  private static int usage(PrintStream err, String message, String help) {
    err.println("agentdouble: " + message);
    err.println("Run 'agentdouble " + help + "' for usage.");
    return ExitStatus.USAGE;
  }
}
