package dev.agentdouble.recorder.internal;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.json.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The subcommands of {@code agentdouble}. */
public final class Commands {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int USAGE = 2;

  static final List<String> COMMANDS = List.of("demo", "record", "shim", "replay", "import",
      "lint", "show", "diff", "vary", "drift", "catalog", "serve");

  static final String HELP = """
      usage: agentdouble <command> [options]

      Commands:
        demo                      replay a built-in run in every output format, and a failure
        record [options] -- COMMAND ARGS...
                                  run a command (the real cursor-agent) and record it as a tape
        shim --record-into DIR | --tape FILE | --tapes DIR  --bin BINDIR
                                  write cursor-agent/agent scripts that record or replay
        replay TAPE [options]     play a tape (a file or builtin:NAME) through the fake agent, as a
                                  consumer would see it
            --output-format F       text, json or stream-json (default: the tape's own)
            --timing T              fast, recorded (default), scale:F or max-gap:MS
            --prompt P              the prompt to pass (default: the tape's vars.prompt)
        import --stdout FILE [--stderr FILE] [--exit N | --signal NAME] [--raw] --out TAPE
                                  turn a captured run into a tape
        lint TAPE...              check tapes against the format and the CLI's protocol
        show TAPE...              print a readable timeline of each tape
        diff A B [--timing]       show what differs between two tapes (timing ignored unless
                                  --timing); exit 0 when the same, 1 when they differ
        vary TAPE --variant NAME [--seed N] [--out FILE]
                                  derive a damaged variant (re-chunked, cut, noisy, ...); --list
        drift [--stdout] OLD NEW  compare the events' fields and types in two tapes or folders
        catalog [--show NAME | --write NAME --out FILE]
                                  list the built-in tapes; print one, or write it to a file
        serve --tapes DIR [--port N] [--timing T]
                                  answer fake agents from a folder of tapes over HTTP, for test
                                  runners not on the JVM; prints %s=... (see
                                  `agentdouble serve --help`)

      Run `agentdouble <command> --help` for a command's details.
      """.formatted(FakeEnvironment.URL);

  private final InputStream in;
  private final PrintStream out;
  private final PrintStream err;
  private final Optional<Path> home;

  /**
   * Commands of the installation the system property {@code agentdouble.home} names (the
   * launcher sets it); {@code demo} and {@code replay} fail with a clear message without it.
   */
  public Commands(InputStream in, PrintStream out, PrintStream err) {
    this(in, out, err, Optional.ofNullable(System.getProperty("agentdouble.home")).map(Path::of));
  }

  /** Commands of the installation rooted at {@code home}, whose fake agent they run. */
  public Commands(InputStream in, PrintStream out, PrintStream err, Path home) {
    this(in, out, err, Optional.of(home));
  }

  private Commands(InputStream in, PrintStream out, PrintStream err, Optional<Path> home) {
    this.in = in;
    this.out = out;
    this.err = err;
    this.home = home;
  }

