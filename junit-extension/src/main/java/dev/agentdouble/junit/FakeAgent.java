package dev.agentdouble.junit;

import dev.agentdouble.contract.AccountModels;
import dev.agentdouble.contract.Launch;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.control.InvocationLog;
import dev.agentdouble.junit.internal.handle.Answers;
import dev.agentdouble.junit.internal.handle.Recordings;
import dev.agentdouble.junit.internal.handle.StepGates;
import dev.agentdouble.junit.internal.handle.Strictness;
import dev.agentdouble.junit.internal.handle.TapeFiles;
import dev.agentdouble.junit.internal.handle.Verification;
import dev.agentdouble.junit.internal.process.FakeAgentRuntime;
import dev.agentdouble.junit.internal.process.RealClis;
import dev.agentdouble.junit.internal.process.Runs;
import dev.agentdouble.junit.internal.process.ShimEnvironment;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * A fake {@code cursor-agent} (and {@code claude}) for one test (or one test class): an executable
 * to hand the code under test, tapes to answer its invocations, and what it was asked, to verify.
 *
 * <pre>{@code
 * @ExtendWith(AgentDoubleExtension.class)
 * class ChatClientTest {
 *   @Test
 *   void answers(FakeAgent agent) throws Exception {
 *     agent.enqueue(Tape.read(Path.of("src/test/resources/hello.tape.ndjson")));
 *     String answer = new ChatClient(agent.executable()).ask("hello");
 *     assertThat(agent.takeInvocation().prompt()).isEqualTo("hello");
 *   }
 * }
 * }</pre>
 *
 * Thread-safe. Every wait is bounded.
 */
public final class FakeAgent {
  /** How long {@link #takeInvocation()} waits by default. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

  private final ControlPlane plane;
  private final Path dir;
  private final String path;
  private final ShimEnvironment shims;
  private final StepGates gates;
  private final InvocationLog log;
  private final Answers answers;
  private final Strictness strictness;
  private final Runs runs;
  private final Settings settings;
  private volatile Recordings recordings;

  FakeAgent(ControlPlane plane, FakeAgentRuntime runtime, Path dir, Settings settings)
      throws IOException {
    String id = UUID.randomUUID().toString();
    this.plane = plane;
    this.dir = dir;
    this.settings = settings;
    this.path = "/agentdouble/" + id + "/invocations";
    this.gates = new StepGates(dir.resolve("gates"));
    this.runs = new Runs(dir, gates.folder());
    this.shims =
        new ShimEnvironment(
            plane,
            plane.baseUrl() + "/agentdouble/" + id,
            runtime,
            dir,
            gates.folder(),
            settings.timing(),
            settings.gateTimeout());
    this.answers = new Answers(plane, path, shims.queue(), gates);
    this.strictness = new Strictness(settings.strictUnmatched(), settings.strictUnused());
    this.log = new InvocationLog(plane, id, path, shims.queue());
  }

  /** The executable to give the code under test: a {@code cursor-agent} for this test only. */
  public Path executable() {
    return shims.bin().resolve(Launch.SHIM_NAMES.get(0));
  }

  /**
   * A {@code claude} for this test only, beside {@link #executable()}: the same fake, its stubs,
   * queue, gates and invocations, plays the CLI each run is started as (see docs/junit.md).
   */
  public Path claudeExecutable() {
    return shims.bin().resolve(Launch.CLAUDE_SHIM_NAME);
  }

  /** The folder of {@code cursor-agent}, {@code agent} and {@code claude}, for a PATH search. */
  public Path binDir() {
    return shims.bin();
  }

  /** This fake's working folder: shims, gates, journal. Kept when the test fails. */
  public Path directory() {
    return dir;
  }

  /**
   * Entries to add to a {@link ProcessBuilder}'s environment for consumers that look the CLI up on
   * {@code PATH}: {@code PATH} with {@link #binDir()} first, and the fake's configuration.
   */
  public Map<String, String> environment() {
    return shims.environment();
  }

  /**
   * Later invocations run on a machine where every workspace is already trusted, as a developer's
   * machine is after a first {@code --trust}. By default the fake is a fresh machine, as CI is: a
   * print run without {@code --trust}, {@code -f} or {@code --yolo} stops at the workspace trust
   * gate, as the real CLI does.
   */
  public FakeAgent trustedWorkspaces() {
    shims.trustAll();
    return this;
  }

