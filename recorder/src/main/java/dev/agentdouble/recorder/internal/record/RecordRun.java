package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.files.TempOwner;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.process.ForwardedSignals;
import dev.agentdouble.recorder.internal.secrets.ArgvSecrets;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One run of {@code agentdouble record}: runs a command with the caller's stdin, passes its stdout
 * and stderr through as they come, and writes what it captured — every read, with its time — as a
 * tape.
 */
final class RecordRun {
  /**
   * How long, once COMMAND has exited, the recorder goes on reading its stdout and stderr while a
   * process it started still holds them open (by default; {@code --grace MS}).
   */
  static final long GRACE_MS = 3_000;

  static final long MAX_GRACE_MS = 24L * 3600 * 1000;

  private final InputStream in;
  private final PrintStream out;
  private final PrintStream err;
  private final Map<String, String> env;

  RecordRun(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {
    this.in = in;
    this.out = out;
    this.err = err;
    this.env = env;
  }

  /** Records the command {@code a} names, as its options say; returns the exit status. */
  int run(Args a) throws InterruptedException {
    if (a.positional().isEmpty()) {
      throw new UsageException("record needs a COMMAND to run, after --");
    }
    List<Pattern> redact = new ArrayList<>();
    for (String regex : a.all("--redact")) {
      try {
        redact.add(Pattern.compile(regex));
      } catch (PatternSyntaxException e) {
        throw new UsageException(
            "--redact " + regex + " is not a valid regular expression: " + e.getDescription());
      }
    }
    long graceMs = a.value("--grace").map(RecordRun::grace).orElse(GRACE_MS);
    List<String> command = a.positional();
    if (a.value("--out").isPresent() && a.value("--into").isPresent()) {
      throw new UsageException("give --out FILE or --into DIR, not both");
    }
    Instant recordedAt = Instant.now();
    Optional<Path> into = a.value("--into").map(Path::of);
    Path target =
        a.value("--out")
            .map(Path::of)
            .orElseGet(
                () ->
                    into.map(dir -> dir.resolve("<time>-<prompt>-<hash>.tape.ndjson"))
                        .orElse(Path.of("recording-" + STAMP.format(recordedAt) + ".tape.ndjson")));
    // --into: the name is made once the run is redacted, from its redacted header, never from
    // the command line as given (a key in argv, a prompt a --redact pattern matches)
    Function<Header, Path> tapeFile =
        into.<Function<Header, Path>>map(dir -> clean -> dir.resolve(nameFor(clean, recordedAt)))
            .orElse(clean -> target);

    // a paid run is never made only to be thrown away: the tape's folder must take files first
    Spool captured;
    try {
      captured = Spool.in(folderFor(target));
    } catch (IOException e) {
      err.println(
          "agentdouble: record: cannot write "
              + into.map(Path::toString).orElse(target.toString())
              + ": "
              + CommandFailure.reason(e, "")
              + "; "
              + command.get(0)
              + " was not run");
      return ExitStatus.RECORDER_FAILED;
    }
    String cliVersion = RecordedCommandLine.cliVersion(command);

    try (Capture capture = new Capture(captured)) {
      OutputPipes pipes;
      try {
        pipes = pipes(target);
      } catch (IOException e) {
        err.println(
            "agentdouble: record: cannot make the pipes to read "
                + command.get(0)
                + "'s output through: "
                + CommandFailure.reason(e, "")
                + "; it was not run");
        return ExitStatus.RECORDER_FAILED;
      }
      try {
        return record(
            a, command, redact, graceMs, target, tapeFile, cliVersion, recordedAt, capture, pipes);
      } finally {
        try {
          pipes.close();
        } catch (IOException e) {
          // the read ends of pipes read to their end or given up: nothing is lost
        }
      }
    }
  }

  /** Runs {@code command} with its output going through {@code pipes}, and writes the tape. */
  @SuppressWarnings("try") // the forwarding is a scope: open until the tape is written, unused
  private int record(
      Args a,
      List<String> command,
      List<Pattern> redact,
      long graceMs,
      Path target,
      Function<Header, Path> tapeFile,
      String cliVersion,
      Instant recordedAt,
      Capture capture,
      OutputPipes pipes)
      throws InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    boolean acp = RecordedCommandLine.acp(command);
    // an ACP session's stdin is the client's half of it: read, kept and passed on line by line
    pb.redirectInput(
        in == System.in && !acp ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.PIPE);
    pb.redirectOutput(pipes.stdoutFile());
    pb.redirectError(pipes.stderrFile());
    capture.origin = System.nanoTime();
    // reading before the command starts: what it writes at once is read (and timed) at once
    Thread stdout = capture.reader(pipes.stdout(), true, out);
    Thread stderr = capture.reader(pipes.stderr(), false, err);
    Process process;
    try {
      process = pb.start();
    } catch (IOException e) {
      String m = String.valueOf(e.getMessage());
      int status =
          m.contains("error=2,")
              ? ExitStatus.NOT_FOUND
              : m.contains("error=13,") ? ExitStatus.CANNOT_RUN : ExitStatus.RECORDER_FAILED;
      err.println(
          "agentdouble: record: cannot run "
              + command.get(0)
              + ": "
              + (status == ExitStatus.NOT_FOUND
                  ? "not found"
                  : status == ExitStatus.CANNOT_RUN ? "not executable" : m));
      return status;
    } finally {
      try {
        pipes.started();
      } catch (IOException e) {
        // a write end that would not close: the grace below still bounds the wait
      }
    }
    AtomicBoolean interrupted = new AtomicBoolean();
    // until the tape is written: a signal meanwhile must not cut the recorder short
    try (ForwardedSignals.Forwarding forwarding = ForwardedSignals.forward(process, interrupted)) {
      if (acp) {
        capture.clientPump(in, process.getOutputStream());
      } else if (in != System.in) {
        Capture.pump(in, process.getOutputStream());
      }
      int status = process.waitFor();
      long endMs = (System.nanoTime() - capture.origin) / 1_000_000;
      // what the command started may still write to its stdout and stderr: read on, a while
      long graceEnd = System.nanoTime() + graceMs * 1_000_000;
      boolean outOpen = !join(stdout, graceEnd);
      boolean errOpen = !join(stderr, graceEnd);
      if (outOpen || errOpen) {
        try {
          pipes.close();
        } catch (IOException e) {
          // the readers are told by the closing itself
        }
        // a reader stuck passing output on to a caller who does not read is left behind
        join(stdout, System.nanoTime() + STOP_NANOS);
        join(stderr, System.nanoTime() + STOP_NANOS);
        capture.stop();
        err.println(
            "agentdouble: record: stopped reading "
                + (outOpen && errOpen ? "stdout and stderr" : outOpen ? "stdout" : "stderr")
                + " "
                + graceMs
                + " ms after "
                + command.get(0)
                + " exited: a process it started still holds "
                + (outOpen && errOpen ? "them" : "it")
                + " open (--grace MS to wait longer)");
      }

      Header.Builder header =
          Header.builder()
              .cli(Path.of(command.get(0)).getFileName().toString())
              .argv(command.subList(1, command.size()))
              .outputFormat(acp ? OutputFormat.ACP : RecordedCommandLine.outputFormat(command))
              .recordedAt(recordedAt.toString())
              .source(Header.Source.RECORDED)
              .recorder("agentdouble 0.1.0");
      if (cliVersion != null) {
        header.cliVersion(cliVersion);
      }
      if (interrupted.get()) {
        header.extra("interrupted", "true");
      }
      Recording.Summary summary;
      long t;
      try (Recording recording =
          new Recording(
              Spool.create(folderFor(target)),
              env,
              command,
              redact,
              a.flag("--raw"),
              System.getProperty("user.dir"),
              recordedAt.toEpochMilli())) {
        ChunkFrames frames = new ChunkFrames(recording);
        capture.forEach(frames);
        frames.finish();
        if (frames.notJson() > 0) {
          err.println(
              "agentdouble: record: the client wrote "
                  + frames.notJson()
                  + (frames.notJson() == 1 ? " line" : " lines")
                  + " that "
                  + (frames.notJson() == 1 ? "is" : "are")
                  + " not JSON; an ACP tape keeps messages only, so "
                  + (frames.notJson() == 1 ? "it is" : "they are")
                  + " not in the tape");
        }
        t = Math.max(endMs, frames.lastT());
        summary = recording.write(header.build(), ending(status, t), tapeFile);
      } catch (IOException e) {
        err.println(
            "agentdouble: record: cannot write "
                + target
                + ": "
                + CommandFailure.reason(e, "")
                + " (the run's output was shown above)");
        return ExitStatus.RECORDER_FAILED;
      }
      if (!a.flag("--quiet")) {
        err.println("agentdouble: recorded " + summary(summary, t) + " -> " + summary.tape());
      }
      return status;
    }
  }