  public int run(String... args) {
    if (args.length == 0) {
      err.print(HELP);
      return USAGE;
    }
    String command = args[0];
    List<String> rest = new ArrayList<>(Arrays.asList(args).subList(1, args.length));
    try {
      return switch (command) {
        case "-h", "--help", "help" -> {
          out.print(HELP);
          yield OK;
        }
        case "demo" -> new Demo(out, err, fakeRun().hermetic()).run(rest);
        case "replay" -> replay(rest);
        case "show" -> show(rest);
        case "lint" -> new LintCommand(out, err).run(rest);
        case "import" -> new ImportCommand(out, err).run(rest);
        case "record" -> new RecordCommand(in, out, err, System.getenv()).run(rest);
        case "shim" -> new ShimCommand(out, err, home).run(rest);
        case "vary" -> new VaryCommand(out, err).run(rest);
        case "drift" -> new DriftCommand(out, err).run(rest);
        case "diff" -> new DiffCommand(out, err).run(rest);
        case "catalog" -> new CatalogCommand(out, err).run(rest);
        case "serve" -> serveElsewhere();
        default -> usage("unknown command '" + command + "'; commands are "
            + String.join(", ", COMMANDS), "--help");
      };
    } catch (UsageException e) {
      return usage(e.getMessage(), COMMANDS.contains(command) ? command + " --help" : "--help");
    } catch (CommandFailure | TapeException e) {
      err.println("agentdouble: " + e.getMessage());
      return FAILED;
    } catch (InvalidPathException e) {
      return usage("not a valid path: '" + e.getInput() + "' (" + e.getReason() + ")",
          command + " --help");
    } catch (IOException e) {
      err.println("agentdouble: " + UserFile.reason(e, ""));
      return FAILED;
    } catch (UncheckedIOException e) {
      err.println("agentdouble: " + UserFile.reason(e.getCause(), ""));
      return FAILED;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("agentdouble: interrupted");
      return FAILED;
    } catch (IllegalStateException e) {
      err.println("agentdouble: " + e.getMessage());
      return FAILED;
    } catch (OutOfMemoryError e) {
      err.println("agentdouble: " + command + ": out of memory" + LineReader.memoryHint());
      return FAILED;
    } catch (RuntimeException | StackOverflowError e) {
      // never a stack trace: say what broke, in one line
      err.println("agentdouble: " + command + ": internal error (" + e + "); please report it, "
          + "with the command line and its files");
      return FAILED;
    }
  }

  /**
   * {@code serve} runs on the JUnit extension's classpath (WireMock), which this module does not
   * depend on: the {@code ./agentdouble} launcher starts it. Reaching it here means this class was
   * run directly.
   */
  private int serveElsewhere() {
    err.println("agentdouble: serve is started by the ./agentdouble launcher of the project root, "
        + "which runs it on the JUnit extension's classpath (dev.agentdouble.junit.internal.Serve); "
        + "run ./agentdouble serve --help");
    return FAILED;
  }

  private FakeRun fakeRun() {
    return new FakeRun(home, out, err);
  }

  /** Reports a usage error and where help is: {@code --help} or {@code COMMAND --help}. */
  private int usage(String message, String help) {
    err.println("agentdouble: " + message);
    err.println("Run 'agentdouble " + help + "' for usage.");
    return USAGE;
  }

  static final String REPLAY_HELP = """
      usage: agentdouble replay TAPE [--output-format F] [--timing T] [--prompt P]

      Plays TAPE through the fake agent exactly as a consumer would see it: stdout, stderr, timing,
      and the ending (the exit status is the run's; a death by signal n exits 128 + n). TAPE is a
      tape file, or builtin:NAME for a built-in tape (`agentdouble catalog` lists them).
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
      throw new UsageException("--output-format must be text, json or stream-json, was '"
          + format.get() + "'");
    }
    Timing timing = timing(a.value("--timing").orElse("recorded"));
    String name = a.positional().get(0);
    boolean builtin = name.startsWith(UserFile.BUILTIN);
    Tape tape = UserFile.tape(name);
    String prompt = a.value("--prompt").orElse(tape.header().vars().prompt()
        .filter(p -> !p.isBlank()).orElse("replay"));
    // "--" so that a prompt starting with a dash is not taken for an option
    return fakeRun().run(List.of("-p", "--output-format",
            format.orElse(tape.header().format().cliName()), "--", prompt),
        // a replay plays the run as recorded, in a workspace trusted as the recorded one was
        Map.of(FakeEnvironment.TAPE, builtin ? name : Path.of(name).toAbsolutePath().toString(),
            FakeEnvironment.TIMING, timing.toString(), FakeEnvironment.TRUST,
            FakeEnvironment.TRUSTED),
        24 * 3600);
  }

  static final String SHOW_HELP = """
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
        err.println("agentdouble: " + name + ": cannot be shown in this JVM's memory"
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
    throw new UsageException("--timing must be fast, recorded, scale:F (F >= 0, e.g. scale:0.5) "
        + "or max-gap:MS (e.g. max-gap:100), was '" + spec + "'");
  }
}