  /**
   * Later invocations play an account that has these models besides its CLI version's newest public
   * list, e.g. {@code addModels("composer-2")}: the list a real run accepts is the account's, which
   * its server gives (docs/junit.md, "The account's models"). Replaces an earlier declaration.
   *
   * @throws IllegalArgumentException when an id is empty, holds a blank or a comma, or comes twice
   */
  public FakeAgent addModels(String... ids) {
    shims.models(AccountModels.add(List.of(ids)));
    return this;
  }

  /**
   * As {@link #addModels(String...)}, but these are the account's whole list, in this order.
   *
   * @throws IllegalArgumentException also when no id is given
   */
  public FakeAgent models(String... ids) {
    shims.models(AccountModels.replace(List.of(ids)));
    return this;
  }

  /**
   * The timing policy of later invocations: {@link Timing#FAST} (default), {@link Timing#RECORDED},
   * {@link Timing.Scale}, {@link Timing.MaxGap}; {@link Timing#parse} reads one from its spec
   * ({@code scale:0.5}).
   */
  public FakeAgent timing(Timing policy) {
    shims.timing(Objects.requireNonNull(policy, "policy"));
    return this;
  }

  /**
   * Record mode: the shims run the real CLIs through the recorder; a passed test keeps its runs as
   * {@code target}, {@code NAME.2.tape.ndjson}, ..., redacted and normalised.
   */
  void recordTo(Path target, RealClis real) throws IOException {
    recordings = new Recordings(dir.resolve("recordings"), target);
    shims.record(dir.resolve("recordings"), real);
  }

  /** Answers the next invocation not answered by a stub with {@code tape} (first in, first out). */
  public FakeAgent enqueue(Tape tape) {
    answers.enqueue(tape, Optional.empty(), Optional.empty());
    return this;
  }

  /**
   * As {@link #enqueue(Tape)}, replayed with {@code timing} instead of this fake's ({@link
   * #timing(Timing)}): a tape whose pauses matter among tapes that should run fast.
   */
  public FakeAgent enqueue(Tape tape, Timing timing) {
    Objects.requireNonNull(timing, "timing");
    answers.enqueue(tape, Optional.empty(), Optional.of(timing));
    return this;
  }

  /** Enqueues the tape in {@code file}. */
  public FakeAgent enqueue(Path file) {
    Tape tape = TapeFiles.read(file);
    answers.enqueue(tape, Optional.of(file.getFileName().toString()), Optional.empty());
    return this;
  }

  /** Enqueues a tape from the test classpath, e.g. {@code "tapes/hello.tape.ndjson"}. */
  public FakeAgent enqueueResource(String resource) {
    answers.enqueue(TapeFiles.resource(resource), Optional.of(resource), Optional.empty());
    return this;
  }

  /**
   * Answers invocations matching {@code pattern}; see {@link Stubbing}. (0.1.0's {@code
   * FakeAgent.Stubbing} is now {@link Stubbing}: a declaration of that type names it so.)
   */
  public Stubbing when(InvocationPattern pattern) {
    synchronized (this) {
      return new Stubbing(answers, pattern);
    }
  }

  /**
   * Every invocation so far, oldest first: in the order they reached the control plane, which is
   * the order in which they took the queued tapes and each stub's replies. A turn of an ACP session
   * ({@code session/prompt}) is one invocation, with {@code outputFormat} {@code acp} and the
   * client's permission answers.
   */
  public List<Invocation> invocations() {
    return log.all();
  }

  /**
   * The command that starts this fake as an ACP agent ({@code agent acp}, the Agent Client Protocol
   * on stdio): {@link #executable()}, then {@code acp}. Each {@code session/prompt} the client
   * sends takes a tape as one print-mode invocation does (see docs/acp.md).
   */
  public List<String> acpCommand() {
    return List.of(executable().toString(), OutputFormat.ACP.cliName());
  }

  /**
   * The options ACP clients chose when this fake asked for permission ({@code
   * session/request_permission}), in the order they answered, across all sessions: {@code
   * allow-once}, {@code allow-always}, {@code reject-once} (or another id the client sent, taken as
   * a rejection), or {@code cancelled}, {@code error} (a JSON-RPC error), {@code invalid} (a result
   * that is no outcome); the last two fail their turn.
   */
  public List<String> permissionAnswers() {
    return log.permissionAnswers();
  }

