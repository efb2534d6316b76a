package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.fake.internal.source.TapeSelection;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.FrameLine;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeScanner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code claude --input-format stream-json --output-format stream-json --verbose}: one process,
 * many turns, the client's messages on stdin one a line (claude-code.md §2; FINDINGS f, g, h, i).
 * Two ways to answer, both on the one pipeline ({@link Turn}):
 *
 * <ul>
 *   <li><b>A recorded session</b>: {@code AGENTDOUBLE_TAPE} (no control server) naming a claude
 *       stream-json tape that holds the client's lines as {@code in} frames, as the recorder keeps
 *       a session under the Agent SDK: one turn whose face, {@link SessionReplay}, plays it in
 *       lockstep with stdin (control requests and responses included).
 *   <li><b>A tape per user message</b>, as an ACP agent answers each {@code session/prompt}: each
 *       {@code user} line is a turn of its own, its prompt the message's text, its tape chosen for
 *       it (the control server asked, {@code AGENTDOUBLE_TAPES} matched by that prompt, or the one
 *       {@code AGENTDOUBLE_TAPE}, which then answers every message: a user who names one tape
 *       expects it to be the answer, as in an ACP session), its own journal line. The turn plays
 *       with the print face ({@link ClaudePrint}) under the session's id: the first turn's, kept by
 *       every later one, as the real CLI re-emits {@code system/init} with one session id per
 *       process (FINDINGS f.2). A turn whose tape ends in a kill, a hang or the fake's own problem
 *       ends the process so; any exit ends the turn only.
 * </ul>
 *
 * <p>Stdin ending ends the process with the exit of its last turn: 1 when that turn's result is an
 * error (an interrupted turn's too), whatever turns came before it; 0 with no turn (f.1-2, p); a
 * line that is not JSON ends it with the real CLI's message, exit 1 (i.1); lines of other types are
 * ignored (i.2); an {@code initialize} request is answered with the real CLI's line (the profile's,
 * f.3), and a request of any other subtype with the CLI's error (i.3).
 */
final class StdinSession {
  private final ClaudeProfile profile;
  private final CliArgs args;
  private final List<String> argv;
  private final Map<String, String> env;
  private final FakeEnvironment settings;
  private final String cwd;
  private final Optional<String> home;
  private final Counted stdout;
  private final OutputStream stderr;
  private final long originNanos;
  private final long pid;
  private final StdinLines stdin;
  private String sessionId;
  private StdinReader reader;
  private int results;
  private long turnStartNanos;

  StdinSession(
      ClaudeProfile profile,
      CliArgs args,
      List<String> argv,
      Map<String, String> env,
      String cwd,
      Optional<String> home,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr,
      long originNanos,
      long pid) {
    this.profile = profile;
    this.args = args;
    this.argv = argv;
    this.env = env;
    this.settings = FakeEnvironment.read(env);
    this.cwd = cwd;
    this.home = home;
    this.stdin = new StdinLines(stdin);
    this.stdout = new Counted(stdout);
    this.stderr = stderr;
    this.originNanos = originNanos;
    this.pid = pid;
  }

  /** Runs the session to the end of stdin; returns how the process ends. */
  Ending run(Journal journal) throws IOException {
    // a session waits on stdin between turns, as an ACP agent does: its owner's death ends it
    Owner.watchBeforeReadingStdin();
    if (recordedSession()) {
      SessionReplay face =
          new SessionReplay(
              profile, stdin, stdout, stderr, cwd, home, ClaudePrint.messagingSocket(env, pid));
      return turn(journal, "", face);
    }
    Journal next = journal;
    int last = ExitStatus.OK; // no turn: exit 0 (FINDINGS f.1)
    reader = new StdinReader(stdin);
    reader.start();
    StdinMessage m;
    while (true) {
      try {
        m = reader.take();
      } catch (StdinReader.Stopped e) {
        return Exits.ownProblem(next, e.getMessage(), stderr);
      }
      if (m == null) {
        break;
      }
      switch (m.kind()) {
        case BAD -> {
          Exits.write(stderr, m.parseError(profile));
          return new Frame.Exit(0, ExitStatus.CLI_FAILED);
        }
        case CONTROL_REQUEST -> answer(m);
        case USER -> {
          turnStartNanos = System.nanoTime();
          Ending ending = turn(next, m.prompt(), null);
          results++;
          StdinMessage unplayed = reader.turnOver();
          if (unplayed != null) {
            // the turn ended before it played: nothing is left to interrupt
            interrupted(unplayed.requestId().isEmpty() ? "\"\"" : unplayed.requestId());
          }
          if (!(ending instanceof Frame.Exit exit) || exit.code() == ExitStatus.OWN_PROBLEM) {
            return ending;
          }
          last = exit.code();
          next = new Journal(pid, System.currentTimeMillis(), argv, cwd, env);
        }
        default -> {
          // a control_response to no request of ours, or a type the CLI ignores (FINDINGS i.2)
        }
      }
    }
    return new Frame.Exit(0, last);
  }

