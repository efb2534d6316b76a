package dev.agentdouble.fake.internal.run;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.process.ProcessClock;
import dev.agentdouble.fake.internal.process.Signals;
import dev.agentdouble.fake.internal.source.QueuedTapes;
import dev.agentdouble.fake.internal.source.TapeSelection;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One turn of the fake agent, the one path from an invocation to its ending: <b>select</b> the tape
 * (the control server is asked, or {@link TapeSelection}), <b>validate</b> it, <b>transform</b> its
 * frames for the face, <b>substitute</b> the live values for its variables, <b>play</b> it, and
 * <b>report</b> the run in the journal. Print mode runs one turn per process ({@link
 * dev.agentdouble.fake.internal.Impersonation}), an ACP agent one per {@code session/prompt}
 * ({@link dev.agentdouble.fake.internal.cursor.acp.AcpServer}); what differs between them is their
 * {@link Face}, never a second copy of these steps.
 */
public final class Turn {
  /** What a turn is played to: print mode's stdout and stderr, or an ACP client's prompt. */
  public interface Face {
    /**
     * After validation, a stop the CLI makes for this tape (print mode's trust gate): said, and in
     * the journal, by the face. Null to play on.
     */
    Ending admit(Turn turn) throws IOException;

    /**
     * When no tape answers: the ending the face plays instead of the fake's own failure (print
     * mode's refusal of a model the account lacks, held for a tape that might declare it), or null
     * to fail.
     */
    default Ending unanswered(Turn turn) throws IOException {
      return null;
    }

    /**
     * How the tape's frames become the face's output ({@link Turn#transform}; as recorded when it
     * is not set). Null to play on, or the ending of a tape the face refuses ({@link Turn#failed});
     * throws {@link TapeException} for a tape it cannot play.
     */
    Ending transform(Turn turn) throws IOException;

    /** The live values in place of the tape's variables. */
    LiveValues live(Turn turn);

    /** Plays the turn: {@link Turn#play(OutputStream, OutputStream)}, or a player of its own. */
    Ending play(Turn turn) throws IOException, Gates.NotReleased;

    /** Writes to the process's stderr. */
    void writeErr(String text);

    /**
     * Says a problem that ends the turn: the fake's own (a bad tape, no tape), or what the client's
     * answer failed; on stderr, and in an ACP turn in the prompt's answer.
     */
    void refuse(String problem);
  }

  private final Map<String, String> env;
  private final FakeEnvironment settings;
  private final InvocationRecord invocation;
  private final OutputFormat format;
  private final Journal journal;
  private final Face face;
  private final long originNanos;

  private TapeSource source;
  private Player.Checked checked;
  private Player.Transform transform;
  private Substitution substitution;
  private Timing timing;
  private Gates gates;

  /**
   * A turn of {@code invocation}, asked in {@code format}, reported in {@code journal}, played to
   * {@code face} on the clock started at {@code originNanos}.
   */
  public Turn(
      Map<String, String> env,
      FakeEnvironment settings,
      InvocationRecord invocation,
      OutputFormat format,
      Journal journal,
      Face face,
      long originNanos) {
    this.env = env;
    this.settings = settings;
    this.invocation = invocation;
    this.format = format;
    this.journal = journal;
    this.face = face;
    this.originNanos = originNanos;
    journal.invocation(invocation);
  }

  /**
   * What a control server is told of an invocation: {@code CURSOR_*} names with their values
   * redacted, and the variables named in {@code AGENTDOUBLE_FORWARD_ENV} (comma-separated) with
   * their values; a run of {@code cli} ({@link InvocationRecord#cli}) in {@code session} ({@link
   * InvocationRecord#session}).
   */
  public static InvocationRecord invocation(
      String cli,
      Optional<String> session,
      List<String> argv,
      String prompt,
      String cwd,
      OutputFormat format,
      Optional<String> model,
      Optional<String> stdin,
      long pid,
      Map<String, String> env) {
    return InvocationRecord.builder()
        .argv(argv)
        .prompt(prompt)
        .cwd(cwd)
        .outputFormat(format.cliName())
        .model(model)
        .stdin(stdin)
        .pid(pid)
        .env(forwardedEnv(env))
        .cli(cli)
        .session(session)
        .build();
  }

