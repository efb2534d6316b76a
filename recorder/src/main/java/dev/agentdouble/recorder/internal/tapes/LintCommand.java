package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.lint.Finding;
import dev.agentdouble.lint.Linter;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code agentdouble lint TAPE...}: the format's rules and the Cursor protocol's. One line per
 * finding, {@code FILE:LINE: severity [code] message}; exit 1 when any tape has an error.
 */
public final class LintCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble lint [--excerpt] TAPE...

      Checks each tape (a file, or builtin:NAME for a built-in tape) against the tape format and
      the Cursor protocol (init first, one session id, call_id pairing, exactly one result on
      success, ...). Prints one line per finding:
        FILE:LINE: error|warning [code] message
      Exit status: 0 when no tape has an error (warnings allowed), 1 otherwise.
        --excerpt   the tapes hold selected lines, not whole runs: rules about the whole run warn
      """;

  public LintCommand() {}

  @Override
  public String name() {
    return "lint";
  }

  @Override
  public String usage() {
    return "lint TAPE...";
  }

  @Override
  public String summary() {
    return "check tapes against the format and the CLI's protocol";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    Args a = Args.parse(args, List.of(), List.of("--excerpt"));
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (a.positional().isEmpty()) {
      throw new UsageException("lint needs at least one TAPE");
    }
    Linter.Scope scope = a.flag("--excerpt") ? Linter.Scope.EXCERPT : Linter.Scope.RUN;
    int errors = 0;
    int warnings = 0;
    for (String name : a.positional()) {
      Tape tape;
      try {
        tape = UserFile.tape(name);
      } catch (CommandFailure e) {
        err.println("agentdouble: " + e.getMessage());
        errors++;
        continue;
      } catch (TapeException e) {
        out.println(name + ":" + e.line() + ": error [format] " + e.problem());
        errors++;
        continue;
      }
      for (Finding f : Linter.lint(tape, scope)) {
        out.println(
            name
                + ":"
                + f.line()
                + ": "
                + (f.isError() ? "error" : "warning")
                + " ["
                + f.code()
                + "] "
                + f.message());
        if (f.isError()) {
          errors++;
        } else {
          warnings++;
        }
      }
    }
    err.println(
        "agentdouble: linted "
            + a.positional().size()
            + (a.positional().size() == 1 ? " tape: " : " tapes: ")
            + errors
            + (errors == 1 ? " error, " : " errors, ")
            + warnings
            + (warnings == 1 ? " warning" : " warnings"));
    return errors == 0 ? ExitStatus.OK : ExitStatus.FAILED;
  }
}
