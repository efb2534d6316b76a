package dev.agentdouble.junit;

import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.ControlPlane;
import dev.agentdouble.junit.internal.Deadline;
import dev.agentdouble.junit.internal.FakeAgentRuntime;
import dev.agentdouble.junit.internal.Recordings;
import dev.agentdouble.junit.internal.TapeFiles;
import dev.agentdouble.junit.internal.Watchdog;
import dev.agentdouble.junit.internal.WorkFolder;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Hands tests a {@link FakeAgent}: as a test-method parameter or a field (a static field lives for
 * the class, an instance field or parameter for one test). Declarative:
 * {@code @ExtendWith(AgentDoubleExtension.class)}; programmatic: {@code @RegisterExtension static
 * AgentDoubleExtension agents = AgentDoubleExtension.builder().timing(Timing.RECORDED).build();}.
 *
 * <p>One WireMock server on loopback per JVM decides which tape answers which invocation; each fake
 * keeps to its own URL path, so tests never see each other's stubs. At the end of a test, runs
 * still alive are killed, and (unless relaxed) an invocation that matched nothing or an enqueued
 * tape never used fails the test. A failed test keeps its fake's folder and prints it.
 *
 * <p>A test whose code is blocked reading a run of the fake (a tape that hangs) cannot hang the
 * build: when the test times out, whatever its {@code @Timeout} thread mode, or, without a timeout,
 * at the extension's own deadline ({@link Builder#deadline}), the runs of its fakes still going are
 * ended, so the read returns, and the test fails naming each run, its tape and where it was. No
 * state lives in fields: everything is in the {@link ExtensionContext.Store}.
 */
