package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.fake.internal.process.FrameClock;
import dev.agentdouble.fake.internal.process.ProcessClock;
import dev.agentdouble.fake.internal.process.Signals;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Player;
import dev.agentdouble.fake.internal.run.Substitution;
import dev.agentdouble.fake.internal.source.TapeSelection;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.FrameLine;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.Vars;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * Plays an ACP tape in lockstep with the client (docs/tape-format.md §8): {@code out} frames are
 * written at their time, and at each {@code in} frame the client's next message is read and checked
 * against the recorded one. Responses go out under the client's own request ids. Two uses: a whole
 * recorded session ({@code AGENTDOUBLE_TAPE} naming an ACP tape, without a control server), and the
 * first turn of an ACP tape answering one {@code session/prompt} of the live server.
 */
final class AcpReplay {
  /**
   * Where a turn's client messages come from, when the live server owns the wire: the agent's
   * requests go out under ids of the live agent's, so that their responses reach this turn alone.
   */
  interface TurnClient {
    /** A new request of this turn's: the id it goes out under, awaiting its response. */
    long request();

    /** The client's response to the turn's request {@code id}; null when the turn was cancelled. */
    AcpWire.Message response(long id);

    /**
     * Takes the client's answer to the permission request {@code id} (null: the turn was cancelled)
     * for the journal and the control server; throws {@link AcpPermission.Failed} when it fails the
     * turn.
     */
    AcpPermission.Answer permission(long id, AcpWire.Message reply);
  }

  /** A request the recorded agent sent in a turn, under its live id. */
  private record Asked(long liveId, String method) {}

  private final TapeSource source;
  private final Timing timing;
  private final long originNanos;
  private final AcpWire wire;
  private final Consumer<String> stderr;
  private final Gates gates;
  private final long pid;
  private final TurnClient turn;

  /** In a turn: the live session's id, for the recorded one (as a JSON string, both). */
  private final String liveSession;

  private String recordedSession;

  /** The client's ids for the recorded client's requests. */
  private final Map<String, String> ids = new HashMap<>();

  /** In a turn: the recorded agent's requests awaiting their recorded responses. */
  private final Map<String, Asked> asked = new HashMap<>();

  /** A whole session's recorded variables, and the home folder they are replayed under. */
  private Vars vars = Vars.NONE;

  private Optional<String> home = Optional.empty();

  /** The live values in place of the recorded ones, once the client named its session's folder. */
  private Substitution substitution;

  private final ByteBuf substituted = new ByteBuf();
  private volatile boolean cancelled;
  private String promptResponse;
  private long lastT;
  private long lastDue;

  /**
   * A replay; {@code turn} and {@code liveSession} for the first turn of an ACP tape answering a
   * live {@code session/prompt} (null for a whole session).
   */
  AcpReplay(
      TapeSource source,
      Timing timing,
      long originNanos,
      AcpWire wire,
      Consumer<String> stderr,
      Gates gates,
      long pid,
      TurnClient turn,
      String liveSession) {
    this.source = source;
    this.timing = timing;
    this.originNanos = originNanos;
    this.wire = wire;
    this.stderr = stderr;
    this.gates = gates;
    this.pid = pid;
    this.turn = turn;
    this.liveSession = liveSession == null ? null : JsonText.quote(liveSession);
  }

