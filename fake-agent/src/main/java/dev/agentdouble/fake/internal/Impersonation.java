package dev.agentdouble.fake.internal;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.TextStyle;
import dev.agentdouble.variants.Variants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;

/**
 * One run of the fake agent, from argv to ending. Everything it touches of the process (env, cwd,
 * terminals, streams) comes in through the constructor, so it runs the same in tests.
 */
public final class Impersonation {
  /** The exit status of AgentDouble's own problems: bad tape, no tape, no match. */
  public static final int OWN_PROBLEM = ExitStatus.OWN_PROBLEM;

  /**
   * The tape header key that says the run's workspace is not trusted ({@code "trust":"untrusted"}):
   * the fake's trust gate then applies to the run (docs/tape-format.md §2).
   */
  static final String TRUST_KEY = "trust";

  /** The raw JSON of {@link #TRUST_KEY}'s one value. */
  static final String UNTRUSTED = "\"untrusted\"";

  /** The hidden command that runs an ACP agent on stdio: {@code agent acp}. */
  static final String ACP = "acp";

  private final String programName;
  private final List<String> argv;
  private final Map<String, String> env;
  private final String cwd;
  private final String home;
  private final boolean stdinTty;
  private final boolean stdoutTty;
  private final InputStream stdin;
  private final OutputStream stdout;
  private final OutputStream stderr;
  private final long originNanos;
  private final long pid;

  /** The tape this run replays, once chosen: let go of when the run ends. */
  private TapeSource replayed;

  public Impersonation(
      String programName,
      List<String> argv,
      Map<String, String> env,
      String cwd,
      String home,
      boolean stdinTty,
      boolean stdoutTty,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr,
      long originNanos,
      long pid) {
    this.programName = programName;
    this.argv = List.copyOf(argv);
    this.env = env;
    this.cwd = cwd;
    this.home = home;
    this.stdinTty = stdinTty;
    this.stdoutTty = stdoutTty;
    this.stdin = stdin;
    this.stdout = stdout;
    this.stderr = stderr;
    this.originNanos = originNanos;
    this.pid = pid;
  }

  /** The invocation of this process, as the launcher started it. */
  public static Impersonation fromProcess(String[] args, OutputStream stdout, OutputStream stderr) {
    long origin = ProcessClock.originNanos();
    Owner.enable();
    String tty = System.getProperty("agentdouble.tty", "");
    String launcher = System.getProperty("agentdouble.invokedAs", "agent");
    String program = launcher.substring(launcher.lastIndexOf('/') + 1);
    return new Impersonation(
        program,
        List.of(args),
        System.getenv(),
        System.getProperty("user.dir"),
        System.getenv().getOrDefault("HOME", System.getProperty("user.home")),
        tty.contains("in"),
        tty.contains("out"),
        System.in,
        stdout,
        stderr,
        origin,
        ProcessClock.pid());
  }

  /** Runs the invocation; returns how the process must end. */
  public Ending run() {
    JournalEntry journal = new JournalEntry(System.currentTimeMillis());
    try {
      return runChecked(journal);
    } catch (TapeException e) {
      return ownProblem(journal, e.getMessage());
    } catch (IllegalArgumentException e) {
      return ownProblem(journal, e.getMessage());
    } catch (IOException e) {
      return ownProblem(journal, "I/O error: " + e.getMessage());
    } catch (OutOfMemoryError e) {
      // the tape's lines are checked where they are read (FILE:LINE); this is anything else
      return ownProblem(journal, outOfMemory(e));
    } catch (RuntimeException | StackOverflowError e) {
      // never a stack trace, which a consumer could take for the real CLI failing
      return ownProblem(
          journal,
          "internal error (" + e + "); please report it, with the tape " + "and the command line");
    } finally {
      if (replayed != null) {
        try {
          replayed.close();
        } catch (IOException e) {
          // read to its end already
        }
      }
    }
  }

