package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * {@code agent acp}: an ACP agent on stdio that plays Cursor. The protocol's own requests ({@code
 * initialize}, {@code authenticate}, {@code session/new}, {@code session/load}, {@code
 * session/list}, {@code session/set_mode}, {@code session/set_config_option}, {@code
 * session/set_model}) are answered as Cursor answers them ({@link CursorAcp}); each {@code
 * session/prompt} is one turn answered by a tape chosen as a print-mode invocation's is, and played
 * on its own thread, so the client's {@code session/cancel} and its answers to permission requests
 * reach it while it runs. A cancel and an answer reach the one turn they belong to: the agent's
 * requests are numbered by the agent and each is kept with its turn until it is answered or the
 * turn ends; responses to anything else are dropped. At most {@link #MAX_PLAYING_TURNS} turns are
 * played at once (a turn that hangs holds no thread). When stdin ends the agent exits 0, as Cursor
 * does when its client goes.
 */
public final class AcpServer implements AcpPrompt.Agent {
  private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9._-]{1,128}");

  /**
   * The most turns played at once, each on a thread: far more than an editor or an orchestrator
   * runs in one agent; beyond it a prompt is refused (-32603) until one ends.
   */
  static final int MAX_PLAYING_TURNS = 128;

  private final Map<String, String> env;
  private final Profile profile;
  private final FakeEnvironment settings;
  private final CliArgs args;
  private final List<String> argv;
  private final String cwd;
  private final OutputStream stderr;
  private final long pid;
  private final AcpWire wire;
  private final Map<String, AcpSession> sessions = new LinkedHashMap<>();

  /** The last prompt of each session, by the session's id: the one a cancel reaches. */
  private final Map<String, AcpPrompt> prompts = new HashMap<>();

  /** The agent's requests that wait for the client's response, by id, each with its turn. */
  private final Map<Long, AcpPrompt> pending = new ConcurrentHashMap<>();

  private final AtomicLong nextRequestId = new AtomicLong();
  private final AtomicInteger playing = new AtomicInteger();
  private volatile Ending fatal;
  private int turns;
  private boolean unsolicitedSaid;

  public AcpServer(
      Map<String, String> env,
      Profile profile,
      FakeEnvironment settings,
      CliArgs args,
      List<String> argv,
      String cwd,
      OutputStream stdout,
      OutputStream stderr,
      long pid) {
    this.env = env;
    this.profile = profile;
    this.settings = settings;
    this.args = args;
    this.argv = List.copyOf(argv);
    this.cwd = cwd;
    this.stderr = stderr;
    this.pid = pid;
    this.wire = new AcpWire(stdout);
  }

  /** Serves the client until stdin ends; returns how the process ends. */
  public Ending run(InputStream stdin) throws IOException {
    Owner.watchBeforeReadingStdin();
    Optional<AcpReplay> replay = AcpReplay.configured(env, settings, wire, this::writeErr, pid);
    wire.listen(stdin);
    if (replay.isPresent()) {
      return replay.get().play();
    }
    while (true) {
      AcpWire.Message m = wire.take();
      if (fatal != null) {
        return fatal;
      }
      switch (m.kind()) {
        case END -> {
          return new Frame.Exit(0, ExitStatus.OK);
        }
        case FAILED -> {
          writeErr(m.problem());
          return new Frame.Exit(0, ExitStatus.OWN_PROBLEM);
        }
        case INVALID ->
            wire.send(
                AcpWire.error(
                    null,
                    m.parseError() ? -32700 : -32600,
                    m.parseError() ? "Parse error" : "Invalid Request",
                    "{\"details\":" + JsonText.quote(m.problem()) + "}"));
        case RESPONSE -> answered(m);
        case NOTIFICATION -> notified(m);
        case REQUEST -> requested(m);
        case WAKE -> {
          // a turn ended the process (a crash): checked above
        }
      }
    }
  }

  /**
   * A response from the client: it goes to the turn whose request it answers. One to a request
   * already settled (a cancelled turn's, answered {@code cancelled} afterwards as ACP asks) is
   * dropped; one to an id this agent never sent is dropped too, said once on stderr. None is kept.
   */
  private void answered(AcpWire.Message m) {
    String raw = m.id();
    long id = -1;
    try {
      id = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      // not an id of this agent's
    }
    AcpPrompt prompt = id >= 0 ? pending.remove(id) : null;
    if (prompt != null) {
      prompt.answered(id, m);
    } else if ((id < 0 || id >= nextRequestId.get()) && !unsolicitedSaid) {
      unsolicitedSaid = true;
      writeErr(
          "agentdouble: acp: a response to id "
              + (raw.length() > 40 ? raw.substring(0, 40) + "..." : raw)
              + ", which the agent never sent, is ignored, as are any more such\n");
    }
  }

  private void notified(AcpWire.Message m) {
    if (m.method().equals("session/cancel")) {
      AcpSession session = sessions.get(m.params().get("sessionId").asText());
      AcpPrompt prompt = session == null ? null : prompts.get(session.id);
      if (prompt != null) {
        prompt.cancel();
      }
    }
  }

  private void requested(AcpWire.Message m) {
    String id = m.id();
    JsonSlice params = m.params();
    switch (m.method()) {
      case "initialize" -> wire.send(AcpWire.result(id, CursorAcp.INITIALIZE_RESULT));
      case "authenticate" -> {
        if (!params.get("methodId").asText().equals(CursorAcp.AUTH_METHOD)) {
          invalidParams(id, "unknown methodId; Cursor offers " + CursorAcp.AUTH_METHOD);
        } else if (profile.loggedIn()) {
          wire.send(AcpWire.result(id, "{}"));
        } else {
          notLoggedIn(id);
        }
      }
      case "session/new" -> newSession(id, params);
      case "session/load" -> loadSession(id, params);
      case "session/list" -> listSessions(id);
      case "session/set_mode" -> {
        AcpSession session = session(id, params);
        if (session == null) {
          return;
        }
        String mode = params.get("modeId").asText();
        if (!CursorAcp.MODES.contains(mode)) {
          invalidParams(id, "unknown modeId \"" + mode + "\"; one of " + CursorAcp.MODES);
          return;
        }
        session.mode = mode;
        modeUpdate(session);
        wire.send(AcpWire.result(id, "{}"));
      }
      case "session/set_config_option" -> {
        AcpSession session = session(id, params);
        if (session == null) {
          return;
        }
        String config = params.get("configId").asText();
        String value = params.get("value").asText();
        if (config.equals("mode") && CursorAcp.MODES.contains(value)) {
          session.mode = value;
          modeUpdate(session);
        } else if (config.equals("model") && !value.isEmpty()) {
          session.model = value;
        } else {
          invalidParams(id, "configId must be mode or model, with one of its options");
          return;
        }
        wire.send(
            AcpWire.result(
                id,
                "{\"configOptions\":"
                    + CursorAcp.configOptions(session.mode, session.model)
                    + "}"));
      }
      case "session/set_model" -> {
        AcpSession session = session(id, params);
        if (session != null) {
          session.model = params.get("modelId").asText(session.model);
          wire.send(AcpWire.result(id, "{}"));
        }
      }
      case "session/prompt" -> prompt(id, params);
      default ->
          wire.send(
              AcpWire.error(
                  id,
                  -32601,
                  CursorAcp.methodNotFound(m.method()),
                  "{\"method\":" + JsonText.quote(m.method()) + "}"));
    }
  }

  private void newSession(String id, JsonSlice params) {
    if (!profile.loggedIn()) {
      notLoggedIn(id);
      return;
    }
    String dir = params.get("cwd").asText();
    if (!dir.startsWith("/")) {
      invalidParams(id, "cwd must be an absolute path");
      return;
    }
    AcpSession session =
        new AcpSession(
            Turn.freshUuid(),
            dir,
            args.model().map(CursorAcp::modelVariant).orElse(CursorAcp.DEFAULT_MODEL));
    sessions.put(session.id, session);
    wire.send(
        AcpWire.result(id, CursorAcp.newSessionResult(session.id, session.mode, session.model)));
  }

  /**
   * {@code session/load}: a session of this process, or one an earlier fake saved in {@code
   * AGENTDOUBLE_STATE_DIR}; its history is sent again as {@code session/update}s, then the answer.
   */
  private void loadSession(String id, JsonSlice params) {
    if (!profile.loggedIn()) {
      notLoggedIn(id);
      return;
    }
    String sessionId = params.get("sessionId").asText();
    AcpSession session = sessions.get(sessionId);
    if (session == null && SESSION_ID.matcher(sessionId).matches()) {
      session = restore(sessionId, params.get("cwd").asText(cwd));
    }
    if (session == null) {
      wire.send(
          AcpWire.error(
              id,
              CursorAcp.INVALID_PARAMS,
              "Invalid params",
              "{\"message\":" + JsonText.quote(CursorAcp.sessionNotFound(sessionId)) + "}"));
      return;
    }
    sessions.put(session.id, session);
    for (String update : session.history) {
      sendUpdate(session, update);
    }
    String result = CursorAcp.newSessionResult(session.id, session.mode, session.model);
    // the same as session/new gives, without the id the client already has
    wire.send(AcpWire.result(id, "{" + result.substring(result.indexOf(",\"modes\"") + 1)));
  }

  private void listSessions(String id) {
    StringBuilder sb = new StringBuilder("{\"sessions\":[");
    boolean first = true;
    for (AcpSession session : sessions.values()) {
      sb.append(first ? "" : ",")
          .append("{\"sessionId\":")
          .append(JsonText.quote(session.id))
          .append(",\"cwd\":")
          .append(JsonText.quote(session.cwd))
          .append('}');
      first = false;
    }
    wire.send(AcpWire.result(id, sb.append("]}").toString()));
  }

  private void prompt(String id, JsonSlice params) {
    AcpSession session = session(id, params);
    if (session == null) {
      return;
    }
    AcpPrompt last = prompts.get(session.id);
    if (last != null && !last.done.get()) {
      wire.send(
          AcpWire.error(
              id,
              CursorAcp.INTERNAL_ERROR,
              "Internal error",
              "{\"details\":\"a turn of this session is still running\"}"));
      return;
    }
    StringBuilder text = new StringBuilder();
    for (JsonSlice block : params.get("prompt").elements()) {
      if (block.get("type").asText().equals("text")) {
        text.append(text.length() == 0 ? "" : "\n").append(block.get("text").asText());
      }
    }
    if (playing.get() >= MAX_PLAYING_TURNS) {
      refuse(
          id,
          MAX_PLAYING_TURNS
              + " turns are being played at once, the most this agent plays; let one end or"
              + " cancel it (session/cancel) first");
      return;
    }
    AcpPrompt prompt = new AcpPrompt(this, session, id, text.toString(), turns + 1);
    Thread thread = new Thread(prompt::run, "agentdouble-acp-turn-" + (turns + 1));
    thread.setDaemon(true);
    playing.incrementAndGet();
    try {
      thread.start();
    } catch (OutOfMemoryError e) {
      playing.decrementAndGet();
      refuse(id, Turn.outOfMemory(e));
      return;
    }
    turns++;
    prompts.put(session.id, prompt);
  }

  @Override
  public Map<String, String> env() {
    return env;
  }

  @Override
  public FakeEnvironment settings() {
    return settings;
  }

  @Override
  public CliArgs args() {
    return args;
  }

  @Override
  public List<String> argv() {
    return argv;
  }

  @Override
  public long pid() {
    return pid;
  }

  @Override
  public OutputStream stderr() {
    return stderr;
  }

  @Override
  public AcpWire wire() {
    return wire;
  }

  @Override
  public long register(AcpPrompt prompt) {
    long id = nextRequestId.getAndIncrement();
    pending.put(id, prompt);
    return id;
  }

  @Override
  public void unregister(long id, AcpPrompt prompt) {
    pending.remove(id, prompt);
  }

  @Override
  public void turnEnded() {
    playing.decrementAndGet();
  }

  @Override
  public void fatal(Ending ending) {
    fatal = ending;
    wire.wake();
  }

  /** A prompt the agent cannot play: said on stderr, and answered -32603 with the same words. */
  private void refuse(String id, String problem) {
    writeErr("agentdouble: " + problem + "\n");
    wire.send(
        AcpWire.error(
            id,
            CursorAcp.INTERNAL_ERROR,
            "Internal error",
            "{\"details\":" + JsonText.quote("agentdouble: " + problem) + "}"));
  }

  private AcpSession session(String id, JsonSlice params) {
    String sessionId = params.get("sessionId").asText();
    AcpSession session = sessions.get(sessionId);
    if (session == null) {
      invalidParams(id, "unknown sessionId \"" + sessionId + "\"; start one with session/new");
    }
    return session;
  }

  private void modeUpdate(AcpSession session) {
    sendUpdate(
        session,
        "{\"sessionUpdate\":\"current_mode_update\",\"currentModeId\":"
            + JsonText.quote(session.mode)
            + "}");
  }

  private void sendUpdate(AcpSession session, String update) {
    wire.send(
        AcpWire.notification(
            "session/update",
            "{\"sessionId\":" + JsonText.quote(session.id) + ",\"update\":" + update + "}"));
  }

  private void notLoggedIn(String id) {
    wire.send(
        AcpWire.error(
            id,
            CursorAcp.INTERNAL_ERROR,
            "Internal error",
            "{\"details\":" + JsonText.quote(CursorAcp.AUTH_FAILURE_DETAILS) + "}"));
  }

  private void invalidParams(String id, String details) {
    wire.send(
        AcpWire.error(
            id, -32602, "Invalid params", "{\"details\":" + JsonText.quote(details) + "}"));
  }

  @Override
  public void writeErr(String text) {
    synchronized (stderr) {
      try {
        stderr.write(text.getBytes(StandardCharsets.UTF_8));
        stderr.flush();
      } catch (IOException e) {
        // nobody reads stderr
      }
    }
  }

  /** The state folder's file for a session, when there is a state folder. */
  private Optional<Path> sessionFile(String sessionId) {
    String dir = env.get(FakeEnvironment.STATE_DIR);
    if (dir == null || dir.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(dir, "acp-sessions", sessionId + ".ndjson"));
  }

  /** Saves a session's history (its first line: cwd, mode, model) for a later session/load. */
  @Override
  public void save(AcpSession session) {
    Optional<Path> file = sessionFile(session.id);
    if (file.isEmpty()) {
      return;
    }
    StringBuilder sb = new StringBuilder();
    sb.append("{\"cwd\":")
        .append(JsonText.quote(session.cwd))
        .append(",\"mode\":")
        .append(JsonText.quote(session.mode))
        .append(",\"model\":")
        .append(JsonText.quote(session.model))
        .append("}\n");
    synchronized (session.history) {
      for (String update : session.history) {
        sb.append(update).append('\n');
      }
    }
    try {
      Files.createDirectories(file.get().getParent());
      Path temp = file.get().resolveSibling(session.id + ".tmp" + pid);
      Files.writeString(temp, sb, StandardCharsets.UTF_8);
      Files.move(temp, file.get(), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      writeErr(
          "agentdouble: "
              + FakeEnvironment.STATE_DIR
              + ": cannot save ACP session "
              + session.id
              + ": "
              + e.getMessage()
              + "\n");
    }
  }

  private AcpSession restore(String sessionId, String loadCwd) {
    Optional<Path> file = sessionFile(sessionId);
    if (file.isEmpty() || !Files.isRegularFile(file.get())) {
      return null;
    }
    try {
      List<String> lines = Files.readAllLines(file.get(), StandardCharsets.UTF_8);
      byte[] head = lines.get(0).getBytes(StandardCharsets.UTF_8);
      JsonSlice first = JsonSlice.of(head, 0, head.length);
      AcpSession session =
          new AcpSession(sessionId, first.get("cwd").asText(loadCwd), first.get("model").asText());
      session.mode = first.get("mode").asText("agent");
      session.history.addAll(lines.subList(1, lines.size()));
      return session;
    } catch (IOException | RuntimeException e) {
      writeErr(
          "agentdouble: "
              + file.get()
              + ": cannot read the saved ACP session: "
              + e.getMessage()
              + "\n");
      return null;
    }
  }
}
