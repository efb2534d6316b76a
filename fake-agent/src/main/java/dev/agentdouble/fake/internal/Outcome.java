package dev.agentdouble.fake.internal;

import java.util.Objects;

/**
 * How an invocation ends without a replay: what to write to stdout and stderr (UTF-8), and the
 * exit status.
 */
public record Outcome(String stdout, String stderr, int exit) {
  public Outcome {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    if (exit < 0 || exit > 255) {
      throw new IllegalArgumentException("exit code must be 0..255, was " + exit);
    }
  }

  static Outcome out(String stdout) {
    return new Outcome(stdout, "", 0);
  }

  static Outcome fail(String stderr) {
    return new Outcome("", stderr, 1);
  }
}