  /** How long the readers get to finish once the pipes are closed under them. */
  private static final long STOP_NANOS = 1_000_000_000L;

  /** Joins {@code thread} until {@code deadline} ({@link System#nanoTime}); whether it ended. */
  private static boolean join(Thread thread, long deadline) throws InterruptedException {
    while (thread.isAlive()) {
      long ms = (deadline - System.nanoTime()) / 1_000_000;
      if (ms <= 0) {
        return !thread.isAlive();
      }
      thread.join(ms);
    }
    return true;
  }

  private static long grace(String value) {
    try {
      long ms = Long.parseLong(value);
      if (ms >= 0 && ms <= MAX_GRACE_MS) {
        return ms;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new UsageException(
        "--grace must be a number of milliseconds from 0 to "
            + MAX_GRACE_MS
            + ", was '"
            + value
            + "'");
  }

  /**
   * The tape's folder, made if missing, cleared of what killed recorders left there: it must take
   * new files, or the run is not started.
   */
  private static Path folderFor(Path target) throws IOException {
    if (Files.isDirectory(target)) {
      throw new IOException("is a folder; --out names the tape's file (--into DIR names a folder)");
    }
    Path folder = target.toAbsolutePath().getParent();
    try {
      Files.createDirectories(folder);
    } catch (FileAlreadyExistsException e) {
      throw new IOException((e.getFile() == null ? folder : e.getFile()) + ": not a folder");
    }
    TempOwner.removeStale(folder);
    return folder;
  }

  /** The pipes, in the system's temporary folder, else beside the tape. */
  private static OutputPipes pipes(Path target) throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    TempOwner.removeStale(tmp);
    try {
      return OutputPipes.open(tmp);
    } catch (IOException e) {
      try {
        return OutputPipes.open(target.toAbsolutePath().getParent());
      } catch (IOException second) {
        e.addSuppressed(second);
        throw e;
      }
    }
  }

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC);