  /** One turn of {@code prompt}, played by {@code face}, or the print face for a user message. */
  private Ending turn(Journal journal, String prompt, Turn.Face face) {
    InvocationRecord invocation =
        Turn.invocation(
            InvocationRecord.CLI_CLAUDE,
            sessionId != null ? Optional.of(sessionId) : ClaudeChecks.askedSession(args),
            argv,
            prompt,
            cwd,
            OutputFormat.STREAM_JSON,
            args.model(),
            Optional.empty(),
            pid,
            env);
    Turn.Face played = face;
    if (played == null) {
      ClaudePrint print =
          new ClaudePrint(
              profile,
              args,
              settings,
              OutputFormat.STREAM_JSON,
              cwd,
              home,
              ClaudePrint.messagingSocket(env, pid),
              stdout,
              stderr,
              originNanos);
      played = new OneSession(print);
    }
    return new Turn(
            env, settings, invocation, OutputFormat.STREAM_JSON, journal, played, originNanos)
        .run();
  }

  /**
   * A control request between turns: initialize is answered as the real CLI answers it (the
   * profile's line, f.3), an interrupt with nothing queued, any other subtype refused (i.3).
   */
  private void answer(StdinMessage m) {
    String id = m.requestId().isEmpty() ? "\"\"" : m.requestId();
    if (m.subtype().equals("initialize")) {
      Exits.write(stdout, profile.initializeResponse(id, pid, home.orElse("")));
      return;
    }
    if (m.subtype().equals("interrupt")) {
      // no turn is running: nothing is still queued (FINDINGS f.4's answer)
      interrupted(id);
      return;
    }
    Exits.write(
        stdout,
        "{\"type\":\"control_response\",\"response\":{\"subtype\":\"error\",\"request_id\":"
            + id
            + ",\"error\":"
            + JsonText.quote(profile.message("control-unsupported", "subtype", m.subtype()))
            + ",\"error_code\":\"unsupported_request\"}}\n");
  }

  /** The answer to an interrupt: success, nothing still queued (FINDINGS f.4). */
  private void interrupted(String id) {
    Exits.write(
        stdout,
        "{\"type\":\"control_response\",\"response\":{\"subtype\":\"success\",\"request_id\":"
            + id
            + ",\"response\":{\"still_queued\":[]}}}\n");
  }

  /**
   * What the real CLI writes when an interrupt stops a running turn (FINDINGS f.4): the answer, the
   * user line {@code [Request interrupted by user]}, the {@code error_during_execution} result with
   * terminal reason {@code aborted_streaming}; the texts are the profile's. {@code init}, the
   * turn's {@code system/init} line, goes out after the answer when the turn printed nothing yet:
   * the real CLI prints its init for a turn it stopped before the model's answer (runs part o.1).
   */
  private void stopped(StdinMessage interrupt, Optional<String> init) {
    interrupted(interrupt.requestId().isEmpty() ? "\"\"" : interrupt.requestId());
    init.ifPresent(line -> Exits.write(stdout, line));
    String session = sessionId == null ? "" : sessionId;
    Exits.write(
        stdout,
        profile.message(
            "interrupted-user",
            "session_id",
            session,
            "uuid",
            Turn.freshUuid(),
            "timestamp",
            Journal.isoInstant(System.currentTimeMillis())));
    Exits.write(
        stdout,
        profile.message(
            "interrupted-result",
            "session_id",
            session,
            "duration_ms",
            Long.toString((System.nanoTime() - turnStartNanos) / 1_000_000L),
            "uuid",
            Turn.freshUuid(),
            "result_index",
            Integer.toString(results)));
  }

