package dev.agentdouble.fake.internal.cursor;

import dev.agentdouble.contract.AccountModels;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.fake.internal.cli.Answer;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.CliParser;
import dev.agentdouble.fake.internal.cli.ParseResult;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.cursor.acp.AcpServer;
import dev.agentdouble.fake.internal.process.Invoked;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.profile.Model;
import dev.agentdouble.fake.internal.profile.ModelCatalog;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.fake.internal.profile.ProfileException;
import dev.agentdouble.fake.internal.profile.Profiles;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Player;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
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

/**
 * One run of the fake as the Cursor Agent CLI ({@code agent}, {@code cursor-agent}), from argv to
 * ending: its profile, commander's parse of its command line, the subcommands' answers, the ACP
 * server ({@code agent acp}), the checks in the real CLI's order, the prompt (argv and stdin), and
 * a print run through the one pipeline ({@link Turn}, with its {@link Print} face). The twin of
 * {@code claude/ClaudeRun}; {@code CliFronts} picks one by the program's name.
 */
public final class CursorRun {
  /** What the CLI writes on stderr when SIGINT aborts it, before it exits 130. */
  public static final String ABORTING = CursorMessages.ABORTING;

  /**
   * The tape header key that says the run's workspace is not trusted ({@code "trust":"untrusted"}):
   * the fake's trust gate then applies to the run (docs/tape-format.md §2).
   */
  static final String TRUST_KEY = "trust";

  /** The raw JSON of {@link #TRUST_KEY}'s one value. */
  static final String UNTRUSTED = "\"untrusted\"";

  /**
   * The tape header key that declares the models of the account the tape was recorded with ({@code
   * "models":"+composer-2"}, {@link AccountModels}' written form), over the environment's list
   * (docs/tape-format.md §2).
   */
  static final String MODELS_KEY = "models";

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

  /** A run of what the process was {@code invoked} with. */
  public CursorRun(Invoked invoked) {
    this.programName = invoked.programName();
    this.argv = invoked.argv();
    this.env = invoked.env();
    this.cwd = invoked.cwd();
    this.home = invoked.home().orElse(null);
    this.stdinTty = invoked.stdio().stdinTty();
    this.stdoutTty = invoked.stdio().stdoutTty();
    this.stdin = invoked.stdio().in();
    this.stdout = invoked.stdio().out();
    this.stderr = invoked.stdio().err();
    this.originNanos = invoked.originNanos();
    this.pid = invoked.pid();
  }

  /** Runs the invocation, reported in {@code journal}; returns how the process must end. */
  public Ending run(Journal journal) throws IOException {
    Profile profile;
    try {
      profile = Profiles.load(env);
    } catch (ProfileException e) {
      return ownProblem(journal, e.getMessage());
    }
    FakeEnvironment settings = FakeEnvironment.read(env);
    if (settings.models().isPresent()) {
      // the account's models are the server's: the environment (or the test) declares them
      profile = profile.withModels(settings.models().get());
    }
    ParseResult parsed = CliParser.parse(programName, argv, profile.behaviour().surface());
    if (parsed instanceof ParseResult.UsageError usage) {
      writeErr(usage.stderr());
      return end(journal, new Frame.Exit(0, ExitStatus.CLI_USAGE), null);
    }
    CliArgs args = ((ParseResult.Parsed) parsed).args();
    Optional<Answer> answer = Subcommands.answer(args, profile);
    if (answer.isPresent()) {
      Answer o = answer.get();
      writeOut(o.stdout());
      writeErr(o.stderr());
      return end(journal, o.exit(), null);
    }
    if (args.subcommand().isEmpty()
        && !args.promptWords().isEmpty()
        && args.promptWords().get(0).equals(CliArgs.ACP)) {
      // each turn writes its own journal line
      return new AcpServer(env, profile, settings, args, argv, cwd, stdout, stderr, pid).run(stdin);
    }
    if (!args.print() && stdinTty && stdoutTty) {
      return ownProblem(
          journal,
          "the interactive mode is not impersonated; run with -p "
              + "(print mode), or with stdout or stdin not a terminal");
    }
    OutputFormat format = args.outputFormat().orElse(profile.defaultOutputFormat());
    String stdinText = null;
    // 2026.09 and later run at once with a prompt in argv and wait for stdin's end afterwards
    boolean awaitStdinEnd =
        !stdinTty
            && profile.behaviour().stdin() == Profile.StdinRule.RUN_THEN_AWAIT_EOF
            && !args.promptWords().isEmpty();
    if (!stdinTty && !awaitStdinEnd) {
      Owner.watchBeforeReadingStdin();
      Path marker = Gates.markStdinOpen(env, pid);
      try {
        stdinText = readStdin();
      } finally {
        Gates.stdinEnded(marker);
      }
    }
    String prompt = String.join(" ", args.promptWords());
    if (prompt.isEmpty() && stdinText != null) {
      prompt = stdinText.strip();
    }
    String workspace = args.workspace().orElse(cwd);
    InvocationRecord invocation =
        Turn.invocation(
            InvocationRecord.CLI_CURSOR,
            args.newSessionId().isPresent() ? args.newSessionId() : args.resumeId(),
            argv,
            prompt,
            workspace,
            format,
            args.model(),
            Optional.ofNullable(stdinText),
            pid,
            env);
    journal.invocation(invocation);
    Checks checks = new Checks(args, profile, env, settings.trusted(), workspace, prompt, cwd);
    Checks.Stop stop = checks.run();
    // a model the account's list lacks waits for the tape, which may declare it, when the fake
    // picks the tape itself; a control server is not asked for a run the CLI refuses before asking
    // its own server
    Checks.Stop refusedModel =
        stop != null && stop.reason().equals(Checks.MODEL) && isBlank(env.get(FakeEnvironment.URL))
            ? stop
            : null;
    if (stop != null && refusedModel == null) {
      String url = env.get(FakeEnvironment.URL);
      if (!isBlank(url)) {
        ControlClient.report(url, env.get(ControlSecret.ENV), invocation, stop.reason());
      }
      return stopped(journal, stop);
    }
    if (invocation.session().isEmpty() && !args.resume() && !args.has("continue")) {
      invocation = invocation.withSession(Turn.freshUuid()); // a new session
      journal.invocation(invocation);
    }
    // a tape the test chose decides the run: --system-prompt included, which the server refuses
    // for most accounts (the catalog's system-prompt-refused plays that refusal)
    Print print = new Print(args, profile, settings, format, checks, awaitStdinEnd, refusedModel);
    return new Turn(env, settings, invocation, format, journal, print, originNanos).run();
  }

