package dev.agentdouble.recorder.command;

import dev.agentdouble.contract.ExitStatus;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * One command of {@code agentdouble}, e.g. {@code lint}: its name, how the top-level help lists it,
 * and what it does. A module provides commands of its own as {@link java.util.ServiceLoader}
 * providers of this interface (a public class with a public no-argument constructor, named in
 * {@code META-INF/services/dev.agentdouble.recorder.command.Command}).
 */
public interface Command {
  /** The word that selects the command: {@code agentdouble NAME ...}. */
  String name();

  /** The command line after {@code agentdouble}, as the top-level help shows it. */
  String usage();

  /**
   * What the command does, for the top-level help: one sentence, with a line break ({@code \n})
   * where the help wraps it.
   */
  String summary();

  /** The options the top-level help shows beneath the command; most show none. */
  default List<Option> options() {
    return List.of();
  }

  /**
   * Runs {@code agentdouble NAME ARGS}: data to {@code out}, diagnostics to {@code err} as {@code
   * agentdouble: subject: problem}; returns the exit status ({@link ExitStatus#OK}, {@link
   * ExitStatus#FAILED}, {@link ExitStatus#USAGE} or the command's own, all named in {@link
   * ExitStatus}).
   */
  int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws IOException, InterruptedException;

  /** An option as the top-level help shows it: {@code --timing T} and what it does. */
  record Option(String usage, String summary) {}
}
