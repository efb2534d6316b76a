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
 * {@code agentdouble diff A B [--timing]}: what differs between two tapes, header first, then frame
 * by frame. Exit status as diff(1) gives it: 0 the same, 1 different, 2 trouble.
 */
public final class DiffCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble diff A B [--timing]

      Shows what differs between two tapes (files, or builtin:NAME for built-in tapes): the header
      field by field, then the frames, aligned so that an added or removed frame shows as such:
        header                                a header field differs (its path: old -> new)
        ~ frame 4 (A:6, B:6) out assistant    a frame changed; then each JSON path that differs:
            message.content[0].text: "hi" -> "hello"
        - frame 7 (A:9) err: "..."            a frame only in A
        + frame 7 (B:9) out result/success    a frame only in B
      Frame numbers count from 0; A:6 is the line in file A. Timing is ignored unless --timing:
      frame times (t), the header's recordedAt and vars.epochMs, and the event fields
      timestamp_ms, startedAtMs, completedAtMs, duration_ms, duration_api_ms and executionTime.
        --timing   compare timing too
      Exit status: 0 when the tapes are the same, 1 when they differ, 2 on a usage error or a tape
      that cannot be read.
      """;

  public DiffCommand() {}

  @Override
  public String name() {
    return "diff";
  }

  @Override
  public String usage() {
    return "diff A B [--timing]";
  }

  @Override
  public String summary() {
    return "show what differs between two tapes (timing ignored unless\n"
        + "--timing); exit 0 when the same, 1 when they differ";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    Args a = Args.parse(args, List.of(), List.of("--timing"));
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (a.positional().size() != 2) {
      throw new UsageException("diff takes two tapes, A and B; was given " + a.positional().size());
    }
    String nameA = a.positional().get(0);
    String nameB = a.positional().get(1);
    boolean timing = a.flag("--timing");
    TapeDiff.Result result;
    try {
      result = TapeDiff.compare(UserFile.tape(nameA), UserFile.tape(nameB), timing);
    } catch (CommandFailure | TapeException e) {
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.USAGE;
    } catch (OutOfMemoryError e) {
      // never exit 1 (that says "they differ"), nor a stack trace
      err.println(
          "agentdouble: "
              + nameA
              + " and "
              + nameB
              + " cannot be compared in this JVM's "
              + "memory"
              + LineReader.memoryHint());
      return ExitStatus.USAGE;
    }
    String what = timing ? "" : " (timing ignored)";
    if (result.same()) {
      err.println("agentdouble: " + nameA + " and " + nameB + " are the same" + what);
      return ExitStatus.OK;
    }
    out.println("--- A " + nameA);
    out.println("+++ B " + nameB);
    result.lines().forEach(out::println);
    err.println(
        "agentdouble: "
            + nameA
            + " and "
            + nameB
            + " differ"
            + what
            + ": "
            + count(result.headerFields(), "header field")
            + ", "
            + count(result.changed(), "frame")
            + " changed, "
            + result.removed()
            + " removed, "
            + result.added()
            + " added");
    return ExitStatus.DIFFERENT;
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }
}