  /**
   * {@code <time>-<prompt slug>-<short hash>.tape.ndjson}: sortable, readable, unique. Made from
   * the tape's header as written, redacted: the prompt is its argv's last word that is neither an
   * option nor the value of a secret option (nor, for Claude Code, of any option; {@code run} when
   * there is none), and the hash (six hex digits, zero-padded) is of that argv, the time and the
   * recorder's pid.
   */
  static String nameFor(Header clean, Instant recordedAt) {
    List<String> argv = clean.argv();
    Set<Integer> secret = new HashSet<>();
    ArgvSecrets.find(argv).forEach(found -> secret.add(found.index()));
    boolean claude = clean.cli().filter("claude"::equals).isPresent();
    String prompt = "run";
    boolean options = true;
    for (int i = 0; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (options && arg.equals("--")) {
        options = false;
      } else if (options
          && claude
          && i + 1 < argv.size()
          && RecordedCommandLine.claudeValue(arg, argv.get(i + 1))) {
        i++; // Claude Code's prompt is never an option's value
      } else if (!secret.contains(i) && !(options && arg.startsWith("-"))) {
        prompt = arg;
      }
    }
    String slug =
        prompt.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (slug.length() > 40) {
      slug = slug.substring(0, 40).replaceAll("-+$", "");
    }
    String hash =
        String.format(
            Locale.ROOT,
            "%06x",
            (String.join("\u0000", argv) + System.nanoTime() + ProcessHandle.current().pid())
                    .hashCode()
                & 0xffffff);
    return STAMP.format(recordedAt)
        + "-"
        + (slug.isEmpty() ? "run" : slug)
        + "-"
        + hash
        + ".tape.ndjson";
  }

  private static String summary(Recording.Summary r, long ms) {
    return r.events()
        + (r.events() == 1 ? " event" : " events")
        + ", "
        + r.toolCalls()
        + (r.toolCalls() == 1 ? " tool call" : " tool calls")
        + ", "
        + String.format(Locale.ROOT, "%.1fs", ms / 1000.0)
        + ", "
        + r.redactions()
        + (r.redactions() == 1 ? " redaction" : " redactions");
  }

  /**
   * The ending: an exit code, or the signal the command died by. The JVM reports a death by signal
   * n as status 128 + n, as a shell does; a status in that range naming a signal a tape can end
   * with is taken to be one (an explicit {@code exit 137} reads as SIGKILL).
   */
  static Frame ending(int status, long t) {
    if (status > 128) {
      var name = Frame.Kill.signalName(status - 128);
      if (name.isPresent()) {
        return new Frame.Kill(t, name.get());
      }
    }
    return new Frame.Exit(t, status & 0xff);
  }
}
