package dev.agentdouble.fake.internal.cli;

/** What {@link CliParser} made of a command line: arguments to act on, or a usage error. */
public sealed interface ParseResult permits ParseResult.Parsed, ParseResult.UsageError {

  /**
   * The command line is valid; {@code warnings} is what the CLI said on stderr as it parsed (each
   * with its newline; empty for none), before anything else it writes.
   */
  record Parsed(CliArgs args, String warnings) implements ParseResult {}

  /**
   * The CLI refuses the command line: print {@code stderr} (which ends with a newline, and starts
   * with what the parse warned of before it failed) and exit 1, writing nothing to stdout.
   */
  record UsageError(String stderr) implements ParseResult {}
}