  /**
   * Print mode's face of a {@link Turn}: the tape's frames on stdout and stderr, rendered in the
   * asked format, and the process's ending.
   */
  private final class Print implements Turn.Face {
    private final CliArgs args;
    private final Profile profile;
    private final FakeEnvironment settings;
    private final OutputFormat format;
    private final Checks checks;
    private final boolean awaitStdinEnd;
    private final Checks.Stop refusedModel;
    private ModelCatalog catalog;
    private long liveEpochMs;

    /**
     * {@code refusedModel}: the refusal of a {@code --model} the account's list lacks, played
     * unless the tape declares the model; null when the checks passed.
     */
    Print(
        CliArgs args,
        Profile profile,
        FakeEnvironment settings,
        OutputFormat format,
        Checks checks,
        boolean awaitStdinEnd,
        Checks.Stop refusedModel) {
      this.args = args;
      this.profile = profile;
      this.settings = settings;
      this.format = format;
      this.checks = checks;
      this.awaitStdinEnd = awaitStdinEnd;
      this.refusedModel = refusedModel;
      this.catalog = profile.catalog();
    }

    @Override
    public Ending unanswered(Turn turn) {
      return refusedModel != null ? stopped(turn.journal(), refusedModel) : null;
    }

    @Override
    public Ending admit(Turn turn) throws IOException {
      Checks.Stop stop;
      if (UNTRUSTED.equals(turn.header().extras().get(TRUST_KEY))
          && (stop = checks.untrustedWorkspace()) != null) {
        // the tape plays a workspace not trusted yet: the gate decides, with the live path
        return stopped(turn.journal(), stop);
      }
      String declared = turn.header().extras().get(MODELS_KEY);
      if (declared != null) {
        // the account the tape was recorded with has these models
        try {
          catalog = catalog.declared(AccountModels.parse(jsonString(declared)));
        } catch (IllegalArgumentException e) {
          return turn.failed(
              turn.source().name() + ":1: header \"" + MODELS_KEY + "\": " + e.getMessage(), true);
        }
        if ((stop = checks.model(catalog)) != null) {
          return stopped(turn.journal(), stop);
        }
      } else if (refusedModel != null) {
        return stopped(turn.journal(), refusedModel);
      }
      if (refusedModel != null) {
        checks.takeNewSession();
      }
      return null;
    }

    @Override
    public Ending transform(Turn turn) throws IOException {
      Header header = turn.header();
      if (header.format() != format) {
        if (header.format() != OutputFormat.STREAM_JSON) {
          return turn.unrenderable("--output-format stream-json");
        }
        TextStyle style =
            format == OutputFormat.TEXT
                ? settings.textStyle().orElse(header.textStyle().orElse(profile.textStyle()))
                : TextStyle.ACTIONS;
        Renderer renderer =
            Renderer.of(format, style, new Renderer.Options(args.has("show-thinking")));
        turn.transform(Player.Transform.rendering(renderer));
        turn.journal().renderedFrom = header.format().cliName();
      }
      // the live epoch: the wall-clock time of the process start, or AGENTDOUBLE_EPOCH_MS
      liveEpochMs =
          settings
              .epochMs()
              .orElse(System.currentTimeMillis() - (System.nanoTime() - originNanos) / 1_000_000L);
      if (header.format() == format
          && args.streamPartialOutput()
          && format == OutputFormat.STREAM_JSON
          && !header.argv().contains(Variants.PartialOutput.FLAG)
          && !Player.holdsDeltas(turn.source())) {
        // recorded without partial output, asked with it: stream it as a 2026 CLI would; a tape
        // that holds deltas (a capture imported without its argv) is played as it is
        turn.transform(partial(new Variants.PartialOutput(liveEpochMs)));
        turn.journal().derived = "stream-partial-output";
      }
      return null;
    }

