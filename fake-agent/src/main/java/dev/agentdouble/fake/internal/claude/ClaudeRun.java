package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.CliParser;
import dev.agentdouble.fake.internal.cli.ParseResult;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.process.Invoked;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.process.Stdio;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.profile.ProfileException;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.OutputFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run of the fake as Claude Code ({@code claude}), from argv to ending: its profile,
 * commander's parse of its command line, {@code --version} and {@code --help}, the checks in the
 * real CLI's order, the prompt (argv and stdin), and a print run through the one pipeline ({@link
 * Turn}, with {@link ClaudePrint}). The interactive mode and the subcommands are not impersonated:
 * the fake's own error, exit 70.
 */
public final class ClaudeRun {
  /**
   * What the fake writes on stderr when SIGINT aborts a print run, before it exits 130: the words
   * the first CLI the fake served says, not Claude Code's (the real 2.1.328 writes the run's
   * interruption and exits 0; docs/claude.md, "Not modelled").
   */
  public static final String ABORTING = "Aborting operation...\n";

  private final String programName;
  private final List<String> argv;
  private final Map<String, String> env;
  private final String cwd;
  private final Optional<String> home;
  private final Stdio stdio;
  private final long originNanos;
  private final long pid;

  /** A run of what the process was {@code invoked} with. */
  public ClaudeRun(Invoked invoked) {
    this.programName = invoked.programName();
    this.argv = invoked.argv();
    this.env = invoked.env();
    this.cwd = invoked.cwd();
    this.home = invoked.home();
    this.stdio = invoked.stdio();
    this.originNanos = invoked.originNanos();
    this.pid = invoked.pid();
  }

  /** Runs the invocation, reported in {@code journal}; returns how the process must end. */
  public Ending run(Journal journal) throws IOException {
    ClaudeProfile profile;
    try {
      profile = ClaudeProfile.load(env);
    } catch (ProfileException e) {
      return ownProblem(journal, e.getMessage());
    }
    FakeEnvironment settings = FakeEnvironment.read(env);
    ClaudeChecks.Refusal early = ClaudeChecks.beforeParse(profile.root(), argv);
    if (early != null) {
      Exits.write(stdio.err(), early.stderr());
      journal.stoppedBy = early.reason();
      return end(journal, new Frame.Exit(0, ExitStatus.CLI_FAILED), null);
    }
    ParseResult parsed = CliParser.parse(programName, argv, profile.surface());
    if (parsed instanceof ParseResult.UsageError usage) {
      Exits.write(stdio.err(), usage.stderr());
      return end(journal, new Frame.Exit(0, ExitStatus.CLI_USAGE), null);
    }
    ParseResult.Parsed given = (ParseResult.Parsed) parsed;
    if (!given.warnings().isEmpty()) {
      Exits.write(stdio.err(), given.warnings()); // said as the option is parsed (--effort)
    }
    CliArgs args = given.args();
    if (args.version()) {
      Exits.write(stdio.out(), profile.version() + "\n");
      return end(journal, new Frame.Exit(0, ExitStatus.OK), null);
    }
    if (args.help()) {
      Exits.write(stdio.out(), args.print() ? profile.printHelp() : profile.help());
      return end(journal, new Frame.Exit(0, ExitStatus.OK), null);
    }
    if (args.subcommand().isPresent()) {
      return ownProblem(
          journal,
          "claude "
              + args.subcommand().get()
              + " is not impersonated; the fake plays print runs (claude -p)");
    }
    if (!args.print() && stdio.stdoutTty()) {
      return ownProblem(
          journal,
          "the interactive mode is not impersonated; run with -p (print mode), or with stdout"
              + " not a terminal");
    }
    OutputFormat format = args.outputFormat().orElse(OutputFormat.TEXT);
    ClaudeChecks checks = new ClaudeChecks(profile, args, env, format);
    ClaudeChecks.Refusal refusal = checks.beforeInput();
    if (refusal != null) {
      return refused(
          journal,
          refusal,
          invocation(args, format, prompt(args, Optional.empty()), Optional.empty()));
    }
    if (args.option("input-format").orElse("text").equals("stream-json")) {
      // stdin carries messages, not a prompt: only the verbose check is left (d-input-stream-*)
      refusal = checks.withInput("stdin", profile.root());
      if (refusal != null) {
        return refused(journal, refusal, invocation(args, format, "", Optional.empty()));
      }
      return new StdinSession(
              profile,
              args,
              argv,
              env,
              cwd,
              home,
              stdio.in(),
              stdio.out(),
              stdio.err(),
              originNanos,
              pid)
          .run(journal);
    }
    Optional<String> stdinText = stdio.stdinTty() ? Optional.empty() : readStdin(profile);
    String prompt = prompt(args, stdinText);
    InvocationRecord invocation = invocation(args, format, prompt, stdinText);
    journal.invocation(invocation);
    refusal = checks.withInput(prompt, profile.root());
    if (refusal != null) {
      return refused(journal, refusal, invocation);
    }
    if (invocation.session().isEmpty() && (!args.has("continue") || args.has("fork-session"))) {
      invocation = invocation.withSession(Turn.freshUuid()); // a new session, or a fork
      journal.invocation(invocation);
    }
    ClaudePrint face =
        new ClaudePrint(
            profile,
            args,
            settings,
            format,
            cwd,
            home,
            ClaudePrint.messagingSocket(env, pid),
            stdio.out(),
            stdio.err(),
            originNanos);
    return new Turn(env, settings, invocation, format, journal, face, originNanos).run();
  }

