package dev.agentdouble.fake.internal.cli;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.tape.Frame;
import java.util.Objects;

/**
 * What the fake answers without a tape (a subcommand, a check that stops the run): what to write to
 * stdout and stderr (UTF-8), and the exit that ends the process.
 */
public record Answer(String stdout, String stderr, Frame.Exit exit) {
  public Answer {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(exit, "exit");
  }

  /** Writes {@code stdout} and {@code stderr}, then exits with {@code code} (0..255). */
  public Answer(String stdout, String stderr, int code) {
    this(stdout, stderr, new Frame.Exit(0, code));
  }

  /** Writes {@code stdout} and exits 0. */
  public static Answer out(String stdout) {
    return new Answer(stdout, "", ExitStatus.OK);
  }

  /** Writes {@code stderr} and exits 1, as the CLI fails. */
  public static Answer fail(String stderr) {
    return new Answer("", stderr, ExitStatus.CLI_FAILED);
  }
}
