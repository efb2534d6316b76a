package dev.agentdouble.examples.acp;

import com.agentclientprotocol.sdk.client.AcpAsyncClient;
import com.agentclientprotocol.sdk.client.AcpClient;
import com.agentclientprotocol.sdk.json.JacksonAcpJsonMapper;
import com.agentclientprotocol.sdk.spec.AcpClientSession;
import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.AuthMethod;
import com.agentclientprotocol.sdk.spec.AcpSchema.PermissionOption;
import com.agentclientprotocol.sdk.spec.AcpSchema.PermissionOptionKind;
import com.agentclientprotocol.sdk.spec.AcpSchema.RequestPermissionRequest;
import com.agentclientprotocol.sdk.spec.AcpSchema.RequestPermissionResponse;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A client of {@code agent acp}, Cursor's ACP server, on the official ACP Java SDK: it starts the
 * agent, initializes, authenticates with {@value #CURSOR_LOGIN}, and opens sessions ({@link
 * #newSession}, {@link #loadSession}) whose prompts are turns ({@link AgentSession#start}). The
 * agent's permission requests are answered by the {@link PermissionPolicy} given to the builder.
 * Every wait is bounded; an agent that dies is reported as {@link AcpAgentException.Kind#DIED}.
 * Closing it ends the agent.
 *
 * <pre>{@code
 * try (CursorAcpClient client = CursorAcpClient.builder(List.of("agent", "acp")).connect()) {
 *   TurnResult turn = client.newSession(Path.of("/home/dev/shop")).prompt("Run the tests");
 * }
 * }</pre>
 */
public final class CursorAcpClient implements AutoCloseable {
  /** Cursor's authentication method: the login {@code agent login} made. */
  public static final String CURSOR_LOGIN = "cursor_login";

  private final AgentProcess agent;
  private final AcpAsyncClient acp;
  private final ExecutorService askThreads;
  private final PermissionPolicy policy;
  private final Duration requestTimeout;
  private final Duration turnTimeout;
  private final Map<String, AgentSession> sessions = new ConcurrentHashMap<>();
  private final AgentLink link = new Link();
  private volatile AcpSchema.InitializeResponse initialized;

  private CursorAcpClient(Builder builder) {
    this.policy = builder.policy;
    this.requestTimeout = builder.requestTimeout;
    this.turnTimeout = builder.turnTimeout;
    try {
      this.agent =
          AgentProcess.start(
              builder.command, builder.environment, new JacksonAcpJsonMapper(Updates.MAPPER));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + String.join(" ", builder.command), e);
    }
    // the policy may block (a dialog): it runs on threads of its own, never the reader's
    this.askThreads =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "acp-permission-" + agent.pid());
              t.setDaemon(true);
              return t;
            });
    Scheduler ask = Schedulers.fromExecutorService(askThreads);
    this.acp =
        AcpClient.async(agent)
            // the SDK's timeout applies to every request, a turn's too: the client's own waits
            // (requestTimeout, turnTimeout) are the ones that count
            .requestTimeout(turnTimeout.plus(requestTimeout))
            .clientCapabilities(new AcpSchema.ClientCapabilities())
            // not sessionUpdateConsumer: it drops updates of kinds the SDK does not know
            .notificationHandler(AcpSchema.METHOD_SESSION_UPDATE, this::updated)
            .requestPermissionHandler(
                request -> Mono.fromCallable(() -> answer(request)).subscribeOn(ask))
            .build();
  }

  /** A client that starts {@code command}, e.g. {@code [agent, acp]}. */
  public static Builder builder(List<String> command) {
    return new Builder(command);
  }

  /** How to start the agent and how long to wait for it. */
  public static final class Builder {
    private final List<String> command;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private PermissionPolicy policy = PermissionPolicy.rejectOnce();
    private Duration requestTimeout = Duration.ofSeconds(30);
    private Duration turnTimeout = Duration.ofMinutes(10);

    private Builder(List<String> command) {
      if (command.isEmpty()) {
        throw new IllegalArgumentException("command must name the agent's executable");
      }
      this.command = List.copyOf(command);
    }

    /** An environment variable for the agent, e.g. {@code CURSOR_API_KEY}. */
    public Builder environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    /** Environment variables for the agent, added to this JVM's. */
    public Builder environment(Map<String, String> variables) {
      environment.putAll(variables);
      return this;
    }

    /** How permission requests are answered (default: {@link PermissionPolicy#rejectOnce()}). */
    public Builder permissions(PermissionPolicy policy) {
      this.policy = policy;
      return this;
    }

    /** How long initialize, authenticate and the session requests may take (default 30 s). */
    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = positive(timeout);
      return this;
    }

    /** How long a turn may take, from its prompt to its end (default 10 minutes). */
    public Builder turnTimeout(Duration timeout) {
      this.turnTimeout = positive(timeout);
      return this;
    }

    /**
     * Starts the agent, initializes the connection and authenticates.
     *
     * @throws AcpAgentException {@link AcpAgentException.Kind#AUTH_FAILED} when the account is not
     *     logged in; the agent is stopped then
     */
    public CursorAcpClient connect() throws InterruptedException {
      CursorAcpClient client = new CursorAcpClient(this);
      try {
        client.handshake();
        return client;
      } catch (RuntimeException | InterruptedException e) {
        client.close();
        throw e;
      }
    }

    private static Duration positive(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      return timeout;
    }
  }

  private void handshake() throws InterruptedException {
    AcpSchema.InitializeResponse init =
        await(
            AcpSchema.METHOD_INITIALIZE,
            acp.initialize(
                new AcpSchema.InitializeRequest(
                    AcpSchema.LATEST_PROTOCOL_VERSION,
                    new AcpSchema.ClientCapabilities(),
                    new AcpSchema.Implementation("agentdouble-examples", "0.1.0"),
                    null)),
            requestTimeout,
            List::of);
    initialized = init;
    List<String> methods = new ArrayList<>();
    for (AuthMethod method : Optional.ofNullable(init.authMethods()).orElse(List.of())) {
      methods.add(method.id());
    }
    if (!methods.contains(CURSOR_LOGIN)) {
      throw new AcpAgentException(
          AcpAgentException.Kind.AUTH_FAILED,
          "the agent offers no " + CURSOR_LOGIN + " authentication; it offers " + methods,
          OptionalInt.empty(),
          "",
          OptionalInt.empty(),
          agent.stderr(),
          List.of());
    }
    try {
      await(
          AcpSchema.METHOD_AUTHENTICATE,
          acp.authenticate(new AcpSchema.AuthenticateRequest(CURSOR_LOGIN)),
          requestTimeout,
          List::of);
    } catch (AcpAgentException e) {
      if (e.kind() != AcpAgentException.Kind.ERROR) {
        throw e;
      }
      throw new AcpAgentException(
          AcpAgentException.Kind.AUTH_FAILED,
          "cursor-agent acp: "
              + CURSOR_LOGIN
              + " failed ("
              + e.getMessage()
              + "); log in with `agent login`, or set CURSOR_API_KEY",
          e.errorCode(),
          e.details(),
          OptionalInt.empty(),
          agent.stderr(),
          List.of());
    }
  }

  /** The agent's process id. */
  public long pid() {
    return agent.pid();
  }

  /** What the agent wrote on stderr so far (at most the last 64 KiB). */
  public String stderr() {
    return agent.stderr();
  }

  /** Stdout lines that were not JSON-RPC messages, skipped. */
  public int skippedLines() {
    return agent.skippedLines();
  }

  /** Opens a session working in {@code cwd} ({@code session/new}). */
  public AgentSession newSession(Path cwd) throws InterruptedException {
    String dir = cwd.toAbsolutePath().toString();
    return await(
        AcpSchema.METHOD_SESSION_NEW,
        acp.newSession(new AcpSchema.NewSessionRequest(dir, List.of()))
            // on the reader thread, before the next message: the session's first updates may
            // follow its answer at once
            .map(
                response -> {
                  AgentSession session = new AgentSession(link, response.sessionId(), Path.of(dir));
                  session.modes(response.modes());
                  sessions.put(session.id(), session);
                  return session;
                }),
        requestTimeout,
        List::of);
  }

  /**
   * Opens a session of an earlier agent process again ({@code session/load}), e.g. after the editor
   * restarted: its conversation is replayed as updates ({@link AgentSession#history()}), and its
   * next prompt continues it.
   */
  public AgentSession loadSession(String sessionId, Path cwd) throws InterruptedException {
    AcpSchema.AgentCapabilities capabilities = initialized.agentCapabilities();
    if (capabilities == null || !Boolean.TRUE.equals(capabilities.loadSession())) {
      throw new UnsupportedOperationException("the agent cannot load sessions");
    }
    String dir = cwd.toAbsolutePath().toString();
    AgentSession session = new AgentSession(link, sessionId, Path.of(dir));
    // the replay comes before the answer: the session must be known to receive it
    sessions.put(sessionId, session);
    try {
      AcpSchema.LoadSessionResponse response =
          await(
              AcpSchema.METHOD_SESSION_LOAD,
              acp.loadSession(new AcpSchema.LoadSessionRequest(sessionId, dir, List.of())),
              requestTimeout,
              List::of);
      session.modes(response.modes());
      return session;
    } catch (RuntimeException | InterruptedException e) {
      sessions.remove(sessionId);
      throw e;
    }
  }

  /** What the client's sessions and turns ask of it. */
  private final class Link implements AgentLink {
    @Override
    public void setMode(String sessionId, String modeId) throws InterruptedException {
      CursorAcpClient.this.await(
          AcpSchema.METHOD_SESSION_SET_MODE,
          acp.setSessionMode(new AcpSchema.SetSessionModeRequest(sessionId, modeId)),
          requestTimeout,
          List::of);
    }

    @Override
    public CompletableFuture<AcpSchema.PromptResponse> prompt(String sessionId, String text) {
      return acp.prompt(
              new AcpSchema.PromptRequest(
                  sessionId, List.<AcpSchema.ContentBlock>of(new AcpSchema.TextContent(text))))
          .toFuture();
    }

    @Override
    public void cancel(String sessionId) {
      try {
        acp.cancel(new AcpSchema.CancelNotification(sessionId)).block(requestTimeout);
      } catch (RuntimeException e) {
        // the agent is gone: there is nothing left to cancel
      }
    }

    @Override
    public Duration turnTimeout() {
      return turnTimeout;
    }

    @Override
    public Duration requestTimeout() {
      return requestTimeout;
    }

    @Override
    public <T> T await(
        String method,
        CompletableFuture<T> answer,
        Duration left,
        Duration timeout,
        Supplier<List<AcpUpdate>> seen)
        throws InterruptedException {
      return CursorAcpClient.this.await(method, answer, left, timeout, seen);
    }
  }

  /** A request's answer, waiting at most {@code timeout}, and no longer than the agent lives. */
  <T> T await(String method, Mono<T> request, Duration timeout, Supplier<List<AcpUpdate>> seen)
      throws InterruptedException {
    return await(method, request.toFuture(), timeout, timeout, seen);
  }

  /**
   * {@code answer}, waiting at most {@code left} of the {@code timeout} the caller allowed, and no
   * longer than the agent lives.
   */
  <T> T await(
      String method,
      CompletableFuture<T> answer,
      Duration left,
      Duration timeout,
      Supplier<List<AcpUpdate>> seen)
      throws InterruptedException {
    try {
      CompletableFuture.anyOf(answer, agent.exited()).get(left.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AcpAgentException(
          AcpAgentException.Kind.TIMED_OUT,
          "cursor-agent acp did not answer " + method + " within " + timeout.toMillis() + "ms",
          OptionalInt.empty(),
          "",
          OptionalInt.empty(),
          agent.stderr(),
          seen.get());
    } catch (ExecutionException e) {
      // the answer failed: read below
    }
    if (answer.isDone()) {
      try {
        return answer.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof AcpClientSession.AcpError
            || e.getCause() instanceof TimeoutException) {
          throw failure(method, e.getCause(), seen.get());
        }
        // the request could not be sent: the agent is gone, or going
        try {
          agent.exited().get(5, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException stillRunning) {
          throw new IllegalStateException(method + " failed: " + e.getCause().getMessage(), e);
        }
      }
    }
    int exit = agent.exited().join();
    throw new AcpAgentException(
        AcpAgentException.Kind.DIED,
        "cursor-agent acp "
            + (exit > 128 ? "was killed by signal " + (exit - 128) : "exited with code " + exit)
            + " while the client waited for "
            + method
            + ", after "
            + count(seen.get()),
        OptionalInt.empty(),
        "",
        OptionalInt.of(exit),
        agent.stderr(),
        seen.get());
  }

  private AcpAgentException failure(String method, Throwable cause, List<AcpUpdate> seen) {
    if (cause instanceof AcpClientSession.AcpError error) {
      AcpSchema.JSONRPCError e = error.getError();
      JsonNode data = Updates.tree(e.data());
      String details = data.path("details").asText(e.message());
      return new AcpAgentException(
          AcpAgentException.Kind.ERROR,
          method + " failed: " + e.message() + " (" + e.code() + "): " + details,
          OptionalInt.of(e.code()),
          details,
          OptionalInt.empty(),
          agent.stderr(),
          seen);
    }
    return new AcpAgentException(
        AcpAgentException.Kind.TIMED_OUT,
        "cursor-agent acp did not answer " + method + " in time",
        OptionalInt.empty(),
        "",
        OptionalInt.empty(),
        agent.stderr(),
        seen);
  }

  private static String count(List<AcpUpdate> updates) {
    return updates.size() + (updates.size() == 1 ? " update" : " updates");
  }

  /** A {@code session/update}: to its session, on the reader thread, in order. */
  private Mono<Void> updated(Object params) {
    JsonNode notification = Updates.tree(params);
    AgentSession session = sessions.get(notification.path("sessionId").asText(""));
    if (session != null) {
      session.updated(Updates.of(notification.path("update")));
    }
    return Mono.empty();
  }

  /** A {@code session/request_permission}: the policy's choice, or cancelled. */
  private RequestPermissionResponse answer(RequestPermissionRequest request) {
    AgentSession session = sessions.get(request.sessionId());
    Optional<Turn> turn = session == null ? Optional.empty() : session.running();
    AcpSchema.ToolCallUpdate call = request.toolCall();
    List<PermissionOption> options = Optional.ofNullable(request.options()).orElse(List.of());
    if (turn.isEmpty() || turn.get().cancelled() || call == null) {
      // ACP: once the client cancelled the turn, it answers what the agent still asks "cancelled"
      return new RequestPermissionResponse(new AcpSchema.PermissionCancelled());
    }
    List<String> ids = new ArrayList<>();
    options.forEach(o -> ids.add(o.optionId()));
    PermissionPolicy.Choice choice =
        policy.decide(
            new PermissionRequest(
                request.sessionId(),
                call.toolCallId(),
                Optional.ofNullable(call.title()).orElse(""),
                Updates.wire(call.kind()),
                Updates.text(call.content()),
                ids));
    Optional<String> option =
        option(options, choice)
            .or(
                () ->
                    option(
                        options,
                        switch (choice) {
                          case ALLOW_ALWAYS -> PermissionPolicy.Choice.ALLOW_ONCE;
                          case REJECT_ALWAYS -> PermissionPolicy.Choice.REJECT_ONCE;
                          default -> choice;
                        }));
    if (option.isEmpty()) {
      return new RequestPermissionResponse(new AcpSchema.PermissionCancelled());
    }
    turn.get().answered(call.toolCallId(), option.get());
    return new RequestPermissionResponse(new AcpSchema.PermissionSelected(option.get()));
  }

  private static Optional<String> option(
      List<PermissionOption> options, PermissionPolicy.Choice choice) {
    PermissionOptionKind kind = PermissionOptionKind.valueOf(choice.name());
    return options.stream()
        .filter(o -> o.kind() == kind)
        .map(PermissionOption::optionId)
        .findFirst();
  }

  /**
   * Ends the agent: closes its stdin, which ends an ACP agent, and kills it (with whatever it
   * started) if it is still running after a moment.
   */
  @Override
  public void close() {
    try {
      acp.closeGracefully().block(Duration.ofSeconds(10));
    } catch (RuntimeException e) {
      agent.kill();
    } finally {
      askThreads.shutdownNow();
    }
  }
}
