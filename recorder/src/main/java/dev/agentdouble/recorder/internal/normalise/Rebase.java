package dev.agentdouble.recorder.internal.normalise;

import dev.agentdouble.event.EventFields;
import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.recorder.internal.scan.Bytes;
import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The work behind {@code Normaliser}: one pass over the stdout JSON lines to find the volatile
 * values, one to rewrite them (and, between them, one over the lines that may not come back at
 * replay, only when there are such lines). Only whole JSON strings (and the numbers under {@code
 * timestamp_ms}) change, spliced into the line's bytes; the cwd and home prefix rule and, in a
 * Claude Code tape, the cwd inside a string where it stands as a path are the exceptions, as they
 * are at replay. Raw stdout and stderr are kept as they are, since the fake never substitutes
 * there.
 */
public final class Rebase {
  /** The canonical values a tape is rebased to. */
  public record Canon(String sessionId, String cwd, String home, long epochMs) {
    /** The canonical session id. */
    public static final String SESSION_ID = "00000000-0000-4000-8000-000000000001";

    /** The canonical working folder. */
    public static final String CWD = "/workspace";

    /** The canonical home folder. */
    public static final String HOME = "/home/user";

    /** The canonical start of a run: 2026-01-01T00:00:00Z, epoch milliseconds. */
    public static final long EPOCH_MS = 1_767_225_600_000L;

    /**
     * Claude Code's canonical {@code messaging_socket_path} ({@code <tmp>/cc-socks/<pid>.sock}, the
     * folder for temporary files and the pid of the run recorded): the fake writes its own in place
     * of whatever the tape holds (docs/claude-2.1.328-runs.md part k).
     */
    public static final String MESSAGING_SOCKET = "/tmp/cc-socks/4242.sock";

    /** The canonical values a recorded tape is normalised to ({@code docs/tape-format.md}, §4). */
    public static final Canon STANDARD = new Canon(SESSION_ID, CWD, HOME, EPOCH_MS);
  }

  /** What the recorder knows about the run; each empty where it does not. */
  public record Known(
      Optional<String> cwd, Optional<String> home, Optional<String> prompt, OptionalLong epochMs) {}

  private final Canon canon;
  private final Known known;
  private final CliKeys keys;

  /** The stdout JSON lines seen so far, and which of them are user events (by their number). */
  private int lines;

  private final BitSet userLines = new BitSet();

  /**
   * What every JSON line and client message is looked at for as it is scanned: a string starting
   * with a canonical value, or with the cwd or home known before the run ({@link #watched}); and
   * the lines and messages (by their number among both) where one may start. The check that replay
   * gives every string back then goes only through those, without a pass of its own over the
   * others.
   */
  private final List<byte[]> watched;

  /**
   * In a Claude Code tape, what every line is looked at for besides: the canonical cwd, or the one
   * known before the run, inside a string after a space, {@code '} or {@code (} (their escaped
   * bytes), where the cwd rule also rebases it ({@link StringRules#path}).
   */
  private final List<byte[]> watchedInText;

  private int messages;
  private final BitSet mentions = new BitSet();

  // found by the scan
  private Optional<String> initSessionId = Optional.empty();
  private Optional<String> initCwd = Optional.empty();
  private Optional<String> firstSessionId = Optional.empty();
  private Optional<String> userText = Optional.empty();
  private OptionalLong derivedEpoch = OptionalLong.empty();
  private final CanonicalIds ids = new CanonicalIds();

  /**
   * A normalisation to {@code canon} with what is {@code known} about the run, whose volatile
   * values the CLI's {@code keys} name: {@link #scan} every piece, then {@link #plan}.
   */
  public Rebase(Canon canon, Known known, CliKeys keys) {
    this.canon = canon;
    this.known = known;
    this.keys = keys;
    List<byte[]> needles = new ArrayList<>();
    for (String value : List.of(canon.sessionId(), canon.cwd(), canon.home())) {
      needles.add(StringRules.needle(value));
    }
    for (Optional<String> folder : List.of(folder(known.cwd()), folder(known.home()))) {
      folder.ifPresent(f -> needles.add(StringRules.needle(f)));
    }
    this.watched = List.copyOf(needles);
    List<byte[]> inners = new ArrayList<>();
    if (keys == CliKeys.CLAUDE) {
      inners.add(StringRules.inner(canon.cwd()));
      folder(known.cwd()).ifPresent(f -> inners.add(StringRules.inner(f)));
    }
    this.watchedInText = List.copyOf(inners);
  }

