package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.tape.TapeException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code agentdouble show TAPE...}: a readable {@link Timeline} of each tape; a tape that cannot be
 * read is named and the others are still shown.
 */
public final class ShowCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble show TAPE...

      Prints a readable timeline of each tape (a file, or builtin:NAME for a built-in tape): time, stream, event type, tool and a short text.
      Failures are marked with '!' and silences of a second or more get a line of their own.
      Exit status: 0 when every tape was shown, 1 when one cannot be read (it is named; the others
      are still shown), 2 on a usage error.
      """;

  public ShowCommand() {}

  @Override
  public String name() {
    return "show";
  }

  @Override
  public String usage() {
    return "show TAPE...";
  }

  @Override
  public String summary() {
    return "print a readable timeline of each tape";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    Args a = Args.parse(args, List.of(), List.of());
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (a.positional().isEmpty()) {
      throw new UsageException("show needs at least one TAPE");
    }
    int status = ExitStatus.OK;
    for (String name : a.positional()) {
      try {
        out.print(Timeline.render(name, UserFile.tape(name)));
      } catch (CommandFailure | TapeException e) {
        err.println("agentdouble: " + e.getMessage());
        status = ExitStatus.FAILED;
      } catch (OutOfMemoryError e) {
        err.println(
            "agentdouble: "
                + name
                + ": cannot be shown in this JVM's memory"
                + LineReader.memoryHint());
        status = ExitStatus.FAILED;
      }
    }
    return status;
  }
}