  /**
   * The invocation of a run: the prompt {@code prompt}, stdin's text {@code stdinText} (empty for a
   * run the CLI stops before it reads stdin), the session it asked for.
   */
  private InvocationRecord invocation(
      CliArgs args, OutputFormat format, String prompt, Optional<String> stdinText) {
    return Turn.invocation(
        InvocationRecord.CLI_CLAUDE,
        ClaudeChecks.askedSession(args),
        argv,
        prompt,
        cwd,
        format,
        args.model(),
        stdinText,
        pid,
        env);
  }

  /**
   * The prompt the CLI sends (FINDINGS c.1-2): the argument, stdin's text, or both joined by a
   * newline, stdin's bytes kept as they are.
   */
  static String prompt(CliArgs args, Optional<String> stdinText) {
    String word = args.promptWords().isEmpty() ? "" : args.promptWords().get(0);
    String piped = stdinText.orElse("");
    if (word.isEmpty()) {
      return piped;
    }
    return piped.isEmpty() ? word : word + "\n" + piped;
  }

  /** Stdin's text; empty, with the CLI's warning, when the pipe stays silent past the wait. */
  private Optional<String> readStdin(ClaudeProfile profile) throws IOException {
    Owner.watchBeforeReadingStdin();
    Path marker = Gates.markStdinOpen(env, pid);
    try {
      Optional<String> text = StdinPrompt.read(stdio.in(), profile.stdinWaitMs());
      if (text.isEmpty()) {
        Exits.write(stdio.err(), profile.message("stdin-wait"));
      }
      return text;
    } finally {
      Gates.stdinEnded(marker);
    }
  }

  /**
   * Ends the run on {@code refusal}: its text on stderr, exit 1, the journal's and the control
   * server's {@code stoppedBy} (reported as Cursor's checks are: {@link ControlClient#report}).
   */
  private Ending refused(
      Journal journal, ClaudeChecks.Refusal refusal, InvocationRecord invocation) {
    Exits.write(stdio.err(), refusal.stderr());
    journal.stoppedBy = refusal.reason();
    journal.invocation(invocation);
    String url = env.get(FakeEnvironment.URL);
    if (url != null && !url.isBlank()) {
      ControlClient.report(url, env.get(ControlSecret.ENV), invocation, refusal.reason());
    }
    return end(journal, new Frame.Exit(0, ExitStatus.CLI_FAILED), null);
  }

  private Ending ownProblem(Journal journal, String message) {
    return Exits.ownProblem(journal, message, stdio.err());
  }

  private Ending end(Journal journal, Ending ending, String error) {
    return Exits.end(journal, ending, error, stdio.err());
  }
}
