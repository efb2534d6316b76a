package dev.agentdouble.recorder.internal;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.Command.Option;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.CommandRegistry;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * This module's commands of {@code agentdouble}, in the order of the top-level help, each
 * registered once here with its usage and summary; {@code replay} and {@code show} are run here.
 */
public final class Commands {
  static final int OK = CommandRegistry.OK;
  static final int FAILED = CommandRegistry.FAILED;
  static final int USAGE = CommandRegistry.USAGE;

  private final PrintStream out;
  private final PrintStream err;
  private final Optional<Path> home;

  private Commands(PrintStream out, PrintStream err, Optional<Path> home) {
    this.out = out;
    this.err = err;
    this.home = home;
  }

  /**
   * The commands of the installation rooted at {@code home}, whose fake agent {@code demo}, {@code
   * replay} and {@code shim} use (they fail with a clear message without it).
   */
  public static List<Command> all(Optional<Path> home) {
    return List.of(
        new BuiltIn(
            "demo",
            "demo",
            "replay a built-in run in every output format, and a failure",
            List.of(),
            (args, in, out, err) ->
                new Demo(out, err, new FakeRun(home, out, err).hermetic()).run(args)),
        new BuiltIn(
            "record",
            "record [options] -- COMMAND ARGS...",
            "run a command (the real cursor-agent) and record it as a tape",
            List.of(),
            (args, in, out, err) -> new RecordCommand(in, out, err, System.getenv()).run(args)),
        new BuiltIn(
            "shim",
            "shim --record-into DIR | --tape FILE | --tapes DIR  --bin BINDIR",
            "write cursor-agent/agent scripts that record or replay",
            List.of(),
            (args, in, out, err) -> new ShimCommand(out, err, home).run(args)),
        new BuiltIn(
            "replay",
            "replay TAPE [options]",
            "play a tape (a file or builtin:NAME) through the fake agent, as a\n"
                + "consumer would see it",
            List.of(
                new Option(
                    "--output-format F", "text, json or stream-json (default: the tape's own)"),
                new Option("--timing T", "fast, recorded (default), scale:F or max-gap:MS"),
                new Option("--prompt P", "the prompt to pass (default: the tape's vars.prompt)")),
            (args, in, out, err) -> new Commands(out, err, home).replay(args)),
        new BuiltIn(
            "import",
            "import --stdout FILE [--stderr FILE] [--exit N | --signal NAME] [--raw] --out TAPE",
            "turn a captured run into a tape",
            List.of(),
            (args, in, out, err) -> new ImportCommand(out, err).run(args)),
        new BuiltIn(
            "lint",
            "lint TAPE...",
            "check tapes against the format and the CLI's protocol",
            List.of(),
            (args, in, out, err) -> new LintCommand(out, err).run(args)),
        new BuiltIn(
            "show",
            "show TAPE...",
            "print a readable timeline of each tape",
            List.of(),
            (args, in, out, err) -> new Commands(out, err, home).show(args)),
        new BuiltIn(
            "diff",
            "diff A B [--timing]",
            "show what differs between two tapes (timing ignored unless\n"
                + "--timing); exit 0 when the same, 1 when they differ",
            List.of(),
            (args, in, out, err) -> new DiffCommand(out, err).run(args)),
        new BuiltIn(
            "vary",
            "vary TAPE --variant NAME [--seed N] [--out FILE]",
            "derive a damaged variant (re-chunked, cut, noisy, ...); --list",
            List.of(),
            (args, in, out, err) -> new VaryCommand(out, err).run(args)),
        new BuiltIn(
            "drift",
            "drift [--stdout] OLD NEW",
            "compare the events' fields and types in two tapes or folders",
            List.of(),
            (args, in, out, err) -> new DriftCommand(out, err).run(args)),
        new BuiltIn(
            "catalog",
            "catalog [--show NAME | --write NAME --out FILE]",
            "list the built-in tapes; print one, or write it to a file",
            List.of(),
            (args, in, out, err) -> new CatalogCommand(out, err).run(args)));
  }

  /** What a command of this module does with its arguments and streams. */
  @FunctionalInterface
  private interface Body {
    int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
        throws IOException, InterruptedException;
  }

  /** A command of this module: how the help lists it, and its body. */
  private record BuiltIn(String name, String usage, String summary, List<Option> options, Body body)
      implements Command {
    BuiltIn {
      options = List.copyOf(options);
    }

    @Override
    public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
        throws IOException, InterruptedException {
      return body.run(args, in, out, err);
    }
  }

  private FakeRun fakeRun() {
    return new FakeRun(home, out, err);
  }