  /**
   * What an {@link OutOfMemoryError} says to a user: a thread the system would not start (the limit
   * on processes and threads, or memory for its stack), or a full heap.
   */
  static String outOfMemory(OutOfMemoryError e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("native thread")) {
      return "cannot start a thread ("
          + message
          + "); the limit on this user's processes and threads (ulimit -u), or on the memory"
          + " for their stacks, is reached: end other processes, or raise the limit";
    }
    return "out of memory" + LineReader.memoryHint();
  }

  private Ending runChecked(JournalEntry journal) throws IOException {
    Owner.configure(env);
    Profile profile;
    try {
      profile = Profile.load(env);
    } catch (ProfileException e) {
      return ownProblem(journal, e.getMessage());
    }
    FakeEnvironment settings = FakeEnvironment.read(env);
    ParseResult parsed = CliParser.parse(programName, argv, profile.behaviour().surface());
    if (parsed instanceof ParseResult.UsageError usage) {
      writeErr(usage.stderr());
      return journal.end(new Frame.Exit(0, ParseResult.UsageError.EXIT), null);
    }
    CliArgs args = ((ParseResult.Parsed) parsed).args();
    Optional<Answer> answer = Subcommands.answer(args, profile);
    if (answer.isPresent()) {
      Answer o = answer.get();
      writeOut(o.stdout());
      writeErr(o.stderr());
      return journal.end(o.exit(), null);
    }
    if (args.subcommand().isEmpty()
        && !args.promptWords().isEmpty()
        && args.promptWords().get(0).equals(ACP)) {
      // each turn writes its own journal line
      return new AcpServer(env, profile, settings, args, argv, cwd, stdout, stderr, pid).run(stdin);
    }
    if (!args.print() && stdinTty && stdoutTty) {
      return ownProblem(
          journal,
          "the interactive mode is not impersonated; run with -p "
              + "(print mode), or with stdout or stdin not a terminal");
    }
    Profile.Behaviour behaviour = profile.behaviour();
    OutputFormat format = args.outputFormat().orElse(profile.defaultOutputFormat());
    journal.outputFormat = format.cliName();
    journal.model = args.model().orElse(null);
    String stdinText = null;
    // 2026.09 and later run at once with a prompt in argv and wait for stdin's end afterwards
    boolean awaitStdinEnd =
        !stdinTty
            && behaviour.stdin() == Profile.StdinRule.RUN_THEN_AWAIT_EOF
            && !args.promptWords().isEmpty();
    if (!stdinTty && !awaitStdinEnd) {
      Owner.watchBeforeReadingStdin();
      Path marker = Gates.markStdinOpen(env, pid);
      try {
        stdinText = readStdin();
      } finally {
        Gates.stdinEnded(marker);
      }
      journal.stdin = stdinText;
    }
    String prompt = String.join(" ", args.promptWords());
    if (prompt.isEmpty() && stdinText != null) {
      prompt = stdinText.strip();
    }
    journal.prompt = prompt;
    String workspace = args.workspace().orElse(cwd);
    ControlClient.Call call =
        new ControlClient.Call(
            argv,
            prompt,
            workspace,
            format.cliName(),
            args.model().orElse(null),
            stdinText,
            pid,
            forwardedEnv());
    Checks checks = new Checks(args, profile, env, settings.trusted(), workspace, prompt, cwd);
    Checks.Stop stop = checks.run();
    if (stop != null) {
      String url = env.get(FakeEnvironment.URL);
      if (!isBlank(url)) {
        ControlClient.report(url, env.get(ControlSecret.ENV), call, stop.reason());
      }
      return stopped(journal, stop);
    }
    // a tape the test chose decides the run: --system-prompt included, which the server refuses
    // for most accounts (the catalog's system-prompt-refused plays that refusal)
    TapeSelection.Result selected =
        TapeSelection.select(
            env, new TapeSelection.Request(prompt, argv, format, args.model()), call);
    if (selected instanceof TapeSelection.Failed failed) {
      return ownProblem(journal, failed.message());
    }
    TapeSource source = ((TapeSelection.Selected) selected).source();
    Optional<Timing> timingOfTheAnswer = ((TapeSelection.Selected) selected).timing();
    replayed = source;
    journal.tape = source.name();
    Player.Checked checked = Player.validate(source, settings.replayCache());
    Header header = checked.header();
    if (UNTRUSTED.equals(header.extras().get(TRUST_KEY))
        && (stop = checks.untrustedWorkspace()) != null) {
      // the tape plays a workspace not trusted yet: the gate decides, with the live path
      return stopped(journal, stop);
    }
    Player.Transform transform = null;
    if (header.format() != format) {
      if (header.format() != OutputFormat.STREAM_JSON) {
        return ownProblem(
            journal,
            source.name()
                + ": recorded in "
                + header.format().cliName()
                + ", which cannot be rendered faithfully as "
                + format.cliName()
                + "; record the run "
                + "with --output-format stream-json, or ask for --output-format "
                + header.format().cliName());
      }
      TextStyle style =
          format == OutputFormat.TEXT
              ? settings.textStyle().orElse(header.textStyle().orElse(profile.textStyle()))
              : TextStyle.ACTIONS;
      Renderer renderer =
          Renderer.of(format, style, new Renderer.Options(args.has("show-thinking")));
      transform = render(renderer);
      journal.renderedFrom = header.format().cliName();
    }
    // the live epoch: the wall-clock time of the process start, or AGENTDOUBLE_EPOCH_MS
    long liveEpochMs =
        settings
            .epochMs()
            .orElse(System.currentTimeMillis() - (System.nanoTime() - originNanos) / 1_000_000L);
    if (transform == null
        && args.streamPartialOutput()
        && format == OutputFormat.STREAM_JSON
        && !header.argv().contains(Variants.PartialOutput.FLAG)
        && !Player.holdsDeltas(source)) {
      // recorded without partial output, asked with it: stream it as a 2026 CLI would; a tape
      // that holds deltas (a capture imported without its argv) is played as it is
      Variants.PartialOutput partial = new Variants.PartialOutput(liveEpochMs);
      transform = partial(partial);
      journal.derived = "stream-partial-output";
    }
    String sessionId = sessionId(args, header);
    if (header.vars().sessionId().isPresent()) {
      journal.sessionId = sessionId; // otherwise the tape's own ids stand, whatever they are
    }
    Substitution substitution =
        Substitution.of(
            header.vars(),
            new Substitution.Live(
                Optional.of(sessionId),
                Optional.of(args.workspace().orElse(cwd)),
                Optional.ofNullable(home),
                Optional.of(prompt),
                OptionalLong.of(liveEpochMs),
                apiKeySource(args),
                liveModel(args, profile, header)));
    Timing timing = timingOfTheAnswer.orElse(settings.timing());
    journal.end(checked.ending(), null);
    if (checked.ending() instanceof Frame.Kill kill) {
      Signals.prepare(kill.signal(), pid);
    }
    Gates gates = Gates.fromEnv(env, settings.gateTimeoutMs());
    try {
      Ending ending =
          new Player(
                  source, timing, originNanos, substitution, transform, stdout, stderr, gates, pid)
              .play(checked);
      if (awaitStdinEnd && ending instanceof Frame.Exit) {
        Owner.watchBeforeReadingStdin();
        Path marker = Gates.markStdinOpen(env, pid);
        try {
          stdin.transferTo(OutputStream.nullOutputStream()); // the CLI lingers until stdin ends
        } finally {
          Gates.stdinEnded(marker);
        }
      }
      return ending;
    } catch (Gates.NotReleased e) {
      writeErr("agentdouble: " + e.getMessage() + "\n");
      return new Frame.Exit(0, OWN_PROBLEM);
    }
  }

  /** A run a check ended: what it writes, and how it exits. */
  private Ending stopped(JournalEntry journal, Checks.Stop stop) {
    writeOut(stop.answer().stdout());
    writeErr(stop.answer().stderr());
    journal.stoppedBy = stop.reason();
    return journal.end(stop.answer().exit(), null);
  }

  /**
   * What the init event's {@code apiKeySource} says live: {@code flag} for {@code --api-key},
   * {@code env} for {@code CURSOR_API_KEY}; otherwise the tape's value stands.
   */
  /**
   * The display name of the model {@code --model} chose, for the init event; empty when none was
   * chosen, when the profile does not know it, or when the tape was recorded with a model of its
   * own (which it keeps).
   */
  private static Optional<String> liveModel(CliArgs args, Profile profile, Header header) {
    if (args.model().isEmpty()) {
      return Optional.empty();
    }
    for (String arg : header.argv()) {
      if (arg.equals("--model") || arg.startsWith("--model=")) {
        return Optional.empty();
      }
    }
    Optional<Profile.Model> chosen = profile.catalog().resolve(args.model().get());
    // no lambda: the first one of a run costs the JVM's invoke machinery at start-up
    return chosen.isPresent() ? Optional.of(chosen.get().name()) : Optional.empty();
  }

  private Optional<String> apiKeySource(CliArgs args) {
    if (args.apiKey().isPresent()) {
      return Optional.of("flag");
    }
    if (!isBlank(env.get("CURSOR_API_KEY"))) {
      return Optional.of("env");
    }
    return Optional.empty();
  }

  /**
   * The environment a control server sees: {@code CURSOR_*} names with their values redacted, and
   * the variables named in {@code AGENTDOUBLE_FORWARD_ENV} (comma-separated) with their values.
   */
  private Map<String, String> forwardedEnv() {
    return forwardedEnv(env);
  }

  /** As {@link #forwardedEnv()}, for any environment. */
  static Map<String, String> forwardedEnv(Map<String, String> env) {
    Map<String, String> forwarded = new TreeMap<>();
    for (String name : env.keySet()) {
      if (name.startsWith("CURSOR_")) {
        forwarded.put(name, "REDACTED");
      }
    }
    String names = env.get(FakeEnvironment.FORWARD_ENV);
    if (!isBlank(names)) {
      for (String name : names.split(",")) {
        String value = env.get(name.strip());
        // the control server's own secret is never told to anyone, the server included
        if (value != null && !name.strip().equals(ControlSecret.ENV)) {
          forwarded.put(name.strip(), value);
        }
      }
    }
    return forwarded;
  }

  /**
   * The live session id: the one given with {@code --resume ID} or {@code --new-session-id ID}; the
   * recorded one for {@code --resume} without an id or {@code --continue}; otherwise a fresh UUID.
   */
  // Inner classes, not method references: these are on the start-up path of every json, text
  // and partial-output run, where a lambda would spin classes at run time (some 90 classes more).

  private static Player.Transform render(Renderer renderer) {
    return new Player.Transform() {
      @Override
      public List<Frame> next(Frame frame) {
        return renderer.next(frame);
      }
    };
  }

  private static Player.Transform partial(Variants.PartialOutput partial) {
    return new Player.Transform() {
      @Override
      public List<Frame> next(Frame frame) {
        return partial.next(frame);
      }
    };
  }

  private static String sessionId(CliArgs args, Header header) {
    if (args.newSessionId().isPresent()) {
      return args.newSessionId().get();
    }
    if (args.resumeId().isPresent()) {
      return args.resumeId().get();
    }
    Optional<String> recorded = header.vars().sessionId();
    if ((args.resume() || args.has("continue")) && recorded.isPresent()) {
      return recorded.get();
    }
    return freshUuid();
  }

  /**
   * A random version-4 UUID. Not from {@code SecureRandom}: a session id needs to be unique, not
   * unguessable, and seeding a secure generator costs more start-up than a whole replay.
   */
  static String freshUuid() {
    SplittableRandom random =
        new SplittableRandom(
            System.nanoTime()
                ^ System.currentTimeMillis() * 0x9E3779B97F4A7C15L
                ^ ProcessClock.pid());
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(high, low).toString();
  }

  private String readStdin() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    stdin.transferTo(bytes);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private Ending ownProblem(JournalEntry journal, String message) {
    writeErr("agentdouble: " + message + "\n");
    return journal.end(new Frame.Exit(0, OWN_PROBLEM), message);
  }

  private void writeOut(String text) {
    write(stdout, text);
  }

  private void writeErr(String text) {
    write(stderr, text);
  }

  private static void write(OutputStream stream, String text) {
    if (text.isEmpty()) {
      return;
    }
    try {
      stream.write(text.getBytes(StandardCharsets.UTF_8));
      stream.flush();
    } catch (IOException e) {
      // the reader went away; nothing else can be told
    }
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }

  /** Collects the journal line as the run unfolds; written once, when the ending is known. */
  private final class JournalEntry {
    final long startedAt;
    String prompt;
    String stdin;
    String outputFormat;
    String model;
    String sessionId;
    String tape;
    String renderedFrom;
    String derived;
    String stoppedBy;
    boolean written;

    JournalEntry(long startedAt) {
      this.startedAt = startedAt;
    }

    Ending end(Ending ending, String error) {
      String file = env.get(FakeEnvironment.JOURNAL);
      if (isBlank(file) || written) {
        return ending;
      }
      written = true;
      Map<String, String> cursorEnv = Journal.cursorEnv(env);
      try {
        Journal.append(
            file,
            new Journal.Entry(
                pid,
                Journal.isoInstant(startedAt),
                argv,
                cwd,
                prompt,
                stdin,
                outputFormat,
                model,
                sessionId,
                cursorEnv,
                tape,
                renderedFrom,
                derived,
                stoppedBy,
                ending,
                error,
                null));
      } catch (IOException e) {
        writeErr(Journal.cannotAppend(file, e));
      }
      return ending;
    }
  }
}