  /** {@code tape} rebased to {@code canon}. */
  public static Tape normalise(Tape tape, Known known, Canon canon) {
    Rebase n = new Rebase(canon, known, CliKeys.of(tape.header().cli()));
    Piece.Source source = Piece.Source.of(tape.frames());
    try {
      source.forEach(n::scan);
      Plan plan = n.plan(tape.header(), source);
      List<Frame> frames = new ArrayList<>(tape.frames().size());
      UnaryOperator<Piece> rebase = plan.rewriting();
      source.forEach(p -> frames.add(rebase.apply(p).toFrame()));
      return new Tape(plan.header(), frames);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // pieces in memory: never
    }
  }

  /**
   * How the tape is rewritten, decided once every piece was scanned: each piece, in the same order,
   * through a {@link #rewriting} pass; and the {@link #header}.
   */
  public final class Plan {
    private final LineRewrite rewrite;
    private final Header header;

    private Plan(
        StringRules rules,
        Map<String, String> idMap,
        long shift,
        Optional<String> prompt,
        Optional<ProjectFolder> project,
        Header header) {
      this.rewrite =
          new LineRewrite(rules, idMap, shift, prompt, project, keys, Canon.MESSAGING_SOCKET);
      this.header = header;
    }

    /** The header with its vars declared and its argv rebased. */
    public Header header() {
      return header;
    }

    /**
     * A pass over the pieces from the first: each rebased in turn; pieces other than stdout JSON
     * lines as they are.
     */
    public UnaryOperator<Piece> rewriting() {
      int[] line = {0};
      return piece ->
          piece.kind() != Piece.Kind.JSON && piece.kind() != Piece.Kind.IN
              ? piece
              : piece.with(
                  rewrite.apply(
                      piece.bytes(), piece.kind() == Piece.Kind.JSON && userLines.get(line[0]++)));
    }
  }

  /** Notes what the next piece tells about the run: ids, the init event, the prompt, the time. */
  public void scan(Piece piece) {
    if (piece.kind() == Piece.Kind.IN || (piece.kind() == Piece.Kind.JSON && acp(piece))) {
      if (StringRules.mayOccurIn(piece.bytes(), watched)
          || StringRules.mayOccurInText(piece.bytes(), watchedInText)) {
        mentions.set(messages);
      }
      messages++;
      scanAcp(piece);
      return;
    }
    if (piece.kind() != Piece.Kind.JSON) {
      return;
    }
    byte[] json = piece.bytes();
    int hints = hints(json);
    if ((hints & WATCHED) != 0) {
      mentions.set(messages);
    }
    messages++;
    // what is asked of every line is whether it is a user event; the rest, until found
    boolean needed =
        (hints & (USER | ESCAPE)) != 0
            || (initSessionId.isEmpty() && initCwd.isEmpty())
            || firstSessionId.isEmpty()
            || derivedEpoch.isEmpty();
    EventFields event =
        needed ? EventFields.read(json, 0, json.length, userText.isEmpty()) : EventFields.NONE;
    if (event.isUser()) {
      userLines.set(lines);
    }
    lines++;
    if (event.isInit() && initSessionId.isEmpty() && initCwd.isEmpty()) {
      initSessionId = event.sessionId();
      initCwd = event.cwd();
    }
    if (firstSessionId.isEmpty()) {
      firstSessionId = event.sessionId();
    }
    // Claude Code's user events are tool results and interrupts, its prompt an argument
    if (event.isUser() && userText.isEmpty() && keys != CliKeys.CLAUDE) {
      userText = event.text();
    }
    if (derivedEpoch.isEmpty() && event.timestampMs().isPresent()) {
      derivedEpoch = OptionalLong.of(event.timestampMs().getAsLong() - piece.t());
    }
    if (keys == CliKeys.CLAUDE) {
      claudeStrings(json, piece.t()); // every line of Claude Code's has a uuid
      return;
    }
    if ((hints & (ID_KEY | ESCAPE)) == 0) {
      return; // no field names an id (a key written with escapes is looked at, to be sure)
    }
    volatileStrings(json, false, false);
  }

  /** Claude Code's id keys whose value is a tool use id, as a tool_use block's {@code id} is. */
  private static final Set<String> CLAUDE_CALL_KEYS =
      Set.of("tool_use_id", "parent_tool_use_id", "hook_id", "agent_id", "task_id");