  /** The next invocation not taken yet, waiting up to {@link #DEFAULT_WAIT}. */
  public Invocation takeInvocation() {
    return takeInvocation(DEFAULT_WAIT);
  }

  /** The next invocation not taken yet, waiting up to {@code timeout}; fails with a summary. */
  public Invocation takeInvocation(Duration timeout) {
    return log.take(timeout, () -> answers.unused().size());
  }

  /** Fails unless at least one invocation matches {@code pattern}, saying which came closest. */
  public void verify(InvocationPattern pattern) {
    verify(Times.atLeast(1), pattern);
  }

  /**
   * Fails unless exactly {@code times} invocations match {@code pattern}, saying which came
   * closest.
   */
  public void verify(int times, InvocationPattern pattern) {
    verify(Times.exactly(times), pattern);
  }

  /**
   * Fails unless as many invocations match {@code pattern} as {@code times} allows ({@link
   * Times#atLeast}, {@link Times#atMost}, {@link Times#never}...); when too few do, it says which
   * came closest and how it differs.
   */
  public void verify(Times times, InvocationPattern pattern) {
    Verification.verify(log, times, pattern.toString(), pattern::toRequest, pattern::mismatches);
  }

  /** The invocations that match {@code pattern}, oldest first. */
  public List<Invocation> findAll(InvocationPattern pattern) {
    return log.matching(pattern::toRequest);
  }

  /** A condition for Awaitility: whether a run of the fake has reached {@code gate}. */
  public Callable<Boolean> reached(String gate) {
    return gates.reached(gate);
  }

  /** Lets runs waiting at {@code gate} (and later ones reaching it) go on. */
  public void release(String gate) {
    gates.release(gate);
  }

  /** Waits until a run reaches {@code gate}, at most {@code timeout}; fails with a summary. */
  public void awaitGate(String gate, Duration timeout) {
    gates.await(gate, timeout, () -> invocations().size());
  }

  /**
   * Makes this fake as it was when the extension made it, for a fake shared by the tests of a class
   * (a static field) or a test that starts over: ends its runs still alive, forgets its queued
   * tapes, its stubs and their sequences, the invocations and permission answers it recorded and
   * the invocations not taken yet, opens no gate (releases and arrivals are forgotten), forgets
   * trusted workspaces and what the CLI keeps between runs, and takes back {@link #timing(Timing)},
   * {@link #trustedWorkspaces()}, {@link #addModels(String...)}, {@link #models(String...)}, {@link
   * #allowUnmatched()} and {@link #allowUnused()}. Its executable and folder stay the same, as
   * WireMock's {@code resetAll()} keeps its port.
   */
  public FakeAgent reset() {
    synchronized (this) {
      runs.endAll();
      answers.clear();
      log.clear();
      strictness.reset();
      try {
        gates.reset();
        shims.reset(settings.timing());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot reset the fake agent in " + dir, e);
      }
    }
    return this;
  }

  /** Invocations that matched no stub do not fail the test. */
  public FakeAgent allowUnmatched() {
    strictness.allowUnmatched();
    return this;
  }

  /** Enqueued tapes left unused do not fail the test. */
  public FakeAgent allowUnused() {
    strictness.allowUnused();
    return this;
  }

  /**
   * Ends this fake: kills runs still alive, checks strictness, removes its stubs; a passed test
   * keeps what record mode recorded. Returns the problems that fail the test, and adds notes
   * (killed processes) to {@code notes}.
   */
  List<String> finish(List<String> notes, boolean passed) {
    List<Long> stdinOpen = gates.waitingForStdin();
    notes.addAll(runs.endAll());
    List<Long> neverAsked =
        Strictness.neverAsked(
            stdinOpen, () -> invocations().stream().map(Invocation::pid).toList(), notes);
    List<String> problems = new ArrayList<>();
    if (recordings != null) {
      recordings.keep(passed, notes, problems);
    }
    problems.addAll(strictness.problems(answers, neverAsked));
    log.close();
    answers.remove();
    return problems;
  }

  /** The control plane this fake's invocations go to (for the extension's own tests). */
  ControlPlane plane() {
    return plane;
  }

  /** The URL path this fake's invocations are POSTed to (for the extension's own tests). */
  String invocationPath() {
    return path;
  }

  /** How many runs have started so far (each shim start counts), first run 0. */
  int runsStarted() {
    return runs.started();
  }

  /** See {@link Runs#end}. */
  List<String> endRuns(int from) {
    return runs.end(from);
  }
}
