package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
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
public final class AcpServer {
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
  private final Map<String, Session> sessions = new LinkedHashMap<>();

  /** The agent's requests that wait for the client's response, by id, each with its turn. */
  private final Map<Long, Prompt> pending = new ConcurrentHashMap<>();

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

  /** One session of this agent. */
  private static final class Session {
    final String id;
    final String cwd;
    String mode = "agent";
    String model;
    final Set<String> alwaysAllowed = new HashSet<>();
    final List<String> history = new ArrayList<>();
    Prompt prompt;

    Session(String id, String cwd, String model) {
      this.id = id;
      this.cwd = cwd;
      this.model = model;
    }
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
    Prompt prompt = id >= 0 ? pending.remove(id) : null;
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
      Session session = sessions.get(m.params().get("sessionId").asText());
      if (session != null && session.prompt != null) {
        session.prompt.cancel();
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
        Session session = session(id, params);
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
        Session session = session(id, params);
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
        Session session = session(id, params);
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
    Session session =
        new Session(
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
    Session session = sessions.get(sessionId);
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
    for (Session session : sessions.values()) {
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
    Session session = session(id, params);
    if (session == null) {
      return;
    }
    if (session.prompt != null && !session.prompt.done.get()) {
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
    Prompt prompt = new Prompt(session, id, text.toString(), turns + 1);
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
    session.prompt = prompt;
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

  private Session session(String id, JsonSlice params) {
    String sessionId = params.get("sessionId").asText();
    Session session = sessions.get(sessionId);
    if (session == null) {
      invalidParams(id, "unknown sessionId \"" + sessionId + "\"; start one with session/new");
    }
    return session;
  }

  private void modeUpdate(Session session) {
    sendUpdate(
        session,
        "{\"sessionUpdate\":\"current_mode_update\",\"currentModeId\":"
            + JsonText.quote(session.mode)
            + "}");
  }

  private void sendUpdate(Session session, String update) {
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

  private void writeErr(String text) {
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
  private void save(Session session) {
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

  private Session restore(String sessionId, String loadCwd) {
    Optional<Path> file = sessionFile(sessionId);
    if (file.isEmpty() || !Files.isRegularFile(file.get())) {
      return null;
    }
    try {
      List<String> lines = Files.readAllLines(file.get(), StandardCharsets.UTF_8);
      byte[] head = lines.get(0).getBytes(StandardCharsets.UTF_8);
      JsonSlice first = JsonSlice.of(head, 0, head.length);
      Session session =
          new Session(sessionId, first.get("cwd").asText(loadCwd), first.get("model").asText());
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

  /**
   * One {@code session/prompt}, the ACP face of a {@link Turn}: the tape's events as {@code
   * session/update}s (or an ACP tape's turn, in lockstep), and the prompt's response, which it
   * sends exactly once. Its requests to the client (permission requests) are its own: their
   * responses, and a cancel of its session, reach this prompt and no other.
   */
  private final class Prompt implements Turn.Face, AcpRendering.Asker, AcpReplay.TurnClient {
    final Session session;
    final String requestId;
    final String prompt;
    final int number;
    final AtomicBoolean done = new AtomicBoolean();
    final ByteArrayOutputStream turnStderr = new ByteArrayOutputStream();
    volatile AcpRendering rendering;

    /** This turn's requests that wait for the client's response, by id. */
    private final Map<Long, CompletableFuture<AcpWire.Message>> replies = new ConcurrentHashMap<>();

    /** The prompt's response, sent once the turn is in the journal and the session saved. */
    String response;

    volatile AcpReplay replay;

    /** The turn's journal line, which lists the client's permission answers. */
    private Journal journal;

    Prompt(Session session, String requestId, String prompt, int number) {
      this.session = session;
      this.requestId = requestId;
      this.prompt = prompt;
      this.number = number;
    }

    /**
     * The client cancelled this turn's session: the prompt is answered {@code cancelled} at once,
     * and this turn's requests stop waiting (the agent takes them as answered {@code cancelled}).
     */
    void cancel() {
      AcpRendering r = rendering;
      if (r != null) {
        r.cancel();
      }
      AcpReplay p = replay;
      if (p != null) {
        p.cancel();
      }
      // done first: a request registered from now on sees it and does not wait
      respond(AcpWire.result(requestId, "{\"stopReason\":\"cancelled\"}"));
      for (Long id : replies.keySet()) {
        settle(id, null);
      }
    }

    /** The client's response to this turn's request {@code id}. */
    void answered(long id, AcpWire.Message reply) {
      CompletableFuture<AcpWire.Message> waiting = replies.get(id);
      if (waiting != null) {
        waiting.complete(reply);
      }
    }

    private void settle(long id, AcpWire.Message reply) {
      pending.remove(id, this);
      answered(id, reply);
    }

    /** Sends the prompt's response, if none was sent yet; true if this call sent it. */
    boolean respond(String json) {
      if (done.compareAndSet(false, true)) {
        wire.send(json);
        return true;
      }
      return false;
    }

    /** Plays the turn on its thread, whatever happens: the prompt is answered unless it hangs. */
    public void run() {
      try {
        answer();
      } catch (OutOfMemoryError e) {
        fail(Turn.outOfMemory(e));
      } catch (RuntimeException | StackOverflowError e) {
        fail("internal error (" + e + "); please report it, with the tape");
      } finally {
        playing.decrementAndGet(); // its thread ends: a cancelled turn's may end after its answer
      }
    }

    private void fail(String error) {
      writeErr("agentdouble: " + error + "\n");
      respond(
          AcpWire.error(
              requestId,
              CursorAcp.INTERNAL_ERROR,
              "Internal error",
              "{\"details\":" + JsonText.quote("agentdouble: " + error) + "}"));
    }

    private void answer() {
      long origin = System.nanoTime();
      synchronized (session.history) {
        session.history.add(
            "{\"sessionUpdate\":\"user_message_chunk\",\"content\":{\"type\":\"text\",\"text\":"
                + JsonText.quote(prompt)
                + "}}");
      }
      journal = new Journal(pid, System.currentTimeMillis(), argv, session.cwd, env);
      journal.sessionId = session.id;
      journal.keepPermissionAnswers();
      InvocationRecord invocation =
          Turn.invocation(
              InvocationRecord.CLI_CURSOR,
              Optional.of(session.id),
              argv,
              prompt,
              session.cwd,
              OutputFormat.ACP,
              Optional.ofNullable(session.model),
              Optional.empty(),
              pid,
              env);
      Turn turn = new Turn(env, settings, invocation, OutputFormat.ACP, journal, this, origin);
      Ending ending;
      try {
        ending = turn.run();
      } catch (RuntimeException e) {
        ending = turn.failed("internal error (" + e + "); please report it, with the tape", true);
      }
      save(session);
      if (response != null) {
        respond(response);
      }
      if (ending instanceof Frame.Kill) {
        fatal = ending;
        wire.wake();
      }
      // a hang: only the client's session/cancel answers the prompt, and needs no thread to
    }

    @Override
    public Ending admit(Turn turn) {
      return null; // no workspace trust over ACP
    }

    @Override
    public Ending transform(Turn turn) {
      Header header = turn.header();
      if (header.format() == OutputFormat.ACP) {
        return null; // played in lockstep with the client, as recorded
      }
      if (header.format() != OutputFormat.STREAM_JSON) {
        throw new TapeException(
            turn.source().name(),
            1,
            "recorded in "
                + header.format().cliName()
                + ", which cannot be played over ACP; record the run with --output-format"
                + " stream-json, or record the ACP session itself");
      }
      turn.journal().renderedFrom = header.format().cliName();
      AcpRendering r = new AcpRendering(wire, session.id, this, this::remember);
      rendering = r;
      turn.transform(r);
      return null;
    }

    @Override
    public LiveValues live(Turn turn) {
      return new LiveValues(
          Optional.of(session.id),
          Optional.of(session.cwd),
          Optional.empty(),
          Optional.of(prompt),
          OptionalLong.empty(),
          Optional.empty());
    }

    @Override
    public Ending play(Turn turn) throws IOException, Gates.NotReleased {
      try {
        return turn.header().format() == OutputFormat.ACP ? replay(turn) : render(turn);
      } catch (AcpRendering.Cancelled e) {
        response = AcpWire.result(requestId, "{\"stopReason\":\"cancelled\"}");
        return new Frame.Exit(0, ExitStatus.OK);
      } catch (AcpPermission.Failed e) {
        // the client's answer, not the fake, ended the turn
        return turn.failed(e.getMessage(), false);
      } catch (AcpRendering.Finished e) {
        response = AcpWire.result(requestId, "{\"stopReason\":\"end_turn\"}");
        return new Frame.Exit(0, ExitStatus.OK);
      }
    }

    /** An ACP tape's first turn, in lockstep with the client. */
    private Ending replay(Turn turn) throws IOException, Gates.NotReleased {
      AcpReplay turnReplay =
          new AcpReplay(
              turn.source(),
              turn.timing(),
              turn.originNanos(),
              wire,
              AcpServer.this::writeErr,
              turn.gates(),
              pid,
              this,
              session.id);
      replay = turnReplay;
      Ending ending = turnReplay.play(requestId);
      Optional<String> recorded = turnReplay.promptResponse();
      if (recorded.isPresent()) {
        response = recorded.get();
      } else if (ending instanceof Frame.Exit exit) {
        throw new TapeException(
            turn.source().name(),
            1,
            "its turn ends with exit "
                + exit.code()
                + " before it answers session/prompt; record the turn to its response");
      }
      return ending;
    }

    /** A stream-json tape's events as {@code session/update}s, its ending as the response. */
    private Ending render(Turn turn) throws IOException, Gates.NotReleased {
      Ending ending = turn.play(wire.stream(), new TeeStream(stderr, turnStderr));
      if (ending instanceof Frame.Exit exit) {
        if (exit.code() == 0) {
          response = AcpWire.result(requestId, "{\"stopReason\":\"end_turn\"}");
        } else {
          String details = turnStderr.toString(StandardCharsets.UTF_8).strip();
          if (details.isEmpty()) {
            details = rendering.error().orElse("");
          }
          response =
              AcpWire.error(
                  requestId,
                  CursorAcp.INTERNAL_ERROR,
                  "Internal error",
                  "{\"details\":"
                      + JsonText.quote(details.isEmpty() ? "exit " + exit.code() : details)
                      + "}");
        }
      }
      return ending;
    }

    @Override
    public void writeErr(String text) {
      AcpServer.this.writeErr(text);
    }

    /** Said on stderr and in the answer, never a made-up success. */
    @Override
    public void refuse(String problem) {
      writeErr("agentdouble: " + problem + "\n");
      response =
          AcpWire.error(
              requestId,
              CursorAcp.INTERNAL_ERROR,
              "Internal error",
              "{\"details\":" + JsonText.quote("agentdouble: " + problem) + "}");
    }

    private void remember(String update) {
      synchronized (session.history) {
        session.history.add(update);
      }
    }

    @Override
    public AcpPermission.Answer ask(String toolCall, String program) {
      if (args.force()) {
        // --force/--yolo: Cursor runs commands without asking
        return new AcpPermission.Answer(CursorAcp.ALLOW_ONCE, Optional.empty());
      }
      if (session.alwaysAllowed.contains(program)) {
        return new AcpPermission.Answer(CursorAcp.ALLOW_ALWAYS, Optional.empty());
      }
      long id = request();
      wire.send(
          AcpWire.request(
              id,
              "session/request_permission",
              "{\"sessionId\":"
                  + JsonText.quote(session.id)
                  + ",\"toolCall\":"
                  + toolCall
                  + ",\"options\":"
                  + CursorAcp.PERMISSION_OPTIONS
                  + "}"));
      AcpPermission.Answer answer = permission(id, response(id));
      if (answer.name().equals(CursorAcp.ALLOW_ALWAYS)) {
        session.alwaysAllowed.add(program);
      }
      return answer;
    }

    @Override
    public long request() {
      long id = nextRequestId.getAndIncrement();
      replies.put(id, new CompletableFuture<>());
      pending.put(id, this);
      if (done.get()) {
        settle(id, null); // cancelled already: nothing will answer it
      }
      return id;
    }

    @Override
    public AcpWire.Message response(long id) {
      CompletableFuture<AcpWire.Message> waiting = replies.get(id);
      try {
        while (true) {
          try {
            return waiting.get();
          } catch (InterruptedException e) {
            // a reply or a cancel ends this wait
          } catch (ExecutionException e) {
            return null;
          }
        }
      } finally {
        replies.remove(id);
        pending.remove(id, this);
      }
    }

    @Override
    public AcpPermission.Answer permission(long id, AcpWire.Message reply) {
      AcpPermission.Answer answer =
          reply == null ? AcpPermission.CANCELLED_BY_THE_CLIENT : AcpPermission.read(id, reply);
      journal.permissionAnswer(answer.name());
      String url = env.get(FakeEnvironment.URL);
      if (url != null && !url.isBlank()) {
        ControlClient.permission(url, env.get(ControlSecret.ENV), pid, number, answer.name());
      }
      if (answer.failure().isPresent()) {
        throw new AcpPermission.Failed(answer.failure().get());
      }
      return answer;
    }
  }

  /** Writes to two streams: the process's stderr and what the turn's error answer quotes. */
  private static final class TeeStream extends OutputStream {
    private final OutputStream first;
    private final ByteArrayOutputStream second;

    TeeStream(OutputStream first, ByteArrayOutputStream second) {
      this.first = first;
      this.second = second;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      synchronized (first) {
        first.write(b, off, len);
      }
      second.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      first.flush();
    }
  }
}
