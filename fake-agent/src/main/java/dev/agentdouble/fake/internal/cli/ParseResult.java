package dev.agentdouble.fake.internal.cli;

/** What {@link CliParser} made of a command line: arguments to act on, or a usage error. */
public sealed interface ParseResult permits ParseResult.Parsed, ParseResult.UsageError {

  /** The command line is valid. */
  record Parsed(CliArgs args) implements ParseResult {}

  /**
   * The CLI refuses the command line: print {@code stderr} (which ends with a newline) and exit 1,
   * writing nothing to stdout.
   */
  record UsageError(String stderr) implements ParseResult {}
}
