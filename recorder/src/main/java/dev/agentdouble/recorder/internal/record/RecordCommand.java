package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.internal.cli.Args;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code agentdouble record}: runs a command with the caller's stdin, passes its stdout and stderr
 * through as they come, and writes what it captured — every read, with its time — as a tape.
 */
public final class RecordCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble record [--out FILE | --into DIR] [--raw] [--redact REGEX]... [--quiet]
                                [--grace MS] -- COMMAND ARGS...

      Runs COMMAND with your stdin, shows its stdout and stderr live, and writes the run as a tape:
      every write with its time, partial lines, bytes that are not UTF-8, and how it ended (exit
      code or signal). Secrets are always redacted; volatile values are normalised unless --raw.
        --out FILE       where to write the tape (default: recording-<time>.tape.ndjson here);
                         written atomically, so it is either complete or absent
        --into DIR       write it into DIR as <time>-<prompt>-<hash>.tape.ndjson
        --raw            keep ids, paths and timestamps as recorded (no vars)
        --redact REGEX   also replace text matching REGEX (repeatable)
        --quiet          no summary line on stderr
        --grace MS       once COMMAND has exited, how long to go on reading its stdout and
                         stderr while a process it started still holds them open (default 3000)
      Exit status: the command's (128 + n when it died by signal n); 125 when the recorder itself
      failed (at once, without running COMMAND, when the tape could not be written), 126 when
      COMMAND cannot be run, 127 when it is not found.
      """;

  /** The command; each run records with this process's environment. */
  public RecordCommand() {}

  @Override
  public String name() {
    return "record";
  }

  @Override
  public String usage() {
    return "record [options] -- COMMAND ARGS...";
  }

  @Override
  public String summary() {
    return "run a command (the real cursor-agent) and record it as a tape";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws InterruptedException {
    Args a =
        Args.parse(
            args, List.of("--out", "--into", "--redact", "--grace"), List.of("--raw", "--quiet"));
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    return new RecordRun(in, out, err, System.getenv()).run(a);
  }
}
