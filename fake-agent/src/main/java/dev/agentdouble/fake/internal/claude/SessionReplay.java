package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.fake.internal.process.FrameClock;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Substitution;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.FrameLine;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A whole recorded stdin session of {@code claude --input-format stream-json} played in lockstep
 * with the client, as a face of the one {@link Turn} the session is (docs/tape-format.md §8, the
 * rule of ACP sessions; FINDINGS h): {@code out} frames are written at their time, verbatim but for
 * the variables (the session id a new one, the folders the live ones), and at each {@code in} frame
 * the client's next stdin line is read and checked against the recorded one: a user message, a
 * {@code control_request} of the same subtype, or a {@code control_response} to the same request
 * with the same behaviour (allow, deny). The client's {@code request_id}s (the SDK's are random)
 * are paired with the recorded ones, and the CLI's {@code control_response}s go out under the live
 * ids; the CLI's own requests ({@code can_use_tool}) keep their recorded ids, which the client
 * answers. Stdin ending where the tape waits for a line ends the session, exit 0, as the real CLI
 * ends at EOF; at the tape's ending, stdin is read to its end first.
 */
final class SessionReplay implements Turn.Face {
  private static final byte[] CONTROL_RESPONSE =
      "{\"type\":\"control_response\"".getBytes(StandardCharsets.UTF_8);

  private final ClaudeProfile profile;
  private final StdinLines stdin;
  private final OutputStream stdout;
  private final OutputStream stderr;
  private final String cwd;
  private final Optional<String> home;
  private final String messagingSocket;

  /** The client's request ids for the recorded ones (JSON strings, as written). */
  private final Map<String, String> ids = new HashMap<>();

  private final ByteBuf line = new ByteBuf();
  private long lastT;
  private long lastDue;

  SessionReplay(
      ClaudeProfile profile,
      StdinLines stdin,
      OutputStream stdout,
      OutputStream stderr,
      String cwd,
      Optional<String> home,
      String messagingSocket) {
    this.profile = profile;
    this.stdin = stdin;
    this.stdout = stdout;
    this.stderr = stderr;
    this.cwd = cwd;
    this.home = home;
    this.messagingSocket = messagingSocket;
  }

  @Override
  public Ending admit(Turn turn) {
    return null;
  }

  @Override
  public Ending transform(Turn turn) {
    return null; // played as recorded
  }

  @Override
  public LiveValues live(Turn turn) {
    String sessionId = Turn.freshUuid();
    turn.journal().sessionId = sessionId;
    return new LiveValues(
        Optional.of(sessionId),
        Optional.of(cwd),
        home,
        Optional.empty(),
        OptionalLong.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(ClaudePrint.projectRoot(cwd)),
        Optional.of(messagingSocket));
  }

  @Override
  public Ending play(Turn turn) throws IOException, Gates.NotReleased {
    Substitution substitution = turn.substitution();
    Timing timing = turn.timing();
    String name = turn.source().name();
    FrameLine f = new FrameLine();
    try (InputStream in = turn.source().open()) {
      LineReader lines = new LineReader(in);
      lines.next(); // the header, validated
      while (lines.next()) {
        byte[] buf = lines.buffer();
        f.parse(name, lines.lineNumber(), buf, lines.offset(), lines.length());
        if (!(timing instanceof Timing.Fast)) {
          lastDue = timing.due(f.t, lastT, lastDue);
          lastT = f.t;
          FrameClock.waitUntil(turn.originNanos(), lastDue);
        }
        switch (f.kind) {
          case OUT -> out(buf, f.valueStart, f.valueEnd, substitution);
          case OUT_RAW, OUT_B64 -> stdout.write(f.bytes, 0, f.bytes.length);
          case ERR, ERR_B64 -> stderr.write(f.bytes, 0, f.bytes.length);
          case GATE -> {
            if (turn.gates() != null) {
              turn.gates().pass(f.gate, turn.invocation().pid());
            }
          }
          case IN -> {
            Ending stop = in(buf, f, name, lines.lineNumber());
            if (stop != null) {
              return stop;
            }
          }
          case EXIT -> {
            return drained(name) ? new Frame.Exit(0, f.code) : ownEnd();
          }
          case KILL -> {
            return new Frame.Kill(0, f.signal);
          }
          case HANG -> {
            return new Frame.Hang(0, f.closeStdout);
          }
        }
        stdout.flush();
      }
    }
    return new Frame.Exit(0, ExitStatus.OK);
  }

