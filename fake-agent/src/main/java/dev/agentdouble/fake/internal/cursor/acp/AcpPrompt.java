package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.cursor.CursorAcp;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One {@code session/prompt}, the ACP face of a {@link Turn}: the tape's events as {@code
 * session/update}s (or an ACP tape's turn, in lockstep), and the prompt's response, which it sends
 * exactly once. Its requests to the client (permission requests) are its own: their responses, and
 * a cancel of its session, reach this prompt and no other.
 */
final class AcpPrompt implements Turn.Face, AcpRendering.Asker, AcpReplay.TurnClient {
  private final Agent server;

  /** What a prompt needs of the agent that plays it. */
  interface Agent {
    Map<String, String> env();

    FakeEnvironment settings();

    CliArgs args();

    List<String> argv();

    long pid();

    OutputStream stderr();

    AcpWire wire();

    /** A new id for a request of {@code prompt}'s to the client, whose response reaches it. */
    long register(AcpPrompt prompt);

    /** The request {@code id} of {@code prompt}'s is answered or given up. */
    void unregister(long id, AcpPrompt prompt);

    /** A turn's thread ends. */
    void turnEnded();

    /** Says {@code text} on the agent's stderr. */
    void writeErr(String text);

    /** Saves {@code session}'s history, for a later {@code session/load}. */
    void save(AcpSession session);

    /** The process must end as {@code ending} says (a tape's kill), at once. */
    void fatal(Ending ending);
  }

  final AcpSession session;
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

  AcpPrompt(Agent server, AcpSession session, String requestId, String prompt, int number) {
    this.server = server;
    this.session = session;
    this.requestId = requestId;
    this.prompt = prompt;
    this.number = number;
  }

  /**
   * The client cancelled this turn's session: the prompt is answered {@code cancelled} at once, and
   * this turn's requests stop waiting (the agent takes them as answered {@code cancelled}).
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
    server.unregister(id, this);
    answered(id, reply);
  }

  /** Sends the prompt's response, if none was sent yet; true if this call sent it. */
  boolean respond(String json) {
    if (done.compareAndSet(false, true)) {
      server.wire().send(json);
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
      server.turnEnded(); // its thread ends: a cancelled turn's may end after its answer
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
    journal =
        new Journal(
            server.pid(), System.currentTimeMillis(), server.argv(), session.cwd, server.env());
    journal.sessionId = session.id;
    journal.keepPermissionAnswers();
    InvocationRecord invocation =
        Turn.invocation(
            InvocationRecord.CLI_CURSOR,
            Optional.of(session.id),
            server.argv(),
            prompt,
            session.cwd,
            OutputFormat.ACP,
            Optional.ofNullable(session.model),
            Optional.empty(),
            server.pid(),
            server.env());
    Turn turn =
        new Turn(
            server.env(), server.settings(), invocation, OutputFormat.ACP, journal, this, origin);
    Ending ending;
    try {
      ending = turn.run();
    } catch (RuntimeException e) {
      ending = turn.failed("internal error (" + e + "); please report it, with the tape", true);
    }
    server.save(session);
    if (response != null) {
      respond(response);
    }
    if (ending instanceof Frame.Kill) {
      server.fatal(ending);
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
    AcpRendering r = new AcpRendering(server.wire(), session.id, this, this::remember);
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
            server.wire(),
            server::writeErr,
            turn.gates(),
            server.pid(),
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
    Ending ending = turn.play(server.wire().stream(), new TeeStream(server.stderr(), turnStderr));
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
    server.writeErr(text);
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
    if (server.args().force()) {
      // --force/--yolo: Cursor runs commands without asking
      return new AcpPermission.Answer(CursorAcp.ALLOW_ONCE, Optional.empty());
    }
    if (session.alwaysAllowed.contains(program)) {
      return new AcpPermission.Answer(CursorAcp.ALLOW_ALWAYS, Optional.empty());
    }
    long id = request();
    server
        .wire()
        .send(
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
    long id = server.register(this);
    replies.put(id, new CompletableFuture<>());
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
      server.unregister(id, this);
    }
  }

  @Override
  public AcpPermission.Answer permission(long id, AcpWire.Message reply) {
    AcpPermission.Answer answer =
        reply == null ? AcpPermission.CANCELLED_BY_THE_CLIENT : AcpPermission.read(id, reply);
    journal.permissionAnswer(answer.name());
    String url = server.env().get(FakeEnvironment.URL);
    if (url != null && !url.isBlank()) {
      ControlClient.permission(
          url, server.env().get(ControlSecret.ENV), server.pid(), number, answer.name());
    }
    if (answer.failure().isPresent()) {
      throw new AcpPermission.Failed(answer.failure().get());
    }
    return answer;
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