  private static Map<String, String> forwardedEnv(Map<String, String> env) {
    Map<String, String> forwarded = Journal.redactedEnv(env);
    String names = env.get(FakeEnvironment.FORWARD_ENV);
    if (names != null && !names.isBlank()) {
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
   * Runs the turn to its ending, reported in the journal; null when the client's answer ends it.
   */
  public Ending run() {
    String problem;
    try {
      TapeSelection.Result selected = select();
      if (selected instanceof TapeSelection.Failed failed) {
        Ending instead = face.unanswered(this);
        return instead != null ? instead : failed(failed.message(), true);
      }
      TapeSelection.Selected chosen = (TapeSelection.Selected) selected;
      source = chosen.source();
      journal.tape = source.name();
      try (TapeSource played = source) {
        checked = validate(played, settings.replayCache());
        String otherCli = otherCli(header().cli().orElse(""), invocation.cli());
        if (otherCli != null) {
          return failed(
              source.name()
                  + ": a recording of "
                  + otherCli
                  + " (its header's \"cli\"), which the fake started as "
                  + invocation.cli()
                  + " does not play: give it to fake-agent/bin/"
                  + otherCli
                  + ", or record the run with "
                  + invocation.cli(),
              true);
        }
        Ending stop = face.admit(this);
        if (stop == null) {
          stop = face.transform(this);
        }
        if (stop != null) {
          return stop;
        }
        substitution = Substitution.of(header(), face.live(this));
        timing = chosen.timing().orElse(settings.timing());
        gates = Gates.fromEnv(env, settings.gateTimeoutMs());
        return report(face.play(this), null);
      }
    } catch (TapeException e) {
      problem = e.getMessage();
    } catch (IOException e) {
      problem = "I/O error: " + e.getMessage();
    } catch (Gates.NotReleased e) {
      problem = e.getMessage();
    }
    return failed(problem, true);
  }

  /**
   * The CLI a tape was recorded with when it is the other one the fake impersonates, else null: a
   * Claude Code tape played as {@code cursor-agent} (or the reverse) would write one CLI's bytes
   * under the other's name. A tape of no CLI, or of a CLI the fake does not impersonate (a Codex
   * stream recorded with {@code agentdouble record}), plays as recorded.
   */
  static String otherCli(String recorded, String running) {
    String cli = InvocationRecord.cliNamed(recorded);
    return InvocationRecord.CLIS.contains(cli) && !cli.equals(running) ? cli : null;
  }

  /**
   * The control server's tape when there is one (it is told the invocation; a tape it queued is
   * taken from its queue folder without asking), else the env's.
   */
  private TapeSelection.Result select() throws IOException {
    String url = env.get(FakeEnvironment.URL);
    if (url != null && !url.isEmpty()) {
      String queue = env.get(FakeEnvironment.QUEUE);
      if (queue != null && !queue.isEmpty()) {
        Optional<TapeSelection.Result> queued = QueuedTapes.take(queue, invocation);
        if (queued.isPresent()) {
          return queued.get();
        }
      }
      return ControlClient.ask(url, env.get(ControlSecret.ENV), invocation);
    }
    return TapeSelection.select(env, invocation);
  }

  /**
   * Ends the turn on a tape recorded in an output format the asked one cannot be rendered from
   * (only stream-json is rendered into the others), saying how to record it: {@code recordWith},
   * the CLI's options that make a stream-json tape.
   */
  public Ending unrenderable(String recordWith) {
    String recorded = header().format().cliName();
    return failed(
        source.name()
            + ": recorded in "
            + recorded
            + ", which cannot be rendered faithfully as "
            + format.cliName()
            + "; record the run with "
            + recordWith
            + ", or ask for --output-format "
            + recorded,
        true);
  }

  /**
   * Ends the turn on {@code problem}, said by the face and in the journal: exit 70 when it is the
   * fake's own, else no ending (the client's answer ended the turn).
   */
  public Ending failed(String problem, boolean own) {
    face.refuse(problem);
    return report(own ? new Frame.Exit(0, ExitStatus.OWN_PROBLEM) : null, problem);
  }

  /** Writes the journal line, once (a later call does nothing); returns {@code ending}. */
  public Ending report(Ending ending, String error) {
    String problem = journal.end(ending, error);
    if (problem != null) {
      face.writeErr(problem);
    }
    return ending;
  }

  /** Plays the tape with {@link Player}, the transform and substitution applied, to the streams. */
  public Ending play(OutputStream out, OutputStream err) throws IOException, Gates.NotReleased {
    if (checked.ending() instanceof Frame.Kill kill) {
      Signals.prepare(kill.signal(), invocation.pid());
    }
    return new Player(
            source, timing, originNanos, substitution, transform, out, err, gates, invocation.pid())
        .play(checked);
  }

  /** How the tape's frames become the face's output; set by {@link Face#transform}. */
  public void transform(Player.Transform transform) {
    this.transform = transform;
  }

  /**
   * Adds {@code next} after the transform set so far, so that every frame that one gives goes
   * through {@code next} too; {@code next} alone when none was set.
   */
  public void transformThen(Player.Transform next) {
    Player.Transform first = transform;
    if (first == null) {
      transform = next;
      return;
    }
    transform =
        new Player.Transform() {
          @Override
          public List<Frame> next(Frame frame) {
            List<Frame> out = new ArrayList<>();
            for (Frame f : first.next(frame)) {
              out.addAll(next.next(f));
            }
            return out;
          }
        };
  }

  public InvocationRecord invocation() {
    return invocation;
  }

  public Header header() {
    return checked.header();
  }

  public Player.Checked checked() {
    return checked;
  }

  public TapeSource source() {
    return source;
  }

  /** The live values in place of the tape's variables, once {@link Face#live} gave them. */
  public Substitution substitution() {
    return substitution;
  }

  public Timing timing() {
    return timing;
  }

  public Gates gates() {
    return gates;
  }

  public long originNanos() {
    return originNanos;
  }

  public Journal journal() {
    return journal;
  }

  /**
   * What an {@link OutOfMemoryError} says to a user: a thread the system would not start (the limit
   * on processes and threads, or memory for its stack), or a full heap.
   */
  public static String outOfMemory(OutOfMemoryError e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("native thread")) {
      return "cannot start a thread ("
          + message
          + "); the limit on this user's processes and threads (ulimit -u), or on the memory"
          + " for their stacks, is reached: end other processes, or raise the limit";
    }
    return "out of memory" + LineReader.memoryHint();
  }

  /**
   * A random version-4 UUID, for a fresh session. Not from {@code SecureRandom}: a session id needs
   * to be unique, not unguessable, and seeding a secure generator costs more start-up than a whole
   * replay. Nor through {@link java.util.UUID} and {@link java.util.SplittableRandom}: on JDK 21
   * and later {@code UUID.toString} makes six {@code VarHandle}s, some 2 ms of every run's
   * start-up. The two halves are SplitMix64 outputs of the clock, the wall time and the process id.
   */
  public static String freshUuid() {
    long seed =
        System.nanoTime() ^ System.currentTimeMillis() * 0x9E3779B97F4A7C15L ^ ProcessClock.pid();
    long high = (mix(seed += 0x9E3779B97F4A7C15L) & ~0xF000L) | 0x4000L;
    long low = (mix(seed + 0x9E3779B97F4A7C15L) & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    char[] text = new char[36];
    hex(high >>> 32, text, 0, 8);
    text[8] = '-';
    hex(high >>> 16, text, 9, 4);
    text[13] = '-';
    hex(high, text, 14, 4);
    text[18] = '-';
    hex(low >>> 48, text, 19, 4);
    text[23] = '-';
    hex(low, text, 24, 12);
    return new String(text);
  }

  /**
   * SplitMix64's finaliser (Steele, Lea and Flood 2014), as {@link java.util.SplittableRandom}'s.
   */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /**
   * The low {@code digits} hex digits of {@code value}, lower case, into {@code text} at {@code
   * at}.
   */
  private static void hex(long value, char[] text, int at, int digits) {
    for (int i = digits - 1; i >= 0; i--) {
      text[at + i] = Character.forDigit((int) (value & 0xF), 16);
      value >>>= 4;
    }
  }

  /**
   * Validates {@code source}, or takes what an earlier run found of the same file: a tape file of
   * {@link ValidationCache#MIN_TAPE} bytes or more with a folder for the cache. Any other tape is
   * just validated, without loading the cache's classes: the start-up path of small tapes stays as
   * it was.
   */
  static Player.Checked validate(TapeSource source, Optional<Path> folder) throws IOException {
    if (folder.isPresent() && source.fileSize().orElse(0) >= ValidationCache.MIN_TAPE) {
      return new ValidationCache(folder.get()).checked(source);
    }
    return Player.validate(source);
  }
}