  /** An {@code out} line, its variables substituted, a control response under the live id. */
  private void out(byte[] buf, int start, int end, Substitution substitution) throws IOException {
    line.clear();
    if (substitution.active()) {
      substitution.apply(buf, start, end - start, line);
    } else {
      line.append(buf, start, end - start);
    }
    if (startsWith(line.data, line.size, CONTROL_RESPONSE) && !ids.isEmpty()) {
      String json = new String(line.data, 0, line.size, StandardCharsets.UTF_8);
      String recorded = StdinMessage.parse(line.data, 0, line.size).requestId();
      String live = ids.get(recorded);
      if (live != null) {
        json = json.replace("\"request_id\":" + recorded, "\"request_id\":" + live);
      }
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      line.clear();
      line.append(bytes, 0, bytes.length);
    }
    line.append((byte) '\n');
    stdout.write(line.data, 0, line.size);
  }

  /**
   * The client's next line against the recorded {@code in} frame: null to play on, else how the
   * session ends (stdin ended, a line the CLI cannot parse, a line the tape does not have).
   */
  private Ending in(byte[] buf, FrameLine f, String name, int lineNumber) throws IOException {
    byte[] value = f.value(buf).getBytes(StandardCharsets.UTF_8);
    StdinMessage recorded = StdinMessage.parse(value, 0, value.length);
    StdinMessage live;
    do {
      live = stdin.next();
      if (live == null) {
        return new Frame.Exit(0, ExitStatus.OK); // the client went away: the session ends
      }
      if (live.kind() == StdinMessage.Kind.BAD) {
        Exits.write(stderr, live.parseError(profile));
        return new Frame.Exit(0, ExitStatus.CLI_FAILED);
      }
    } while (live.kind() == StdinMessage.Kind.OTHER && recorded.kind() != StdinMessage.Kind.OTHER);
    if (!same(recorded, live)) {
      Exits.write(
          stderr,
          "agentdouble: "
              + name
              + ":"
              + lineNumber
              + ": the client sent "
              + live.describe()
              + ", the tape has "
              + recorded.describe()
              + "; record the session again, or drive it as recorded\n");
      return ownEnd();
    }
    if (recorded.kind() == StdinMessage.Kind.CONTROL_REQUEST) {
      ids.put(recorded.requestId(), live.requestId());
    }
    return null;
  }

  private static boolean same(StdinMessage recorded, StdinMessage live) {
    if (recorded.kind() != live.kind()) {
      return false;
    }
    return switch (recorded.kind()) {
      case CONTROL_REQUEST -> recorded.subtype().equals(live.subtype());
      case CONTROL_RESPONSE ->
          recorded.requestId().equals(live.requestId())
              && recorded.behavior().equals(live.behavior());
      case OTHER -> recorded.type().equals(live.type());
      default -> true;
    };
  }

  /**
   * After the tape's last frame: reads stdin to its end (the real CLI exits at EOF); false, said on
   * stderr, when a line asks for what the tape has no answer to.
   */
  private boolean drained(String name) throws IOException {
    boolean answered = true;
    StdinMessage m;
    while ((m = stdin.next()) != null) {
      if (m.kind() == StdinMessage.Kind.USER || m.kind() == StdinMessage.Kind.CONTROL_REQUEST) {
        Exits.write(
            stderr,
            "agentdouble: "
                + name
                + ": the session's tape has no answer for "
                + m.describe()
                + " after its last frame; record the session with it\n");
        answered = false;
      }
    }
    return answered;
  }

  private static Ending ownEnd() {
    return new Frame.Exit(0, ExitStatus.OWN_PROBLEM);
  }

  private static boolean startsWith(byte[] data, int size, byte[] prefix) {
    if (size < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (data[i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void writeErr(String text) {
    Exits.write(stderr, text);
  }

  @Override
  public void refuse(String problem) {
    Exits.write(stderr, "agentdouble: " + problem + "\n");
  }
}