  /**
   * Notes the volatile strings of a line of Claude Code's ({@link CliKeys#CLAUDE}), and the run's
   * start from its first ISO {@code timestamp} when no {@code timestamp_ms} gave it.
   */
  private void claudeStrings(byte[] json, long t) {
    walkStrings(
        json,
        (c, path, key) -> {
          Object last = path.isEmpty() ? "" : path.get(path.size() - 1);
          Object parent = path.size() < 2 ? "" : path.get(path.size() - 2);
          String text = c.text();
          if (key.equals("uuid")
              || key.endsWith("_uuid")
              || (last instanceof Integer
                  && (parent.equals("uuids") || parent.equals("all_uuids")))) {
            ids.uuid(text);
          } else if (CLAUDE_CALL_KEYS.contains(key)
              || (key.equals("id")
                  && (text.startsWith("toolu_") || text.startsWith("srvtoolu_")))) {
            ids.call(text);
          } else if (key.equals("id") && text.startsWith("msg_")) {
            ids.message(text);
          } else if (key.equals("request_id")) {
            ids.request(text);
          } else if (key.equals(Vars.CLAUDE_ISO_TIME_KEY) && derivedEpoch.isEmpty()) {
            IsoTime.epochMs(text).ifPresent(ms -> derivedEpoch = OptionalLong.of(ms - t));
          }
        });
  }

  /**
   * Notes the volatile strings of a line: the ids of every line, and of an ACP message ({@code
   * acp}) its session id (the first {@code sessionId}) and, from the client ({@code client}), the
   * folder its {@code params.cwd} names.
   */
  private void volatileStrings(byte[] json, boolean acp, boolean client) {
    walkStrings(
        json,
        (c, path, key) -> {
          switch (key) {
            case "request_id" -> ids.request(c.text());
            case "model_call_id" -> ids.modelCall(c.text());
            case "call_id", "toolCallId" -> ids.call(c.text());
            case "sessionId" -> {
              if (acp && firstSessionId.isEmpty()) {
                firstSessionId = Optional.of(c.text());
              }
            }
            case "cwd" -> {
              if (client && path.size() == 2 && "params".equals(path.get(0)) && initCwd.isEmpty()) {
                initCwd = Optional.of(c.text());
              }
            }
            default -> {
              // nothing volatile
            }
          }
        });
  }

  private static final byte[] JSONRPC = "{\"jsonrpc\":".getBytes(StandardCharsets.US_ASCII);

  /** Whether a stdout line is an ACP (JSON-RPC) message rather than a stream-json event. */
  private static boolean acp(Piece piece) {
    byte[] json = piece.bytes();
    return Bytes.startsWith(json, 0, json.length, JSONRPC);
  }

  /**
   * An ACP message, either way: the session id (the first {@code sessionId}), the cwd (a client's
   * {@code params.cwd}, in {@code session/new} or {@code session/load}) and the tool call ids.
   */
  private void scanAcp(Piece piece) {
    if (piece.kind() == Piece.Kind.JSON) {
      lines++; // a stdout line, never a user event
    }
    volatileStrings(piece.bytes(), true, piece.kind() == Piece.Kind.IN);
  }

  private static final int USER = 1;
  private static final int ID_KEY = 2;
  private static final int ESCAPE = 4;
  private static final int WATCHED = 8;

  /**
   * What one look at a line's bytes tells, as bits: {@link #USER} when {@code "user"} is in it,
   * {@link #ID_KEY} when a key naming an id ({@code "request_id"}, {@code "model_call_id"}, {@code
   * "call_id"}, {@code "toolCallId"}) is, {@link #ESCAPE} when a {@code \\u} escape is, {@link
   * #WATCHED} when a string may start with a {@link #watched} value ({@link
   * StringRules#mayOccurIn}) or a {@link #watchedInText} value follows a space, {@code '} or {@code
   * (}. One pass, looking closer only at a quote or a backslash, and at those when watched.
   */
  private int hints(byte[] json) {
    int hints = 0;
    if (json.length > 0 && json[0] == '"' && watchedAt(json, 0)) {
      hints |= WATCHED;
    }
    for (int i = 1; i < json.length; i++) {
      byte b = json[i];
      if (b == '"') {
        if ((hints & WATCHED) == 0 && watchedAt(json, i)) {
          hints |= WATCHED;
        }
        byte before = json[i - 1];
        if (before == 'd'
            && (endsWith(json, i, "\"request_id")
                || endsWith(json, i, "\"model_call_id")
                || endsWith(json, i, "\"call_id")
                || endsWith(json, i, "\"toolCallId"))) {
          hints |= ID_KEY;
        } else if (before == 'r' && endsWith(json, i, "\"user")) {
          hints |= USER;
        }
      } else if (b == '\\' && i + 1 < json.length && json[i + 1] == 'u') {
        hints |= ESCAPE;
      } else if ((b == ' ' || b == '\'' || b == '(')
          && !watchedInText.isEmpty()
          && (hints & WATCHED) == 0
          && StringRules.inTextAt(json, i + 1, watchedInText)) {
        hints |= WATCHED;
      }
    }
    return hints;
  }

