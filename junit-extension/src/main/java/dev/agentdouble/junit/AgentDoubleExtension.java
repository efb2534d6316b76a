package dev.agentdouble.junit;

import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.extension.AgentTapes;
import dev.agentdouble.junit.internal.extension.Deadline;
import dev.agentdouble.junit.internal.extension.EarlyPlane;
import dev.agentdouble.junit.internal.extension.FieldInjection;
import dev.agentdouble.junit.internal.extension.Guard;
import dev.agentdouble.junit.internal.extension.KeptFolder;
import dev.agentdouble.junit.internal.extension.SharedPlane;
import dev.agentdouble.junit.internal.extension.TestEnd;
import dev.agentdouble.junit.internal.extension.Watchdog;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
    inject(context, null, true);
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      inject(context, instance, false);
    }
    if (context.getTestMethod().map(m -> m.isAnnotationPresent(AgentTape.class)).orElse(false)
        || context.getRequiredTestClass().isAnnotationPresent(AgentTape.class)) {
      handle(context); // a missing tape or a refused recording fails here, before the test runs
    }
  }

  private void inject(ExtensionContext context, Object instance, boolean statics) {
    FieldInjection.inject(
        context.getRequiredTestClass(), instance, statics, FakeAgent.class, () -> handle(context));
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
        FakeAgent agent = handle.agent();
        // a class's fake may serve other tests: only its runs started from now on are this test's
        int from = c == context ? 0 : agent.runsStarted();
        watched.add(new Guard.Watched(agent.directory(), from, agent::endRuns));
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
    ExtensionContext.Store root = context.getRoot().getStore(NAMESPACE);
    guard.run(
        invocation, root.getOrComputeIfAbsent(Watchdog.class, k -> new Watchdog(), Watchdog.class));
  }

  /**
   * A test that failed after its runs were ended fails saying so; so does one that JUnit timed out
   * in a thread of its own (SEPARATE_THREAD), whose runs are ended now.
   */
  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable throwable)
      throws Throwable {
    Guard guard = context.getStore(NAMESPACE).get(GUARD + ":" + context.getUniqueId(), Guard.class);
    Throwable failure = guard == null ? throwable : guard.failure(throwable);
    Handle handle = context.getStore(NAMESPACE).get(key(context), Handle.class);
    if (handle != null) {
      failure.addSuppressed(new KeptFolder(handle.agent().directory()));
    }
    throw failure;
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
  // CloseableResource, deprecated since JUnit 5.13, is what JUnit 5.10 to 5.12 close (the
  // README's "JUnit 5.10 and newer"); 5.13 and later close it as an AutoCloseable
  @SuppressWarnings("deprecation")
  private record Handle(FakeAgent agent)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    @Override
    public void close() {
      agent.finish(new ArrayList<>(), false);
    }
  }

  /**
   * What the fakes of this run share: started early by the launcher session ({@code EarlyStart}),
   * else now, by the first fake that needs it.
   */
  private static SharedPlane shared(ExtensionContext context) {
    return EarlyPlane.of(context, NAMESPACE);
  }

  private Handle create(ExtensionContext context) {
    SharedPlane shared = shared(context);
    try {
      Path dir = Files.createTempDirectory(shared.work(), safeName(context.getDisplayName()) + "-");
      FakeAgent agent = new FakeAgent(shared.plane(), shared.runtime(), dir, settings);
      vcr(context, agent);
      return new Handle(agent);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the fake agent's folder", e);
    }
  }

  private void finish(ExtensionContext context) {
    Handle handle = context.getStore(NAMESPACE).remove(key(context), Handle.class);
    if (handle != null) {
      FakeAgent agent = handle.agent();
      List<String> notes = new ArrayList<>();
      List<String> problems = agent.finish(notes, context.getExecutionException().isEmpty());
      TestEnd.settle(context, agent.directory(), notes, problems, shared(context).janitor());
    }
  }

  /** Under an {@link AgentTape} on the method (one test) or the class (all, a static fake too). */
  private static void vcr(ExtensionContext context, FakeAgent agent) {
    Optional<AgentTape> annotation =
        context.getTestMethod().map(m -> m.getAnnotation(AgentTape.class));
    if (annotation.isEmpty()) {
      annotation =
          Optional.ofNullable(context.getRequiredTestClass().getAnnotation(AgentTape.class));
    }
    if (annotation.isEmpty()) {
      return;
    }
    AgentTapes.Plan plan = AgentTapes.plan(context, annotation.get());
    if (plan instanceof AgentTapes.Replay replay) {
      List<Tape> tapes = replay.tapes();
      agent
          .when(InvocationPattern.invocation())
          .optional()
          .reply(tapes.get(0), tapes.subList(1, tapes.size()).toArray(Tape[]::new))
          .repeatLast();
    } else if (plan instanceof AgentTapes.Record record) {
      try {
        agent.recordTo(record.file(), record.real());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot prepare the recording shims", e);
      }
    }
  }

  private static String safeName(String displayName) {
    String s = displayName.replaceAll("[^A-Za-z0-9._-]", "_");
    return s.length() > 40 ? s.substring(0, 40) : s;
  }
}
