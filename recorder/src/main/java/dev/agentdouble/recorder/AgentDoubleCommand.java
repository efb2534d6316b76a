package dev.agentdouble.recorder;

import dev.agentdouble.contract.Launch;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandRegistry;
import dev.agentdouble.recorder.internal.record.RecordCommand;
import dev.agentdouble.recorder.internal.replay.DemoCommand;
import dev.agentdouble.recorder.internal.replay.ReplayCommand;
import dev.agentdouble.recorder.internal.shim.ShimCommand;
import dev.agentdouble.recorder.internal.tapes.CatalogCommand;
import dev.agentdouble.recorder.internal.tapes.DiffCommand;
import dev.agentdouble.recorder.internal.tapes.DriftCommand;
import dev.agentdouble.recorder.internal.tapes.ImportCommand;
import dev.agentdouble.recorder.internal.tapes.LintCommand;
import dev.agentdouble.recorder.internal.tapes.ShowCommand;
import dev.agentdouble.recorder.internal.tapes.VaryCommand;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The {@code agentdouble} command: {@code demo}, {@code replay}, {@code import}, {@code lint},
 * {@code show}, {@code diff}, {@code serve} and more ({@code agentdouble --help}), the commands of
 * a {@link CommandRegistry}. Data goes to stdout, diagnostics to stderr as {@code agentdouble:
 * subject: problem}. Exit status ({@code ExitStatus}): 0 ok, 1 failed, 2 usage.
 */
public final class AgentDoubleCommand {
  private AgentDoubleCommand() {}

  public static void main(String[] args) {
    System.exit(run(System.in, System.out, System.err, args));
  }

  /** Runs one command; everything testable lives here. */
  public static int run(InputStream in, PrintStream out, PrintStream err, String... args) {
    return installed().run(in, out, err, args);
  }

  /**
   * The commands of the installation the system property {@code agentdouble.home} names (the
   * launcher sets it); {@code demo} and {@code replay} fail with a clear message without it.
   */
  public static CommandRegistry installed() {
    return CommandRegistry.of(
        commands(Optional.ofNullable(System.getProperty(Launch.HOME_PROPERTY)).map(Path::of)));
  }

  /** The commands of the installation rooted at {@code home}, whose fake agent they run. */
  public static CommandRegistry installedAt(Path home) {
    return CommandRegistry.of(commands(Optional.of(home)));
  }

  /**
   * This module's commands, in the order of the top-level help; {@code demo}, {@code replay} and
   * {@code shim} use the fake agent of the installation rooted at {@code home} (they fail with a
   * clear message without it).
   */
  private static List<Command> commands(Optional<Path> home) {
    return List.of(
        new DemoCommand(home),
        new RecordCommand(),
        new ShimCommand(home),
        new ReplayCommand(home),
        new ImportCommand(),
        new LintCommand(),
        new ShowCommand(),
        new DiffCommand(),
        new VaryCommand(),
        new DriftCommand(),
        new CatalogCommand());
  }
}