    @Override
    public LiveValues live(Turn turn) {
      Header header = turn.header();
      Optional<String> decided = turn.invocation().session(); // asked for, or fresh
      String sessionId = decided.isPresent() ? decided.get() : sessionId(args, header);
      if (header.vars().sessionId().isPresent()) {
        turn.journal().sessionId = sessionId; // otherwise the tape's own ids stand, whatever
      }
      return new LiveValues(
          Optional.of(sessionId),
          Optional.of(args.workspace().orElse(cwd)),
          Optional.ofNullable(home),
          Optional.of(turn.invocation().prompt()),
          OptionalLong.of(liveEpochMs),
          apiKeySource(args),
          liveModel(args, catalog, header));
    }

    @Override
    public Ending play(Turn turn) throws IOException, Gates.NotReleased {
      // in the journal before the replay: a test reads it while the fake plays, hangs or dies
      turn.report(turn.checked().ending(), null);
      Ending ending = turn.play(stdout, stderr);
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
    }

    @Override
    public void writeErr(String text) {
      CursorRun.this.writeErr(text);
    }

    @Override
    public void refuse(String problem) {
      CursorRun.this.writeErr("agentdouble: " + problem + "\n");
    }
  }

  /**
   * The text of a header value that must be a JSON string ({@code raw} as the header keeps it).
   *
   * @throws IllegalArgumentException when it is not one
   */
  private static String jsonString(String raw) {
    byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
    try {
      JsonCursor cursor = new JsonCursor(bytes, 0, bytes.length);
      if (cursor.next() == JsonCursor.Token.STRING) {
        return cursor.text();
      }
    } catch (JsonCursor.Malformed e) {
      // said below
    }
    throw new IllegalArgumentException(
        "not a string: " + raw + "; write it as a JSON string, e.g. \"+composer-2\"");
  }

  /** A run a check ended: what it writes, and how it exits. */
  private Ending stopped(Journal journal, Checks.Stop stop) {
    writeOut(stop.answer().stdout());
    writeErr(stop.answer().stderr());
    journal.stoppedBy = stop.reason();
    return end(journal, stop.answer().exit(), null);
  }

  /**
   * The display name of the model {@code --model} chose, for the init event; empty when none was
   * chosen, when the profile does not know it, or when the tape was recorded with a model of its
   * own (which it keeps).
   */
  private static Optional<String> liveModel(CliArgs args, ModelCatalog catalog, Header header) {
    if (args.model().isEmpty()) {
      return Optional.empty();
    }
    for (String arg : header.argv()) {
      if (arg.equals("--model") || arg.startsWith("--model=")) {
        return Optional.empty();
      }
    }
    Optional<Model> chosen = catalog.resolve(args.model().get());
    // no lambda: the first one of a run costs the JVM's invoke machinery at start-up
    return chosen.isPresent() ? Optional.of(chosen.get().name()) : Optional.empty();
  }

  /**
   * What the init event's {@code apiKeySource} says live: {@code flag} for {@code --api-key},
   * {@code env} for {@code CURSOR_API_KEY}; otherwise the tape's value stands.
   */
  private Optional<String> apiKeySource(CliArgs args) {
    if (args.apiKey().isPresent()) {
      return Optional.of("flag");
    }
    if (!isBlank(env.get("CURSOR_API_KEY"))) {
      return Optional.of("env");
    }
    return Optional.empty();
  }

  // Inner classes, not method references: these are on the start-up path of every json, text
  // and partial-output run, where a lambda would spin classes at run time (some 90 classes more).

  private static Player.Transform partial(Variants.PartialOutput partial) {
    return new Player.Transform() {
      @Override
      public List<Frame> next(Frame frame) {
        return partial.next(frame);
      }
    };
  }

  /**
   * The live session id of a run that asked for none (its invocation carries {@code
   * --new-session-id}'s or {@code --resume ID}'s, and a fresh one for a new session): the recorded
   * one for {@code --resume} without an id or {@code --continue}; otherwise a fresh UUID.
   */
  private static String sessionId(CliArgs args, Header header) {
    Optional<String> recorded = header.vars().sessionId();
    if ((args.resume() || args.has("continue")) && recorded.isPresent()) {
      return recorded.get();
    }
    return Turn.freshUuid();
  }

  private String readStdin() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    stdin.transferTo(bytes);
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private Ending ownProblem(Journal journal, String message) {
    return Exits.ownProblem(journal, message, stderr);
  }

  /** Writes the journal line, once; returns {@code ending}. */
  private Ending end(Journal journal, Ending ending, String error) {
    return Exits.end(journal, ending, error, stderr);
  }

  private void writeOut(String text) {
    write(stdout, text);
  }

  private void writeErr(String text) {
    write(stderr, text);
  }

  private static void write(OutputStream stream, String text) {
    Exits.write(stream, text);
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
