package dev.agentdouble.recorder.internal;

import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** {@code agentdouble import}: a captured run (stdout, stderr, ending) to a tape. */
final class ImportCommand {
  static final String HELP =
      """
      usage: agentdouble import --stdout FILE [--stderr FILE] [--exit N | --signal NAME] [--raw]
                                [--output-format F] [--cli-version V] --out TAPE

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
        --out TAPE           where to write the tape (atomically)
      """;

  private final PrintStream out;
  private final PrintStream err;

  ImportCommand(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  int run(List<String> args) throws IOException {
    Args a =
        Args.parse(
            args,
            List.of(
                "--stdout",
                "--stderr",
                "--exit",
                "--signal",
                "--out",
                "--output-format",
                "--cli-version"),
            List.of("--raw"));
    if (a.help()) {
      out.print(HELP);
      return Commands.OK;
    }
    if (!a.positional().isEmpty()) {
      String word = a.positional().get(0);
      String hint =
          a.value("--stdout").isEmpty()
              ? "; did you mean --stdout " + word + "?"
              : a.value("--out").isEmpty() ? "; did you mean --out " + word + "?" : "";
      throw new UsageException("import takes no positional arguments, was '" + word + "'" + hint);
    }
    String stdoutFile =
        a.value("--stdout").orElseThrow(() -> new UsageException("import needs --stdout FILE"));
    String target =
        a.value("--out").orElseThrow(() -> new UsageException("import needs --out TAPE"));
    if (a.value("--exit").isPresent() && a.value("--signal").isPresent()) {
      throw new UsageException("give --exit or --signal, not both");
    }
    int exit = exitCode(a.value("--exit").orElse("0"));
    String signal = a.value("--signal").map(ImportCommand::signal).orElse(null);
    ImportOptions.Builder options = ImportOptions.builder().raw(a.flag("--raw"));
    if (a.value("--output-format").isPresent()) {
      String f = a.value("--output-format").get();
      options.outputFormat(
          OutputFormat.fromTapeName(f)
              .orElseThrow(
                  () ->
                      new UsageException(
                          "--output-format must be text, json, stream-json or acp, was '"
                              + f
                              + "'")));
    }
    a.value("--cli-version").ifPresent(options::cliVersion);
    options.importedAt(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    byte[] stdout = UserFile.read(stdoutFile);
    byte[] stderr =
        a.value("--stderr").isPresent() ? UserFile.read(a.value("--stderr").get()) : new byte[0];
    Capture capture =
        signal != null
            ? Capture.killed(stdout, stderr, signal)
            : Capture.exited(stdout, stderr, exit);
    Tape tape = Importer.importRun(capture, options.build());
    UserFile.write(tape, target);
    err.println(
        "agentdouble: wrote "
            + target
            + " ("
            + tape.frames().size()
            + " frames, "
            + (a.flag("--raw") ? "raw" : "vars: " + varNames(tape))
            + ")");
    return Commands.OK;
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
