package dev.agentdouble.recorder.internal.tapes;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.recorder.internal.secrets.ArgvSecrets;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code agentdouble import}: a captured run (stdout, stderr, ending) to a tape. */
public final class ImportCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble import --stdout FILE [--stderr FILE] [--exit N | --signal NAME] [--raw]
                                [--output-format F] [--cli-version V] [--cli NAME] --out TAPE
                                [-- COMMAND ARGS...]
             agentdouble import --case DIR [--exit N | --signal NAME] [--raw] --out TAPE
                                [-- COMMAND ARGS...]

      Turns a captured run into a tape. Frame times come from the events' timestamp_ms.
        --stdout FILE        the bytes the CLI wrote on stdout (may be empty)
        --stderr FILE        the bytes it wrote on stderr
        --exit N             its exit code (default 0)
        --signal NAME        or the signal it died by: SIGKILL, KILL or 9
        --raw                keep every byte as captured and declare no vars; without it the
                             session id, cwd, prompt and timestamps are declared as vars, so
                             replays get live values
        --output-format F    the format the capture is in (default stream-json); acp for
                             what an ACP agent wrote: the client's messages are inferred
        --cli-version V      the CLI version to note in the header
        --cli NAME           the program that made the run (cursor-agent, claude), when no
                             command line is given
        --case DIR           a captured run's folder: DIR/stdout.ndjson (or stdout.txt),
                             DIR/stderr.txt, and DIR/case.json's exit, cliVersion,
                             outputFormat and argv (the command line, the program first);
                             --exit or --signal only where its exit is null (not known)
        --out TAPE           where to write the tape (atomically)
        -- COMMAND ARGS...   the command line the capture was made with, for the header's
                             cli and argv (secret values redacted); a capture made with
                             --stream-partial-output says so
      """;

  private static final List<String> CAPTURE_OPTIONS =
      List.of("--stdout", "--stderr", "--exit", "--signal", "--output-format", "--cli-version");

  public ImportCommand() {}

  @Override
  public String name() {
    return "import";
  }

  @Override
  public String usage() {
    return "import --stdout FILE [--stderr FILE] [--exit N | --signal NAME] [--raw] --out TAPE";
  }

  @Override
  public String summary() {
    return "turn a captured run into a tape";
  }

  /**
   * What is imported: the capture, and what is known of the run that made it.
   *
   * @param commandLine the program and its arguments; empty when not known
   */
  private record Run(
      Capture capture,
      Optional<OutputFormat> outputFormat,
      Optional<String> cliVersion,
      List<String> commandLine) {}

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws IOException {
    List<String> valued = new ArrayList<>(CAPTURE_OPTIONS);
    valued.addAll(List.of("--out", "--case", "--cli"));
    Args a = Args.parse(args, valued, List.of("--raw"));
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (!a.beforeDashes().isEmpty()) {
      String word = a.beforeDashes().get(0);
      String hint =
          a.value("--stdout").isEmpty() && a.value("--case").isEmpty()
              ? "; did you mean --stdout " + word + "?"
              : a.value("--out").isEmpty() ? "; did you mean --out " + word + "?" : "";
      throw new UsageException("import takes no positional arguments, was '" + word + "'" + hint);
    }
    if (a.value("--case").isEmpty() && a.value("--stdout").isEmpty()) {
      throw new UsageException("import needs --stdout FILE");
    }
    String target =
        a.value("--out").orElseThrow(() -> new UsageException("import needs --out TAPE"));
    Run run = a.value("--case").isPresent() ? fromCase(a) : fromOptions(a);
    ImportOptions.Builder options = ImportOptions.builder().raw(a.flag("--raw"));
    run.outputFormat().ifPresent(options::outputFormat);
    run.cliVersion().ifPresent(options::cliVersion);
    if (!run.commandLine().isEmpty()) {
      Optional<String> program = program(run.commandLine());
      Optional<String> cli = a.value("--cli");
      if (cli.isPresent() && program.isPresent() && !cli.equals(program)) {
        throw new UsageException(
            "--cli "
                + cli.get()
                + " names another program than the command line's, "
                + program.get()
                + "; give one of them");
      }
      program.ifPresent(options::cli);
      options.argv(redacted(run.commandLine().subList(1, run.commandLine().size())));
    } else {
      a.value("--cli").ifPresent(options::cli);
    }
    options.importedAt(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    Tape tape = Importer.importRun(run.capture(), options.build());
    UserFile.write(tape, target);
    err.println(
        "agentdouble: wrote "
            + target
            + " ("
            + tape.frames().size()
            + " frames, "
            + (a.flag("--raw") ? "raw" : "vars: " + varNames(tape))
            + ")");
    return ExitStatus.OK;
  }

  /** The run the options describe: {@code --stdout} and the rest, and the words after --. */
  private static Run fromOptions(Args a) {
    String stdoutFile = a.value("--stdout").get();
    if (a.value("--exit").isPresent() && a.value("--signal").isPresent()) {
      throw new UsageException("give --exit or --signal, not both");
    }
    int exit = exitCode(a.value("--exit").orElse("0"));
    String signal = a.value("--signal").map(ImportCommand::signal).orElse(null);
    Optional<OutputFormat> format = Optional.empty();
    if (a.value("--output-format").isPresent()) {
      String f = a.value("--output-format").get();
      format =
          Optional.of(
              OutputFormat.fromTapeName(f)
                  .orElseThrow(
                      () ->
                          new UsageException(
                              "--output-format must be text, json, stream-json or acp, was '"
                                  + f
                                  + "'")));
    }
    List<String> commandLine = a.afterDashes().map(ImportCommand::commandLine).orElse(List.of());
    byte[] stdout = UserFile.read(stdoutFile);
    byte[] stderr =
        a.value("--stderr").isPresent() ? UserFile.read(a.value("--stderr").get()) : new byte[0];
    Capture capture =
        signal != null
            ? Capture.killed(stdout, stderr, signal)
            : Capture.exited(stdout, stderr, exit);
    return new Run(capture, format, a.value("--cli-version"), commandLine);
  }

  /** The run of a case folder, {@code --case DIR}; the words after -- when it has no argv. */
  private static Run fromCase(Args a) {
    String dir = a.value("--case").get();
    CaseFolder folder = CaseFolder.read(dir);
    boolean exitUnknown = folder.exit().isEmpty();
    for (String option : CAPTURE_OPTIONS) {
      boolean ending = option.equals("--exit") || option.equals("--signal");
      if (a.value(option).isPresent() && !(ending && exitUnknown)) {
        throw new UsageException(
            "--case DIR reads the capture and its facts from DIR; give --case or "
                + String.join(", ", CAPTURE_OPTIONS)
                + ", not both ("
                + option
                + " was given)");
      }
    }
    Optional<List<String>> given = a.afterDashes().map(ImportCommand::commandLine);
    List<String> commandLine = folder.commandLine();
    if (!commandLine.isEmpty()) {
      if (given.isPresent()) {
        throw new UsageException(
            dir + "/case.json gives the command line (argv) already; give none after --");
      }
      if (program(commandLine).isEmpty()) {
        throw new CommandFailure(
            dir + "/case.json: \"argv\" " + NO_PROGRAM + ", was '" + commandLine.get(0) + "'");
      }
    }
    Capture capture;
    if (folder.exit().isPresent()) {
      capture = Capture.exited(folder.stdout(), folder.stderr(), folder.exit().get());
    } else if (a.value("--signal").isPresent() || a.value("--exit").isPresent()) {
      if (a.value("--exit").isPresent() && a.value("--signal").isPresent()) {
        throw new UsageException("give --exit or --signal, not both");
      }
      capture =
          a.value("--signal").isPresent()
              ? Capture.killed(folder.stdout(), folder.stderr(), signal(a.value("--signal").get()))
              : Capture.exited(folder.stdout(), folder.stderr(), exitCode(a.value("--exit").get()));
    } else {
      throw new CommandFailure(
          Path.of(dir).resolve("case.json")
              + ": \"exit\" must be the run's exit code, from 0 to 255, was null; where the"
              + " capture does not say, give it: --exit N or --signal NAME");
    }
    return new Run(capture, folder.outputFormat(), folder.cliVersion(), given.orElse(commandLine));
  }

  private static final String NO_PROGRAM =
      "begins with the program that made the run (cursor-agent -p ...)";

  /** The words after --, checked: a command line that begins with its program. */
  private static List<String> commandLine(List<String> words) {
    if (words.isEmpty()) {
      throw new UsageException(
          "after -- give the command line the capture was made with, "
              + "e.g. -- cursor-agent -p --output-format stream-json PROMPT");
    }
    if (program(words).isEmpty()) {
      throw new UsageException(
          "the command line after -- " + NO_PROGRAM + ", was '" + words.get(0) + "'");
    }
    return words;
  }

  /** The file name of the program a command line begins with, unless it begins with an option. */
  private static Optional<String> program(List<String> words) {
    String command = words.get(0);
    String name = command.substring(command.lastIndexOf('/') + 1);
    return name.isEmpty() || command.startsWith("-") ? Optional.empty() : Optional.of(name);
  }

  /**
   * {@code args} with the values of secret options replaced by markers, as a recording has them.
   */
  private static List<String> redacted(List<String> args) {
    List<String> clean = new ArrayList<>(args);
    for (ArgvSecrets.Found found : ArgvSecrets.find(args)) {
      clean.set(found.index(), found.redactedElement());
    }
    return clean;
  }

  private static String varNames(Tape tape) {
    var v = tape.header().vars();
    StringBuilder sb = new StringBuilder();
    v.sessionId().ifPresent(x -> sb.append("sessionId "));
    v.cwd().ifPresent(x -> sb.append("cwd "));
    v.prompt().ifPresent(x -> sb.append("prompt "));
    v.epochMs().ifPresent(x -> sb.append("epochMs "));
    return sb.length() == 0 ? "none" : sb.toString().trim();
  }

  static int exitCode(String value) {
    try {
      int code = Integer.parseInt(value);
      if (code >= 0 && code <= 255) {
        return code;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--exit must be a code from 0 to 255, was '" + value + "'");
  }

  static String signal(String value) {
    String name = value.toUpperCase(Locale.ROOT);
    Optional<String> signal;
    if (!name.isEmpty() && name.chars().allMatch(c -> c >= '0' && c <= '9')) {
      signal = name.length() > 3 ? Optional.empty() : Frame.Kill.signalName(Integer.parseInt(name));
    } else {
      String full = name.startsWith("SIG") ? name : "SIG" + name;
      signal = Frame.Kill.SIGNALS.contains(full) ? Optional.of(full) : Optional.empty();
    }
    return signal.orElseThrow(
        () ->
            new UsageException(
                "--signal '"
                    + value
                    + "' is not a "
                    + "signal a tape can end with; use one of "
                    + String.join(", ", signals())
                    + " (also without SIG, or by number)"));
  }

  private static List<String> signals() {
    List<String> names = new ArrayList<>(Frame.Kill.SIGNALS);
    names.sort(Comparator.comparingInt(Frame.Kill::signalNumber));
    return names;
  }
}
