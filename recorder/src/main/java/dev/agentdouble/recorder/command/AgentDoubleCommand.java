package dev.agentdouble.recorder.command;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * The {@code agentdouble} command: {@code demo}, {@code replay}, {@code import}, {@code lint},
 * {@code show}, {@code diff}, {@code serve} and more ({@code agentdouble --help}), the commands of
 * the {@link CommandRegistry}. Data goes to stdout, diagnostics to stderr as
 * {@code agentdouble: subject: problem}. Exit status: 0 ok, 1 failed, 2 usage.
 */
public final class AgentDoubleCommand {
  private AgentDoubleCommand() {}

  public static void main(String[] args) {
    System.exit(run(System.in, System.out, System.err, args));
  }

  /** Runs one command; everything testable lives here. */
  public static int run(InputStream in, PrintStream out, PrintStream err, String... args) {
    return CommandRegistry.installed().run(in, out, err, args);
  }
}