  /**
   * The whole-session replay the environment asks for: {@code AGENTDOUBLE_TAPE} naming an ACP tape
   * and no control server. Empty for any other configuration (the live server answers then).
   */
  static Optional<AcpReplay> configured(
      Map<String, String> env,
      FakeEnvironment settings,
      AcpWire wire,
      Consumer<String> stderr,
      long pid)
      throws IOException {
    String url = env.get(FakeEnvironment.URL);
    String tape = env.get(FakeEnvironment.TAPE);
    if ((url != null && !url.isBlank()) || tape == null || tape.isBlank()) {
      return Optional.empty();
    }
    TapeSelection.Result selected =
        TapeSelection.select(env, InvocationRecord.empty(OutputFormat.ACP.cliName()));
    if (!(selected instanceof TapeSelection.Selected chosen)) {
      return Optional.empty(); // said when the first turn asks for it
    }
    TapeSource source = chosen.source();
    Player.Checked checked = Player.validate(source);
    if (checked.header().format() != OutputFormat.ACP) {
      source.close();
      return Optional.empty();
    }
    if (checked.ending() instanceof Frame.Kill kill) {
      Signals.prepare(kill.signal(), pid);
    }
    AcpReplay replay =
        new AcpReplay(
            source,
            settings.timing(),
            ProcessClock.originNanos(),
            wire,
            stderr,
            Gates.fromEnv(env, settings.gateTimeoutMs()),
            pid,
            null,
            null);
    replay.vars = checked.header().vars();
    replay.home = Optional.ofNullable(env.get("HOME")).filter(h -> !h.isEmpty());
    return Optional.of(replay);
  }

  void cancel() {
    cancelled = true;
  }

  /** Plays the whole session; returns how the process ends. */
  Ending play() throws IOException {
    try {
      return frames(null);
    } catch (Gates.NotReleased e) {
      writeErr("agentdouble: " + e.getMessage() + "\n");
      return new Frame.Exit(0, ExitStatus.OWN_PROBLEM);
    } finally {
      source.close();
    }
  }

  /**
   * Plays the tape's first turn as the answer to the live prompt {@code liveId}; returns its ending
   * when the recorded agent ended there, else {@code exit 0} at the prompt's response, which it
   * leaves to the turn to send ({@link #promptResponse()}).
   */
  Ending play(String liveId) throws IOException, Gates.NotReleased {
    return frames(liveId);
  }

  /** In a turn, the recorded response to the prompt, under the live id, once play reached it. */
  Optional<String> promptResponse() {
    return Optional.ofNullable(promptResponse);
  }

  private Ending frames(String livePromptId) throws IOException, Gates.NotReleased {
    boolean turnMode = turn != null;
    boolean inTurn = !turnMode;
    String promptId = null;
    long turnStart = 0;
    FrameLine f = new FrameLine();
    try (InputStream in = source.open()) {
      LineReader lines = new LineReader(in);
      lines.next(); // the header, validated
      while (lines.next()) {
        if (cancelled) {
          throw new AcpRendering.Cancelled(); // the turn's cancel answered the prompt
        }
        byte[] buf = lines.buffer();
        int line = lines.lineNumber();
        f.parse(source.name(), line, buf, lines.offset(), lines.length());
        if (!inTurn) {
          if (f.kind == FrameLine.Kind.IN) {
            AcpWire.Message recorded = recorded(f, buf);
            if (recorded.method().equals("session/prompt")) {
              inTurn = true;
              promptId = recorded.id();
              String sessionId = recorded.params().get("sessionId").asText();
              recordedSession = sessionId.isEmpty() ? null : JsonText.quote(sessionId);
              ids.put(promptId, livePromptId);
              turnStart = f.t;
              lastT = 0;
            }
          }
          continue;
        }
        waitFor(f.t - turnStart);
        switch (f.kind) {
          case OUT -> {
            String json = live(session(f.value(buf)));
            String id = responseId(json);
            String live = id == null ? null : ids.get(id);
            if (turnMode && live == null) {
              json = asked(json);
            }
            String message = live == null ? json : withId(json, live);
            if (turnMode && id != null && id.equals(promptId)) {
              promptResponse = message; // sent by the turn, once it is in the journal
              return new Frame.Exit(0, ExitStatus.OK);
            }
            wire.send(message);
          }
          case OUT_RAW, OUT_B64 -> wire.write(f.bytes, 0, f.bytes.length);
          case ERR, ERR_B64 -> writeErr(new String(f.bytes, StandardCharsets.UTF_8));
          case GATE -> {
            if (gates != null) {
              gates.pass(f.gate, pid);
            }
          }
          case IN -> {
            AcpWire.Message recorded = recorded(f, buf);
            Optional<Ending> stop = turnMode ? inTurn(recorded, line) : inSession(recorded, line);
            if (stop.isPresent()) {
              return stop.get();
            }
          }
          case EXIT -> {
            if (!turnMode && !drain()) {
              return new Frame.Exit(0, ExitStatus.OWN_PROBLEM);
            }
            return new Frame.Exit(0, f.code);
          }
          case KILL -> {
            return new Frame.Kill(0, f.signal);
          }
          case HANG -> {
            return new Frame.Hang(0, f.closeStdout);
          }
        }
      }
    }
    throw new TapeException(
        source.name(), 1, "it has no session/prompt turn to answer this prompt with");
  }