  static final String REPLAY_HELP =
      """
      usage: agentdouble replay TAPE [--output-format F] [--timing T] [--prompt P]

      Plays TAPE through the fake agent exactly as a consumer would see it: stdout, stderr, timing,
      and the ending (the exit status is the run's; a death by signal n exits 128 + n). TAPE is a
      tape file, or builtin:NAME for a built-in tape (`agentdouble catalog` lists them). A TAPE the
      fake cannot replay (missing, not a regular file, malformed) exits 70, as the fake does.
        --output-format F   text, json or stream-json (default: the format the tape was recorded in)
        --timing T          fast, recorded (default), scale:F or max-gap:MS
        --prompt P          the prompt to pass (default: the tape's vars.prompt, else "replay")
      """;

  private int replay(List<String> args) throws IOException, InterruptedException {
    Args a = Args.parse(args, List.of("--output-format", "--timing", "--prompt"), List.of());
    if (a.help()) {
      out.print(REPLAY_HELP);
      return OK;
    }
    if (a.positional().size() != 1) {
      throw new UsageException("replay takes one TAPE");
    }
    Optional<String> format = a.value("--output-format");
    if (format.isPresent() && OutputFormat.fromCliName(format.get()).isEmpty()) {
      throw new UsageException(
          "--output-format must be text, json or stream-json, was '" + format.get() + "'");
    }
    Timing timing = timing(a.value("--timing").orElse("recorded"));
    String name = a.positional().get(0);
    boolean builtin = name.startsWith(UserFile.BUILTIN);
    Tape tape;
    try {
      tape = UserFile.tape(name);
    } catch (CommandFailure | TapeException e) {
      // what the fake would say of this tape, it says before running it, with the fake's status
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.OWN_PROBLEM;
    } catch (OutOfMemoryError e) {
      err.println(
          "agentdouble: "
              + name
              + ": cannot be read in this JVM's memory"
              + LineReader.memoryHint());
      return ExitStatus.OWN_PROBLEM;
    }
    String prompt =
        a.value("--prompt")
            .orElse(tape.header().vars().prompt().filter(p -> !p.isBlank()).orElse("replay"));
    // "--" so that a prompt starting with a dash is not taken for an option
    return fakeRun()
        .run(
            List.of(
                "-p",
                "--output-format",
                format.orElse(tape.header().format().cliName()),
                "--",
                prompt),
            // a replay plays the run as recorded, in a workspace trusted as the recorded one was
            Map.of(
                FakeEnvironment.TAPE,
                builtin ? name : Path.of(name).toAbsolutePath().toString(),
                FakeEnvironment.TIMING,
                timing.toString(),
                FakeEnvironment.TRUST,
                FakeEnvironment.TRUSTED),
            24 * 3600);
  }

  static final String SHOW_HELP =
      """
      usage: agentdouble show TAPE...

      Prints a readable timeline of each tape (a file, or builtin:NAME for a built-in tape): time, stream, event type, tool and a short text.
      Failures are marked with '!' and silences of a second or more get a line of their own.
      Exit status: 0 when every tape was shown, 1 when one cannot be read (it is named; the others
      are still shown), 2 on a usage error.
      """;

  private int show(List<String> args) throws IOException {
    Args a = Args.parse(args, List.of(), List.of());
    if (a.help()) {
      out.print(SHOW_HELP);
      return OK;
    }
    if (a.positional().isEmpty()) {
      throw new UsageException("show needs at least one TAPE");
    }
    int status = OK;
    for (String name : a.positional()) {
      try {
        out.print(Timeline.render(name, UserFile.tape(name)));
      } catch (CommandFailure | TapeException e) {
        err.println("agentdouble: " + e.getMessage());
        status = FAILED;
      } catch (OutOfMemoryError e) {
        err.println(
            "agentdouble: "
                + name
                + ": cannot be shown in this JVM's memory"
                + LineReader.memoryHint());
        status = FAILED;
      }
    }
    return status;
  }

  /**
   * {@code spec} when it is a timing policy the fake agent takes ({@code fast}, {@code recorded},
   * {@code scale:F}, {@code max-gap:MS}); a usage error naming {@code --timing} otherwise.
   */
  static Timing timing(String spec) {
    if (Timing.problem(spec).isEmpty()) {
      return Timing.parse(spec);
    }
    throw new UsageException(
        "--timing must be fast, recorded, scale:F (F >= 0, e.g. scale:0.5) "
            + "or max-gap:MS (e.g. max-gap:100), was '"
            + spec
            + "'");
  }
}