  /**
   * Whether the session is one recorded tape: {@code AGENTDOUBLE_TAPE} without a control server,
   * naming a claude stream-json tape with the client's lines in it.
   */
  private boolean recordedSession() throws IOException {
    String url = env.get(FakeEnvironment.URL);
    String tape = env.get(FakeEnvironment.TAPE);
    if ((url != null && !url.isBlank()) || tape == null || tape.isBlank()) {
      return false;
    }
    TapeSelection.Result selected =
        TapeSelection.select(
            env,
            InvocationRecord.empty(
                InvocationRecord.CLI_CLAUDE, OutputFormat.STREAM_JSON.cliName()));
    if (!(selected instanceof TapeSelection.Selected chosen)) {
      return false; // said by the first turn's selection
    }
    try (TapeSource source = chosen.source();
        InputStream in = source.open()) {
      TapeScanner scanner = new TapeScanner(source.name(), in);
      Header header = scanner.header();
      if (header.format() != OutputFormat.STREAM_JSON) {
        return false;
      }
      while (scanner.next()) {
        if (scanner.frame().kind == FrameLine.Kind.IN) {
          return true;
        }
      }
    }
    return false;
  }

  /** The print face under the session's one id: the first turn's, kept by every later turn. */
  private final class OneSession implements Turn.Face {
    private final ClaudePrint print;

    OneSession(ClaudePrint print) {
      this.print = print;
    }

    @Override
    public Ending admit(Turn turn) throws IOException {
      return print.admit(turn);
    }

    /** The print face's transform, and the session's count of results in the turn's result. */
    @Override
    public Ending transform(Turn turn) throws IOException {
      Ending stop = print.transform(turn);
      if (stop == null && results > 0) {
        turn.transformThen(new ResultIndex(results));
      }
      return stop;
    }

    @Override
    public LiveValues live(Turn turn) {
      LiveValues live = print.live(turn);
      if (sessionId == null) {
        sessionId = live.sessionId().orElseThrow();
      }
      turn.journal().sessionId = sessionId;
      return live.withSessionId(sessionId);
    }

    /**
     * Plays the turn with stdin read meanwhile: an interrupt stops it at its next frame, pause or
     * gate (or its tape's read), and is answered as the real CLI answers it; one that comes after
     * the turn's last frame is answered as between turns.
     */
    @Override
    public Ending play(Turn turn) throws IOException, Gates.NotReleased {
      Optional<String> init = print.initLine(turn);
      long before = stdout.written;
      reader.turnStarts();
      Ending ending;
      try {
        ending = print.play(turn);
      } catch (IOException | Gates.NotReleased e) {
        if (!reader.turnInterrupted() && reader.stopped() == null) {
          reader.turnEnds();
          throw e;
        }
        ending = null;
      }
      StdinReader.Stopped stopped = reader.stopped();
      StdinMessage interrupt = reader.turnEnds();
      if (stopped != null) {
        return turn.failed(stopped.getMessage(), true); // stdin cannot be read on
      }
      if (interrupt == null) {
        return ending;
      }
      if (ending != null) {
        interrupted(interrupt.requestId());
        return ending;
      }
      stopped(interrupt, stdout.written == before ? init : Optional.empty());
      // an interrupted turn is a failed one: exit 1 if it is the session's last (runs part q)
      return new Frame.Exit(0, ExitStatus.CLI_FAILED);
    }

    @Override
    public void writeErr(String text) {
      print.writeErr(text);
    }

    @Override
    public void refuse(String problem) {
      print.refuse(problem);
    }
  }

  /** Stdout, counting what went out: whether a turn printed anything yet. */
  private static final class Counted extends OutputStream {
    private final OutputStream out;
    private long written;

    Counted(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      written++;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
      written += len;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