  /**
   * In a turn, an agent's request under an id of the live agent's (its response is looked for under
   * it); any other message as it is.
   */
  private String asked(String json) {
    Located at = locateId(json);
    if (at == null || !at.hasMethod) {
      return json;
    }
    long liveId = turn.request();
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    AcpWire.Message m = AcpWire.Message.parse(bytes, 0, bytes.length);
    asked.put(json.substring(at.start, at.end), new Asked(liveId, m.method()));
    return withId(json, Long.toString(liveId));
  }

  /** In a turn, the line with the recorded session's id (a whole JSON string) made the live one. */
  private String session(String json) {
    if (recordedSession == null || liveSession == null) {
      return json;
    }
    return json.replace(recordedSession, liveSession);
  }

  private Optional<Ending> inSession(AcpWire.Message recorded, int line) {
    AcpWire.Message live = wire.take();
    if (live.kind() == AcpWire.Kind.END) {
      return Optional.of(
          new Frame.Exit(0, ExitStatus.OK)); // the client went away: the session ends
    }
    if (live.kind() == AcpWire.Kind.FAILED) {
      writeErr(live.problem());
      return Optional.of(new Frame.Exit(0, ExitStatus.OWN_PROBLEM));
    }
    if (!same(recorded, live)) {
      writeErr(
          "agentdouble: "
              + source.name()
              + ":"
              + line
              + ": the client sent "
              + live.describe()
              + ", the tape has "
              + recorded.describe()
              + "; record the session again, or drive it as recorded\n");
      return Optional.of(new Frame.Exit(0, ExitStatus.OWN_PROBLEM));
    }
    if (recorded.kind() == AcpWire.Kind.REQUEST) {
      ids.put(recorded.id(), live.id());
      String method = live.method();
      if (method.equals("session/new") || method.equals("session/load")) {
        // the recorded folder (and a loaded session's id) become the live client's
        String cwd = live.params().get("cwd").asText();
        String sessionId = live.params().get("sessionId").asText();
        substitution =
            Substitution.of(
                vars,
                new LiveValues(
                    Optional.of(sessionId).filter(id -> method.equals("session/load")),
                    Optional.of(cwd).filter(c -> c.startsWith("/")),
                    home,
                    Optional.empty(),
                    OptionalLong.empty(),
                    Optional.empty()));
      }
    }
    return Optional.empty();
  }

  /** {@code json} with the live values in place of the tape's variables, in a whole session. */
  private String live(String json) {
    if (substitution == null || !substitution.active()) {
      return json;
    }
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    substituted.clear();
    substitution.apply(bytes, 0, bytes.length, substituted);
    return new String(substituted.data, 0, substituted.size, StandardCharsets.UTF_8);
  }

  private Optional<Ending> inTurn(AcpWire.Message recorded, int line) {
    if (recorded.kind() == AcpWire.Kind.RESPONSE) {
      Asked request = asked.remove(recorded.id());
      if (request == null) {
        throw new TapeException(
            source.name(),
            line,
            "a response to id " + recorded.id() + ", which the agent did not ask in this turn");
      }
      AcpWire.Message live = turn.response(request.liveId());
      if (request.method().equals("session/request_permission")) {
        if (turn.permission(request.liveId(), live).cancelled()) {
          throw new AcpRendering.Cancelled();
        }
      } else if (live == null) {
        throw new AcpRendering.Cancelled();
      }
      return Optional.empty();
    }
    if (recorded.method().equals("session/cancel")) {
      // the turn waits for the client's cancel, which answers the prompt: no thread need wait
      return Optional.of(new Frame.Hang(0, false));
    }
    throw new TapeException(
        source.name(),
        line,
        "this turn waits for the client's "
            + recorded.describe()
            + ", which a turn of the live server cannot be given; replay the whole session"
            + " with "
            + FakeEnvironment.TAPE
            + " instead");
  }