  /** Whether a {@link #watched} value starts at {@code json[at]}, a quote. */
  private boolean watchedAt(byte[] json, int at) {
    for (byte[] needle : watched) {
      if (Bytes.startsWith(json, at, json.length, needle)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code json[0, end)} ends with {@code ascii}. */
  private static boolean endsWith(byte[] json, int end, String ascii) {
    int n = ascii.length();
    if (end < n) {
      return false;
    }
    for (int k = 0; k < n; k++) {
      if (json[end - n + k] != ascii.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The plan, once every piece was {@link #scan scanned}: the header's vars and the values rebased.
   * {@code source} is gone through again (only the lines that may matter are parsed) to check that
   * replay gives every string back.
   */
  public Plan plan(Header h, Piece.Source source) throws IOException {
    Vars recorded = h.vars();
    Optional<String> sessionId =
        recorded
            .sessionId()
            .or(() -> initSessionId)
            .or(() -> firstSessionId)
            .filter(id -> id.length() >= CanonicalIds.MIN_LENGTH);
    Optional<String> cwd =
        folder(known.cwd()).or(() -> folder(recorded.cwd())).or(() -> folder(initCwd));
    Optional<String> home = folder(known.home()).or(() -> folder(recorded.home()));
    Optional<String> prompt =
        known.prompt().or(recorded::prompt).or(() -> userText.filter(t -> !t.isEmpty()));
    OptionalLong epoch =
        known.epochMs().isPresent()
            ? known.epochMs()
            : recorded.epochMs().isPresent() ? recorded.epochMs() : derivedEpoch;

    // which of sessionId, cwd, home can be rebased so that replay gives every string back
    StringRules rules = rules(sessionId, cwd, home, prompt, source);
    boolean rebaseSession =
        sessionId.isPresent() && rules.applyText(sessionId.get()).equals(canon.sessionId());
    boolean rebaseCwd = cwd.isPresent() && rules.applyText(cwd.get()).equals(canon.cwd());
    boolean rebaseHome = home.isPresent() && rules.applyText(home.get()).equals(canon.home());

    long shift = epoch.isPresent() ? canon.epochMs() - epoch.getAsLong() : 0;
    Vars vars =
        new Vars(
            sessionId.map(id -> rebaseSession ? canon.sessionId() : id),
            cwd.map(c -> rebaseCwd ? canon.cwd() : c),
            home.map(c -> rebaseHome ? canon.home() : c),
            prompt,
            epoch.isPresent() ? OptionalLong.of(canon.epochMs()) : OptionalLong.empty(),
            recorded.extras());
    List<String> argv = h.argv().stream().map(a -> argvElement(a, rules)).toList();
    Header header =
        new Header(
            h.version(),
            h.cli(),
            h.cliVersion(),
            h.profile(),
            argv,
            h.outputFormat(),
            h.textStyle(),
            h.recordedAt(),
            h.importedAt(),
            h.source(),
            h.recorder(),
            h.varied(),
            vars,
            h.match(),
            h.extras());
    Map<String, String> idMap = ids.all();
    // a string equal to the session id is the session id, whatever else noted it
    sessionId.ifPresent(idMap::remove);
    Optional<ProjectFolder> project =
        keys == CliKeys.CLAUDE && rebaseCwd
            ? Optional.of(ProjectFolder.of(canon.cwd()))
            : Optional.empty();
    return new Plan(rules, idMap, shift, prompt, project, header);
  }

  /** The path as a folder variable: absolute, not the root, no trailing {@code /}. */
  private static Optional<String> folder(Optional<String> path) {
    return path.map(p -> p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p)
        .filter(p -> !p.isEmpty());
  }

  private static boolean rebasable(String folder) {
    return folder.startsWith("/") && folder.length() > 1;
  }

  /**
   * The rules from recorded to canonical values: as many of sessionId, cwd and home as can be
   * rebased without a replay mistaking some other string for a canonical value (a tape that already
   * mentions {@code /workspace}, say, keeps its recorded cwd).
   */
  private StringRules rules(
      Optional<String> sessionId,
      Optional<String> cwd,
      Optional<String> home,
      Optional<String> prompt,
      Piece.Source source)
      throws IOException {
    // bit 1: sessionId, 2: cwd, 4: home; more rebased is better
    for (int mask : new int[] {7, 3, 5, 6, 1, 2, 4, 0}) {
      StringRules rules = new StringRules();
      if ((mask & 1) != 0 && sessionId.isPresent()) {
        rules.exact(sessionId.get(), canon.sessionId());
      }
      if ((mask & 2) != 0 && cwd.isPresent() && rebasable(cwd.get())) {
        if (keys == CliKeys.CLAUDE) {
          rules.path(cwd.get(), canon.cwd()); // the fake's rule for a Claude Code tape's cwd
        } else {
          rules.prefix(cwd.get(), canon.cwd());
        }
      }
      if ((mask & 4) != 0 && home.isPresent() && rebasable(home.get())) {
        rules.prefix(home.get(), canon.home());
      }
      if (roundTrips(rules, prompt, source)) {
        return rules;
      }
    }
    return new StringRules();
  }

  /** Whether replaying with {@code rules} reversed gives back every string they rewrite. */
  private boolean roundTrips(StringRules rules, Optional<String> prompt, Piece.Source source)
      throws IOException {
    if (rules.isEmpty()) {
      return true;
    }
    StringRules back = rules.reversed();
    // a string that may not come back starts with a canonical value, or is under a folder
    // rebased; a string equal to the session id always comes back
    List<byte[]> needles = new ArrayList<>(rules.needles(false));
    needles.addAll(back.needles(true));
    // or holds a folder rebased inside it, or the canonical one
    List<byte[]> inners = new ArrayList<>(rules.inTextNeedles());
    inners.addAll(back.inTextNeedles());
    // each needle watched by the scan: only the lines it marked may hold one
    boolean marked =
        needles.stream().allMatch(n -> watched.stream().anyMatch(w -> Arrays.equals(w, n)))
            && inners.stream()
                .allMatch(n -> watchedInText.stream().anyMatch(w -> Arrays.equals(w, n)));
    if (marked && mentions.isEmpty()) {
      return true;
    }
    boolean[] ok = {true};
    int[] line = {0};
    int[] message = {0};
    source.forEach(
        piece -> {
          if (piece.kind() != Piece.Kind.JSON && piece.kind() != Piece.Kind.IN) {
            return;
          }
          byte[] json = piece.bytes();
          boolean user = piece.kind() == Piece.Kind.JSON && userLines.get(line[0]++);
          boolean mentioned = !marked || mentions.get(message[0]++);
          if (!ok[0]
              || !mentioned
              || !(StringRules.mayOccurIn(json, needles)
                  || StringRules.mayOccurInText(json, inners))) {
            return;
          }
          LineRewrite.walk(
              json,
              (c, token, place) -> {
                if (token != JsonCursor.Token.STRING && token != JsonCursor.Token.FIELD_NAME) {
                  return;
                }
                if (!rules.mayMatch(json, c.tokenStart(), c.tokenEnd())
                    && !back.mayMatch(json, c.tokenStart(), c.tokenEnd())) {
                  return;
                }
                String raw = c.raw();
                String written =
                    LineRewrite.isPrompt(user, token, place, c, prompt)
                        ? raw
                        : rules.applyRaw(raw).orElse(raw);
                if (!back.applyRaw(written).orElse(written).equals(raw)) {
                  ok[0] = false;
                }
              });
        });
    return ok[0];
  }

  /** An argv element rebased like a JSON string, or the value of an {@code --option=value}. */
  private static String argvElement(String a, StringRules rules) {
    String whole = rules.applyText(a);
    if (!whole.equals(a)) {
      return whole;
    }
    int eq = a.indexOf('=');
    if (a.startsWith("--") && eq > 0) {
      return a.substring(0, eq + 1) + rules.applyText(a.substring(eq + 1));
    }
    return a;
  }

  /** A string value met in a walk: the cursor on it, its path, and its key ("" in an array). */
  private interface StringValue {
    void visit(JsonCursor c, List<Object> path, String key) throws JsonCursor.Malformed;
  }

  /** Walks the string values of {@code json}, each with its key as text, escapes decoded. */
  private static void walkStrings(byte[] json, StringValue visitor) {
    LineRewrite.walk(
        json,
        (c, token, place) -> {
          if (token != JsonCursor.Token.STRING) {
            return;
          }
          List<Object> path = place.path();
          Object last = path.isEmpty() ? "" : path.get(path.size() - 1);
          visitor.visit(c, path, last instanceof String name ? name : "");
        });
  }
}