public final class AgentDoubleExtension
    implements BeforeAllCallback,
        BeforeEachCallback,
        AfterEachCallback,
        AfterAllCallback,
        ParameterResolver,
        InvocationInterceptor,
        TestExecutionExceptionHandler {
  private static final Namespace NAMESPACE = Namespace.create(AgentDoubleExtension.class);
  private static final String HANDLE = "fake-agent";
  private static final String GUARD = "guard";

  private final Settings settings;

  /** The builder's own deadline; empty: from the configuration; {@link Duration#ZERO}: none. */
  private final Optional<Duration> deadline;

  /** Fast timing, strict about unmatched invocations and unused tapes, 30 s step gates. */
  public AgentDoubleExtension() {
    this(Settings.DEFAULTS, Optional.empty());
  }

  private AgentDoubleExtension(Settings settings, Optional<Duration> deadline) {
    this.settings = settings;
    this.deadline = deadline;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Configures the extension for {@code @RegisterExtension}. */
  public static final class Builder {
    private Timing timing = Settings.DEFAULTS.timing();
    private boolean strictUnmatched = true;
    private boolean strictUnused = true;
    private Duration gateTimeout = Settings.DEFAULTS.gateTimeout();
    private Optional<Duration> deadline = Optional.empty();

    private Builder() {}

    /**
     * {@link Timing#FAST} (default), {@link Timing#RECORDED}, {@link Timing.Scale}, {@link
     * Timing.MaxGap}.
     */
    public Builder timing(Timing policy) {
      timing = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** Invocations that match nothing do not fail tests. */
    public Builder allowUnmatched() {
      strictUnmatched = false;
      return this;
    }

    /** Enqueued tapes left unused do not fail tests. */
    public Builder allowUnused() {
      strictUnused = false;
      return this;
    }

    /** How long a run waits at a step gate. */
    public Builder gateTimeout(Duration timeout) {
      gateTimeout = timeout;
      return this;
    }

    /**
     * How long a test without a JUnit timeout may run before the runs of its fakes still going are
     * ended and it fails (default 5 minutes, or the configuration parameter {@code
     * agentdouble.deadline}). A test with a {@code @Timeout} (or a default timeout) is held to that
     * instead.
     */
    public Builder deadline(Duration limit) {
      if (limit.isNegative() || limit.isZero()) {
        throw new IllegalArgumentException(
            "deadline must be positive, was " + limit + "; noDeadline() turns it off");
      }
      deadline = Optional.of(limit);
      return this;
    }

    /** No deadline of the extension's own: a test without a timeout may wait on a fake forever. */
    public Builder noDeadline() {
      deadline = Optional.of(Duration.ZERO);
      return this;
    }

    public AgentDoubleExtension build() {
      return new AgentDoubleExtension(
          new Settings(timing, strictUnmatched, strictUnused, gateTimeout), deadline);
    }
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    injectFields(context, null, true);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      injectFields(context, instance, false);
    }
    if (context.getTestMethod().map(m -> m.isAnnotationPresent(AgentTape.class)).orElse(false)
        || context.getRequiredTestClass().isAnnotationPresent(AgentTape.class)) {
      handle(context); // a missing tape or a refused recording fails here, before the test runs
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == FakeAgent.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    if (context.getTestMethod().isEmpty()) {
      throw new ExtensionConfigurationException(
          "a FakeAgent parameter belongs to a test method; "
              + "for one per class use a static FakeAgent field");
    }
    return handle(context);
  }

  @Override
  public void afterEach(ExtensionContext context) {
    finish(context);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    finish(context);
  }

  @Override
  public void interceptTestMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> method,
      ExtensionContext context)
      throws Throwable {
    guard(invocation, context, false);
  }

  @Override
  public void interceptTestTemplateMethod(
      Invocation<Void> invocation,
      ReflectiveInvocationContext<Method> method,
      ExtensionContext context)
      throws Throwable {
    guard(invocation, context, true);
  }

  /**
   * Runs the test with its fakes guarded: at its {@link Deadline} the runs still going are ended
   * from the watchdog's thread, so a test thread blocked reading one goes on, and the test fails.
   */
  private void guard(Invocation<Void> invocation, ExtensionContext context, boolean template)
      throws Throwable {
    List<Guard.Watched> watched = new ArrayList<>();
    for (ExtensionContext c = context; c != null; c = c.getParent().orElse(null)) {
      Handle handle = c.getStore(NAMESPACE).get(key(c), Handle.class);
      if (handle != null) {
        // a class's fake may serve other tests: only its runs started from now on are this test's
        watched.add(
            new Guard.Watched(handle.agent(), c == context ? 0 : handle.agent().runsStarted()));
      }
    }
    Optional<Deadline> due =
        watched.isEmpty() ? Optional.empty() : Deadline.of(context, deadline, template);
    if (due.isEmpty()) {
      invocation.proceed();
      return;
    }
    Guard guard = new Guard(watched, due.get());
    context.getStore(NAMESPACE).put(GUARD + ":" + context.getUniqueId(), guard);
    Watchdog watchdog =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(Watchdog.class, k -> new Watchdog(), Watchdog.class);
    ScheduledFuture<?> timer = watchdog.schedule(guard::fire, due.get().after());
    try {
      invocation.proceed();
    } finally {
      timer.cancel(false);
    }
    if (guard.ended()) {
      throw guard.failure(null); // the runs were ended and the test went on as if nothing was
    }
  }

  /**
   * A test that failed after its runs were ended fails saying so; so does one that JUnit timed out
   * in a thread of its own (SEPARATE_THREAD), whose runs are ended now.
   */
  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable throwable)
      throws Throwable {
    Throwable failure = throwable;
    Guard guard = context.getStore(NAMESPACE).get(GUARD + ":" + context.getUniqueId(), Guard.class);
    if (guard != null && !(throwable instanceof Guard.Overran)) {
      if (throwable instanceof TimeoutException
          && String.valueOf(throwable.getMessage()).contains(" timed out after ")) {
        guard.fire();
      }
      if (guard.ended()) {
        failure = guard.failure(throwable);
      }
    }
    Handle handle = context.getStore(NAMESPACE).get(key(context), Handle.class);
    if (handle != null) {
      failure.addSuppressed(new KeptFolder(handle.agent().directory()));
    }
    throw failure;
  }

  /** A test's fakes and the moment they are ended, once. */
  private static final class Guard {
    /** A fake, and the first of its runs that belongs to the test. */
    record Watched(FakeAgent agent, int from) {}

    /** The failure of a test whose runs of the fake were ended. */
    static final class Overran extends AssertionError {
      private static final long serialVersionUID = 1L;

      Overran(String message, Throwable cause) {
        super(message, cause);
      }
    }

    private final List<Watched> watched;
    private final Deadline deadline;
    private List<String> ended;

    Guard(List<Watched> watched, Deadline deadline) {
      this.watched = List.copyOf(watched);
      this.deadline = deadline;
    }

    /** Ends the runs still going, the first time only. */
    synchronized void fire() {
      if (ended != null) {
        return;
      }
      ended = new ArrayList<>();
      for (Watched w : watched) {
        ended.addAll(w.agent().endRuns(w.from()));
      }
    }

    /** Whether runs were ended. */
    synchronized boolean ended() {
      return ended != null && !ended.isEmpty();
    }

    synchronized Overran failure(Throwable cause) {
      StringBuilder m =
          new StringBuilder("fake agent: the test ")
              .append(deadline.describe())
              .append(" while ")
              .append(ended.size() == 1 ? "a run" : ended.size() + " runs")
              .append(" of the fake agent ")
              .append(ended.size() == 1 ? "was" : "were")
              .append(" still going; ended (SIGKILL) so that the test could end:");
      for (String run : ended) {
        m.append("\n  ").append(run);
      }
      for (Watched w : watched) {
        m.append("\n  the fake's folder (journal, gates): ").append(w.agent().directory());
      }
      return new Overran(m.toString(), cause);
    }
  }

  private void injectFields(ExtensionContext context, Object instance, boolean statics) {
    Class<?> type = context.getRequiredTestClass();
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        if (field.getType() != FakeAgent.class
            || Modifier.isStatic(field.getModifiers()) != statics) {
          continue;
        }
        if (Modifier.isFinal(field.getModifiers())) {
          throw new ExtensionConfigurationException(
              "FakeAgent field ["
                  + c.getSimpleName()
                  + "."
                  + field.getName()
                  + "] must not be final");
        }
        try {
          field.setAccessible(true);
          field.set(instance, handle(context));
        } catch (IllegalAccessException e) {
          throw new ExtensionConfigurationException(
              "cannot set FakeAgent field [" + c.getSimpleName() + "." + field.getName() + "]", e);
        }
      }
    }
  }

  /**
   * The fake of this context (test or class), made on first use. Keyed by the context's id: a store
   * lookup also searches the parent contexts, and a test must not get its class's fake.
   */
  private FakeAgent handle(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    Handle handle = store.getOrComputeIfAbsent(key(context), k -> create(context), Handle.class);
    return handle.agent();
  }

  private static String key(ExtensionContext context) {
    return HANDLE + ":" + context.getUniqueId();
  }

  /** Closing the store without afterEach (an aborted test): the fake still ends. */
  private record Handle(FakeAgent agent)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      agent.finish(new ArrayList<>());
    }
  }

  private Handle create(ExtensionContext context) {
    ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
    Shared shared = root.getOrComputeIfAbsent(Shared.class, k -> Shared.start(), Shared.class);
    try {
      Path dir = Files.createTempDirectory(shared.work(), safeName(context.getDisplayName()) + "-");
      FakeAgent agent = new FakeAgent(shared.plane(), shared.runtime(), dir, settings);
      vcr(context, agent);
      return new Handle(agent);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the fake agent's folder", e);
    }
  }

  /** The JVM-wide part: the control plane, the fake's runtime, a work folder. */
  private record Shared(ControlPlane plane, FakeAgentRuntime runtime, Path work)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    static Shared start() {
      try {
        // first cleans the work folders of JVMs killed outright
        Path work = WorkFolder.create();
        // the fake's runtime (its class-data sharing archive, made by a child JVM when the cache
        // has none) is got while WireMock starts: the first test of a JVM waits for the longer
        CompletableFuture<FakeAgentRuntime> runtime =
            CompletableFuture.supplyAsync(() -> FakeAgentRuntime.create(work), Shared::thread);
        ControlPlane plane = ControlPlane.start();
        try {
          return new Shared(plane, runtime.join(), work);
        } catch (CompletionException e) {
          plane.close();
          throw e.getCause() instanceof RuntimeException r ? r : e;
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot create a work folder for the fake agent", e);
      }
    }

    /** Runs {@code task} on a thread of its own, which does not keep the JVM alive. */
    private static void thread(Runnable task) {
      Thread t = new Thread(task, "agentdouble-runtime");
      t.setDaemon(true);
      t.start();
    }

    @Override
    public void close() {
      plane.close();
      WorkFolder.close(work); // stays when a failed test's folder is kept inside
    }
  }

  private void finish(ExtensionContext context) {
    ExtensionContext.Store store = context.getStore(NAMESPACE);
    Handle handle = store.remove(key(context), Handle.class);
    if (handle == null) {
      return;
    }
    FakeAgent agent = handle.agent();
    List<String> notes = new ArrayList<>();
    List<String> problems = agent.finish(notes, context.getExecutionException().isEmpty());
    for (String note : notes) {
      context.publishReportEntry("agentdouble", note);
      System.err.println("agentdouble: " + context.getDisplayName() + ": " + note);
    }
    boolean failed = context.getExecutionException().isPresent() || !problems.isEmpty();
    if (failed) {
      String kept = "the fake agent's folder is kept: " + agent.directory();
      WorkFolder.keep(
          agent.directory(),
          "kept because "
              + context.getDisplayName()
              + " ("
              + context.getUniqueId()
              + ") failed; delete it when done");
      context.publishReportEntry("agentdouble", kept);
      System.err.println("agentdouble: " + context.getDisplayName() + ": " + kept);
    } else {
      WorkFolder.delete(agent.directory());
    }
    if (!problems.isEmpty()) {
      AssertionError failure = new AssertionError("fake agent: " + String.join("\n", problems));
      failure.addSuppressed(new KeptFolder(agent.directory()));
      throw failure;
    }
  }

  private static void vcr(ExtensionContext context, FakeAgent agent) {
    // on the method for one test; on the class for every test (and a static fake) in it
    Optional<AgentTape> annotation =
        context.getTestMethod().map(m -> m.getAnnotation(AgentTape.class));
    if (annotation.isEmpty()) {
      annotation =
          Optional.ofNullable(context.getRequiredTestClass().getAnnotation(AgentTape.class));
    }
    if (annotation.isEmpty()) {
      return;
    }
    AgentTape tape = annotation.get();
    boolean ci =
        "true"
            .equalsIgnoreCase(
                context.getConfigurationParameter("agentdouble.ci").orElse(System.getenv("CI")));
    // configuration parameters: set per run, or as system properties (-Dagentdouble.mode=...)
    AgentTape.Mode mode =
        tape.mode() != AgentTape.Mode.CONFIGURED ? tape.mode() : configuredMode(context, tape, ci);
    Path root =
        Path.of(
            context
                .getConfigurationParameter("agentdouble.tapes")
                .orElse("src/test/resources/agentdouble"));
    Path file =
        root.resolve(context.getRequiredTestClass().getSimpleName())
            .resolve(tape.value() + ".tape.ndjson");
    switch (mode) {
      case REPLAY -> {
        if (!Files.isRegularFile(file)) {
          throw new ExtensionConfigurationException(
              "@AgentTape(\""
                  + tape.value()
                  + "\"): no tape at "
                  + file.toAbsolutePath()
                  + "; record it with -Dagentdouble.mode=record (outside CI)");
        }
        replayAll(agent, file);
      }
      case AUTO -> {
        if (Files.isRegularFile(file)) {
          replayAll(agent, file);
        } else {
          record(context, agent, ci, tape, file);
        }
      }
      case RECORD -> record(context, agent, ci, tape, file);
      case CONFIGURED -> throw new IllegalStateException("the configured mode is resolved above");
    }
  }

  /** The mode {@code agentdouble.mode} names, else {@code auto} ({@code replay} in CI). */
  private static AgentTape.Mode configuredMode(
      ExtensionContext context, AgentTape tape, boolean ci) {
    String mode =
        context.getConfigurationParameter("agentdouble.mode").orElse(ci ? "replay" : "auto");
    return switch (mode) {
      case "replay" -> AgentTape.Mode.REPLAY;
      case "record" -> AgentTape.Mode.RECORD;
      case "auto" -> AgentTape.Mode.AUTO;
      default ->
          throw new ExtensionConfigurationException(
              "@AgentTape(\""
                  + tape.value()
                  + "\"): agentdouble.mode must be replay, record or auto, was \""
                  + mode
                  + "\"");
    };
  }

  private static void replayAll(FakeAgent agent, Path file) {
    try {
      // a test that ran the agent several times was recorded as NAME, NAME.2, ...: in order
      List<Tape> tapes = new ArrayList<>();
      for (int i = 1; ; i++) {
        Path next = Recordings.files(file, i).get(i - 1);
        if (!Files.isRegularFile(next)) {
          break;
        }
        tapes.add(TapeReader.read(next));
      }
      agent
          .when(InvocationPattern.invocation())
          .optional()
          .reply(tapes.get(0), tapes.subList(1, tapes.size()).toArray(Tape[]::new))
          .repeatLast();
    } catch (IOException e) {
      throw TapeFiles.cannotRead(file, e);
    }
  }

  private static void record(
      ExtensionContext context, FakeAgent agent, boolean ci, AgentTape tape, Path file) {
    if (ci) {
      throw new ExtensionConfigurationException(
          "@AgentTape(\""
              + tape.value()
              + "\"): recording "
              + "is refused when CI=true (no real agent calls in CI); record "
              + file
              + " locally and commit it");
    }
    Path real =
        context
            .getConfigurationParameter("agentdouble.cli")
            .map(Path::of)
            .or(AgentDoubleExtension::realCliOnPath)
            .orElseThrow(
                () ->
                    new ExtensionConfigurationException(
                        "@AgentTape(\""
                            + tape.value()
                            + "\"): recording needs the real cursor-agent: none on PATH; name it with "
                            + "-Dagentdouble.cli=PATH"));
    try {
      agent.recordTo(file, real);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the recording shims", e);
    }
  }

  private static Optional<Path> realCliOnPath() {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String name : List.of("cursor-agent", "agent")) {
      for (String dir : path.split(File.pathSeparator)) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(candidate) && !candidate.toString().contains("agentdouble-")) {
          return Optional.of(candidate.toAbsolutePath());
        }
      }
    }
    return Optional.empty();
  }

  private static String safeName(String displayName) {
    String s = displayName.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.length() > 40 ? s.substring(0, 40) : s;
  }

  /**
   * Said with the failure of a test that has a fake (as a suppressed exception, so the failure's
   * own message stays as it was): where the fake's folder is kept.
   */
  private static final class KeptFolder extends Exception {
    private static final long serialVersionUID = 1L;

    KeptFolder(Path dir) {
      super(
          "the fake agent's folder is kept: " + dir + " (shims, journal, gates)",
          null,
          false,
          false);
    }
  }
}