  /**
   * After the tape's last message: reads until stdin ends, refusing what has no answer; false when
   * stdin could not be read to its end (said on stderr).
   */
  private boolean drain() {
    while (true) {
      AcpWire.Message m = wire.take();
      if (m.kind() == AcpWire.Kind.END) {
        return true;
      }
      if (m.kind() == AcpWire.Kind.FAILED) {
        writeErr(m.problem());
        return false;
      }
      if (m.kind() == AcpWire.Kind.REQUEST) {
        String details =
            "agentdouble: " + source.name() + ": the tape has no answer for " + m.describe();
        writeErr(details + "\n");
        wire.send(
            AcpWire.error(
                m.id(),
                CursorAcp.INTERNAL_ERROR,
                "Internal error",
                "{\"details\":" + JsonText.quote(details) + "}"));
      }
    }
  }

  private static boolean same(AcpWire.Message recorded, AcpWire.Message live) {
    if (recorded.kind() != live.kind()) {
      return false;
    }
    return switch (recorded.kind()) {
      case REQUEST, NOTIFICATION -> recorded.method().equals(live.method());
      case RESPONSE -> recorded.id().equals(live.id());
      default -> recorded.json().equals(live.json());
    };
  }

  private AcpWire.Message recorded(FrameLine f, byte[] buf) {
    byte[] value = f.value(buf).getBytes(StandardCharsets.UTF_8);
    return AcpWire.Message.parse(value, 0, value.length);
  }

  private void waitFor(long t) {
    if (timing instanceof Timing.Fast) {
      return;
    }
    lastDue = timing.due(t, lastT, lastDue);
    lastT = t;
    FrameClock.waitUntil(originNanos, lastDue);
  }

  /** The id of a response (a message with an id and no method), as written; null otherwise. */
  static String responseId(String json) {
    Located id = locateId(json);
    return id == null || id.hasMethod ? null : json.substring(id.start, id.end);
  }

  /** {@code json} with its top-level id replaced by {@code id}, every other byte kept. */
  static String withId(String json, String id) {
    Located at = locateId(json);
    return json.substring(0, at.start) + id + json.substring(at.end);
  }

  private record Located(int start, int end, boolean hasMethod) {}

  /** Where the top-level {@code id} value lies in the (ASCII-indexed) text, and if a method is. */
  private static Located locateId(String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    JsonCursor c = new JsonCursor(bytes, 0, bytes.length);
    int start = -1;
    int end = -1;
    boolean method = false;
    try {
      if (c.next() != JsonCursor.Token.START_OBJECT) {
        return null;
      }
      JsonCursor.Token token;
      while ((token = c.next()) == JsonCursor.Token.FIELD_NAME) {
        String key = c.text();
        JsonCursor.Token value = c.next();
        if (key.equals("id") && start < 0) {
          start = c.tokenStart();
          c.skipChildren(value);
          end = c.tokenEnd();
        } else {
          method |= key.equals("method");
          c.skipChildren(value);
        }
      }
    } catch (JsonCursor.Malformed e) {
      return null;
    }
    if (start < 0) {
      return null;
    }
    // byte offsets to char offsets: the id and what precedes it are ASCII in every JSON-RPC line
    // but a string id may not be: count chars up to the byte offsets
    String head = new String(bytes, 0, start, StandardCharsets.UTF_8);
    String value = new String(bytes, start, end - start, StandardCharsets.UTF_8);
    return new Located(head.length(), head.length() + value.length(), method);
  }

  private void writeErr(String text) {
    stderr.accept(text);
  }
}
