package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.Player;
import dev.agentdouble.fake.internal.run.Substitution;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.FrameLine;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeScanner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Claude Code's print mode as a face of a {@link Turn}: a stream-json tape played as stream-json
 * (its partial lines left out unless asked), or derived into json or text as the real CLI derives
 * them ({@link Renderer#claude}); the live session id in place of the tape's; the tape's ending. A
 * stdin loop of {@code --input-format stream-json} runs one turn with this face per user message.
 */
public final class ClaudePrint implements Turn.Face {
  /** The flag a tape recorded with partial messages has on its argv. */
  static final String PARTIAL = "--include-partial-messages";

  private final ClaudeProfile profile;
  private final CliArgs args;
  private final FakeEnvironment settings;
  private final OutputFormat format;
  private final String cwd;
  private final Optional<String> home;
  private final OutputStream stdout;
  private final OutputStream stderr;
  private final long originNanos;
  private long liveEpochMs;

  /**
   * A face writing to {@code stdout} and {@code stderr} the run {@code args} ask in {@code format}.
   */
  public ClaudePrint(
      ClaudeProfile profile,
      CliArgs args,
      FakeEnvironment settings,
      OutputFormat format,
      String cwd,
      Optional<String> home,
      OutputStream stdout,
      OutputStream stderr,
      long originNanos) {
    this.profile = profile;
    this.args = args;
    this.settings = settings;
    this.format = format;
    this.cwd = cwd;
    this.home = home;
    this.stdout = stdout;
    this.stderr = stderr;
    this.originNanos = originNanos;
  }

  @Override
  public Ending admit(Turn turn) {
    return null; // print mode skips the workspace trust dialog (claude --help, -p)
  }

  @Override
  public Ending transform(Turn turn) throws IOException {
    Header header = turn.header();
    boolean partial = args.has("include-partial-messages");
    if (header.format() != format && header.format() != OutputFormat.STREAM_JSON) {
      return turn.failed(
          turn.source().name()
              + ": recorded in "
              + header.format().cliName()
              + ", which cannot be rendered faithfully as "
              + format.cliName()
              + "; record the run with --output-format stream-json --verbose, or ask for"
              + " --output-format "
              + header.format().cliName(),
          true);
    }
    if (header.format() == OutputFormat.STREAM_JSON) {
      boolean holdsPartial =
          format == OutputFormat.STREAM_JSON && holdsPartial(header, turn.source());
      if (format == OutputFormat.STREAM_JSON && partial && !holdsPartial) {
        return turn.failed(
            turn.source().name()
                + ": recorded without "
                + PARTIAL
                + ", asked with it; record the run with "
                + PARTIAL
                + ", or ask without it",
            true);
      }
      if (format != OutputFormat.STREAM_JSON || (holdsPartial && !partial)) {
        Renderer renderer =
            Renderer.claude(
                format,
                new Renderer.ClaudeOptions(
                    args.has("verbose"),
                    partial,
                    profile.jsonResultLeavesOut(),
                    profile.jsonVerboseInitLeavesOut()));
        turn.transform(Player.Transform.rendering(renderer));
        if (format != OutputFormat.STREAM_JSON) {
          turn.journal().renderedFrom = header.format().cliName();
        } else {
          turn.journal().derived = "without-partial-messages";
        }
      }
    }
    liveEpochMs =
        settings
            .epochMs()
            .orElse(System.currentTimeMillis() - (System.nanoTime() - originNanos) / 1_000_000L);
    return null;
  }

  @Override
  public Substitution.Live live(Turn turn) {
    Optional<String> decided = turn.invocation().session(); // ClaudeChecks.askedSession, or fresh
    String sessionId = decided.isPresent() ? decided.get() : sessionId(turn.header());
    turn.journal().sessionId = sessionId;
    return new Substitution.Live(
        Optional.of(sessionId),
        Optional.of(cwd),
        home,
        Optional.of(turn.invocation().prompt()),
        OptionalLong.of(liveEpochMs),
        Optional.empty());
  }

  @Override
  public Ending play(Turn turn) throws IOException, Gates.NotReleased {
    // in the journal before the replay: a test reads it while the fake plays, hangs or dies
    turn.report(turn.checked().ending(), null);
    return turn.play(stdout, stderr);
  }

  @Override
  public void writeErr(String text) {
    Exits.write(stderr, text);
  }

  @Override
  public void refuse(String problem) {
    Exits.write(stderr, "agentdouble: " + problem + "\n");
  }

  /**
   * The live session id (claude-code.md §8; FINDINGS part d): {@code --session-id}'s; the one
   * resumed, unless forked; the tape's own for {@code --continue} unless forked; else a new one.
   */
  private String sessionId(Header header) {
    Optional<String> given = args.option("session-id");
    if (given.isPresent()) {
      return given.get();
    }
    if (!args.has("fork-session")) {
      if (args.resumeId().isPresent()) {
        return args.resumeId().get();
      }
      Optional<String> recorded = header.vars().sessionId();
      if (args.has("continue") && recorded.isPresent()) {
        return recorded.get();
      }
    }
    return Turn.freshUuid();
  }

  /**
   * Whether the tape holds partial messages: recorded with {@value #PARTIAL}, or a {@code
   * stream_event} line in it (a capture imported without its command line).
   */
  static boolean holdsPartial(Header header, TapeSource source) throws IOException {
    if (header.argv().contains(PARTIAL)) {
      return true;
    }
    byte[] marker = "\"type\":\"stream_event\"".getBytes(StandardCharsets.UTF_8);
    byte[] escaped = "\\\"type\\\":\\\"stream_event\\\"".getBytes(StandardCharsets.UTF_8);
    try (InputStream in = source.open()) {
      TapeScanner scanner = new TapeScanner(source.name(), in);
      while (scanner.next()) {
        FrameLine f = scanner.frame();
        if ((f.kind == FrameLine.Kind.OUT
                && contains(scanner.buffer(), f.valueStart, f.valueEnd, marker))
            || (f.kind == FrameLine.Kind.OUT_RAW
                && contains(scanner.buffer(), f.valueStart, f.valueEnd, escaped))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean contains(byte[] buf, int from, int to, byte[] marker) {
    for (int i = from; i + marker.length <= to; i++) {
      int j = 0;
      while (j < marker.length && buf[i + j] == marker[j]) {
        j++;
      }
      if (j == marker.length) {
        return true;
      }
    }
    return false;
  }
}
