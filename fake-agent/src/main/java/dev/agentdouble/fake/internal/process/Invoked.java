package dev.agentdouble.fake.internal.process;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the process was invoked with, as a CLI's front reads it: everything a run touches of the
 * process comes in here, so that it runs the same in tests.
 *
 * @param programName the name the program was started as ({@code claude}, {@code agent}, ...)
 * @param argv the command line after the program's name
 * @param env the environment
 * @param cwd the working folder
 * @param home the user's home folder, when known
 * @param stdio the standard streams, and whether each end is a terminal
 * @param originNanos {@link System#nanoTime()} at the process's start ({@link ProcessClock})
 * @param pid the process's id
 */
public record Invoked(
    String programName,
    List<String> argv,
    Map<String, String> env,
    String cwd,
    Optional<String> home,
    Stdio stdio,
    long originNanos,
    long pid) {
  public Invoked {
    argv = List.copyOf(argv);
  }
}
