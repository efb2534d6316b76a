package dev.agentdouble.junit;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.Claims;
import dev.agentdouble.junit.internal.ControlPlane;
import dev.agentdouble.junit.internal.FakeAgentRuntime;
import dev.agentdouble.junit.internal.Invocations;
import dev.agentdouble.junit.internal.NoTapeReport;
import dev.agentdouble.junit.internal.Recordings;
import dev.agentdouble.junit.internal.Runs;
import dev.agentdouble.junit.internal.Shim;
import dev.agentdouble.junit.internal.Stubs;
import dev.agentdouble.junit.internal.TapeFiles;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A fake {@code cursor-agent} for one test (or one test class): an executable to hand the code
 * under test, tapes to answer its invocations, and what it was asked, to verify.
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
  /** The output format of a turn of an ACP session, and the command that starts one. */
  private static final String ACP = "acp";

  /** How long {@link #takeInvocation()} waits by default. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

  private final ControlPlane plane;
  private final FakeAgentRuntime runtime;
  private final String id = UUID.randomUUID().toString();
  private final Path dir;
  private final Path bin;
  private final Path gates;
  private final String path;

  /** The invocations that asked for a tape, and those the CLI stopped before (the trust gate). */
  private final String invocations;

  private final Map<String, String> shimEnv = new LinkedHashMap<>();
  private final Stubs stubs;
  private volatile boolean strictUnmatched;
  private volatile boolean strictUnused;

  /** The bodies of the invocations not taken yet, as the control plane answered them. */
  private final BlockingQueue<String> arrived = new LinkedBlockingQueue<>();

  private final AutoCloseable arrivals;
  private final AutoCloseable noTapeReport;

  /** The stubs made with {@link #when}, for the near-miss reports. */
  private final List<Stubbing> stubbings = new CopyOnWriteArrayList<>();

  private int taken;
  private volatile Recordings recordings;
  private final Runs runs;
  private final Settings settings;

  FakeAgent(ControlPlane plane, FakeAgentRuntime runtime, Path dir, Settings settings)
      throws IOException {
    this.settings = settings;
    this.plane = plane;
    this.runtime = runtime;
    this.dir = dir;
    this.bin = dir.resolve("bin");
    this.gates = Files.createDirectories(dir.resolve("gates"));
    this.runs = new Runs(dir, gates);
    this.path = "/agentdouble/" + id + "/invocations";
    this.invocations = path + "(/stopped)?";
    this.stubs = new Stubs(plane, path);
    this.strictUnmatched = settings.strictUnmatched();
    this.strictUnused = settings.strictUnused();
    shimEnv.put(FakeEnvironment.URL, plane.baseUrl() + "/agentdouble/" + id);
    // the control plane answers only requests with its secret: another local user's cannot read
    // this test's invocations, add stubs, or shut it down
    shimEnv.put(ControlSecret.ENV, plane.secret());
    shimEnv.put(FakeEnvironment.TIMING, settings.timing().toString());
    shimEnv.put(FakeEnvironment.GATES, gates.toString());
    shimEnv.put(FakeEnvironment.GATE_TIMEOUT_MS, Long.toString(settings.gateTimeout().toMillis()));
    shimEnv.put(FakeEnvironment.JOURNAL, dir.resolve("journal.ndjson").toString());
    // what the CLI keeps between runs (trusted workspaces, session ids) lasts as long as this fake
    shimEnv.put(FakeEnvironment.STATE_DIR, dir.resolve("state").toString());
    // a run outlives neither its parent nor this JVM, even one killed outright
    shimEnv.put(FakeEnvironment.OWNER_PID, Long.toString(ProcessHandle.current().pid()));
    // runs the CLI stopped before they needed a tape report to PATH/stopped: no stub answers them
    // (the fake ignores the answer), and they are never "unmatched" (see close())
    writeShim();
    this.arrivals = plane.onPost(invocations, arrived::add);
    this.noTapeReport = plane.onNoTape(path, this::noTape);
  }

  private synchronized void writeShim() throws IOException {
    Shim.write(bin, runtime, shimEnv, dir.resolve("pids"));
  }

  /** The executable to give the code under test: a {@code cursor-agent} for this test only. */
  public Path executable() {
    return bin.resolve("cursor-agent");
  }

  /** The folder holding {@code cursor-agent} and {@code agent}, for consumers that search PATH. */
  public Path binDir() {
    return bin;
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
    Map<String, String> env = new LinkedHashMap<>();
    String path = System.getenv("PATH");
    env.put("PATH", bin + (path == null || path.isEmpty() ? "" : File.pathSeparator + path));
    synchronized (this) {
      env.putAll(shimEnv);
    }
    return env;
  }

  /**
   * Later invocations run on a machine where every workspace is already trusted, as a developer's
   * machine is after a first {@code --trust}. By default the fake is a fresh machine, as CI is: a
   * print run without {@code --trust}, {@code -f} or {@code --yolo} stops at the workspace trust
   * gate, as the real CLI does.
   */
  public FakeAgent trustedWorkspaces() {
    synchronized (this) {
      shimEnv.put(FakeEnvironment.TRUST, FakeEnvironment.TRUSTED);
      try {
        writeShim();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return this;
  }

  /**
   * The timing policy of later invocations: {@link Timing#FAST} (default), {@link Timing#RECORDED},
   * {@link Timing.Scale}, {@link Timing.MaxGap}; {@link Timing#parse} reads one from its spec
   * ({@code scale:0.5}).
   */
  public FakeAgent timing(Timing policy) {
    Objects.requireNonNull(policy, "policy");
    synchronized (this) {
      shimEnv.put(FakeEnvironment.TIMING, policy.toString());
      try {
        writeShim();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return this;
  }

  /**
   * Record mode: from now on the shims run {@code realCli} through the recorder; when the test
   * passes, its runs are kept as {@code target} (and {@code NAME.2.tape.ndjson}, ... for later
   * runs), redacted and normalised.
   */
  void recordTo(Path target, Path realCli) throws IOException {
    recordings = new Recordings(dir.resolve("recordings"), target);
    Shim.writeRecording(bin, runtime, dir.resolve("recordings"), realCli, dir.resolve("pids"));
  }

  /** Answers the next invocation not answered by a stub with {@code tape} (first in, first out). */
  public FakeAgent enqueue(Tape tape) {
    return enqueue(tape, "tape #" + (stubs.queued() + 1));
  }

  /**
   * As {@link #enqueue(Tape)}, replayed with {@code timing} instead of this fake's ({@link
   * #timing(Timing)}): a tape whose pauses matter among tapes that should run fast.
   */
  public FakeAgent enqueue(Tape tape, Timing timing) {
    Objects.requireNonNull(timing, "timing");
    noteGates(tape);
    stubs.enqueue(tape, "tape #" + (stubs.queued() + 1), Optional.of(timing));
    return this;
  }

  /** Enqueues the tape in {@code file}. */
  public FakeAgent enqueue(Path file) {
    return enqueue(TapeFiles.read(file), file.getFileName().toString());
  }

  /** Enqueues a tape from the test classpath, e.g. {@code "tapes/hello.tape.ndjson"}. */
  public FakeAgent enqueueResource(String resource) {
    return enqueue(resource(resource), resource);
  }

  private FakeAgent enqueue(Tape tape, String name) {
    noteGates(tape);
    stubs.enqueue(tape, name);
    return this;
  }

  /** The step gates of the tapes this fake was given, so a wait for another fails at once. */
  private final Set<String> gatesOfTapes = ConcurrentHashMap.newKeySet();

  private void noteGates(Tape tape) {
    for (Frame frame : tape.frames()) {
      if (frame instanceof Frame.Gate gate) {
        gatesOfTapes.add(gate.name());
      }
    }
  }

  /**
   * Fails at once when no tape given to this fake has {@code gate}: waiting for it would only run
   * out its time.
   */
  private void checkGate(String gate) {
    if (gatesOfTapes.contains(gate)) {
      return;
    }
    List<String> known = new ArrayList<>(new TreeSet<>(gatesOfTapes));
    throw new IllegalArgumentException(
        "no tape given to this fake has a gate named \""
            + gate
            + "\"; "
            + (known.isEmpty()
                ? "none of its tapes has a gate (Script.gate(NAME) adds one, a {\"t\":..,"
                    + "\"gate\":NAME} frame in a tape file)"
                : "its tapes have "
                    + String.join(", ", known.stream().map(g -> "\"" + g + "\"").toList())));
  }

  /** Answers invocations matching {@code pattern}; see {@link Stubbing}. */
  public Stubbing when(InvocationPattern pattern) {
    synchronized (this) {
      return new Stubbing(pattern);
    }
  }

  /**
   * What answers the invocations of one pattern: {@code reply(a, b)} answers the first with a, the
   * second with b, and leaves later ones unmatched unless {@link #repeatLast()} is called.
   */
  public final class Stubbing {
    private final InvocationPattern pattern;
    private final Stubs.Sequence sequence;
    private int replies;
    private Tape last;
    private String lastName;
    private Optional<Timing> timing = Optional.empty();
    private boolean mustBeUsed = true;

    private Stubbing(InvocationPattern pattern) {
      this.pattern = pattern;
      this.sequence = stubs.sequence(pattern::toRequestMapping);
      stubbings.add(this);
    }

    /**
     * The timing of this stub's replies, instead of the fake's ({@link FakeAgent#timing(Timing)}):
     * e.g. {@code agent.when(p).timing(Timing.RECORDED).reply(slowRun)} in a fake that is fast
     * otherwise. Call it before {@link #reply}.
     */
    public Stubbing timing(Timing policy) {
      Objects.requireNonNull(policy, "policy");
      if (replies > 0) {
        throw new IllegalStateException(
            "call timing(..) before reply(..): the replies of " + pattern + " are already set");
      }
      timing = Optional.of(policy);
      return this;
    }

    /** The tapes that answer matching invocations, in order. */
    public Stubbing reply(Tape first, Tape... then) {
      List<Tape> tapes = new ArrayList<>();
      tapes.add(first);
      tapes.addAll(List.of(then));
      for (Tape tape : tapes) {
        add(tape, "reply #" + (replies + 1) + " to " + pattern);
      }
      return this;
    }

    /** Replies with a tape from the test classpath. */
    public Stubbing replyResource(String resource) {
      add(resource(resource), resource);
      return this;
    }

    private void add(Tape tape, String name) {
      noteGates(tape);
      sequence.reply(tape, name, timing, mustBeUsed);
      replies++;
      last = tape;
      lastName = name;
    }

    /**
     * Its replies need not all be used: a replayed recording (a test may run the agent less often
     * than when it was recorded, or, under a class's {@code @AgentTape}, not at all).
     */
    Stubbing optional() {
      mustBeUsed = false;
      return this;
    }

    /** The last tape also answers every later matching invocation. */
    public Stubbing repeatLast() {
      if (last == null) {
        throw new IllegalStateException("call reply(..) first");
      }
      sequence.repeat(last, lastName + " (repeated)", timing);
      return this;
    }
  }

  static Tape resource(String resource) {
    String name = resource.startsWith("/") ? resource.substring(1) : resource;
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try (InputStream in = loader.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException(
            "no tape "
                + name
                + " on the test classpath "
                + "(put it under src/test/resources/"
                + name
                + ")");
      }
      return TapeReader.read(name, in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tape " + name, e);
    }
  }

  /**
   * Every invocation so far, oldest first: in the order they reached the control plane, which is
   * the order in which they took the queued tapes and each stub's replies. A turn of an ACP session
   * ({@code session/prompt}) is one invocation, with {@code outputFormat} {@code acp} and the
   * client's permission answers.
   */
  public List<Invocation> invocations() {
    List<LoggedRequest> requests =
        new ArrayList<>(plane.server().findAll(postRequestedFor(urlMatching(invocations))));
    requests.sort(Claims.inOrderOfArrival());
    Map<Long, Map<Integer, List<String>>> answers = answersByTurn();
    Map<Long, Integer> turns = new HashMap<>();
    List<Invocation> invocations = new ArrayList<>();
    for (LoggedRequest request : requests) {
      InvocationRecord r = InvocationRecord.parse(request.getBodyAsString());
      List<String> chosen = List.of();
      if (r.outputFormat().equals(ACP)) {
        int turn = turns.merge(r.pid(), 1, Integer::sum);
        chosen = answers.getOrDefault(r.pid(), Map.of()).getOrDefault(turn, List.of());
      }
      invocations.add(invocation(r, chosen));
    }
    return invocations;
  }

  /**
   * The command that starts this fake as an ACP agent ({@code agent acp}, the Agent Client Protocol
   * on stdio): {@link #executable()}, then {@code acp}. Each {@code session/prompt} the client
   * sends takes a tape as one print-mode invocation does (see docs/acp.md).
   */
  public List<String> acpCommand() {
    return List.of(executable().toString(), ACP);
  }

  /**
   * The options ACP clients chose when this fake asked for permission ({@code
   * session/request_permission}), in the order they answered, across all sessions: {@code
   * allow-once}, {@code allow-always}, {@code reject-once} (or another id the client sent, taken as
   * a rejection), or {@code cancelled}, {@code error} (a JSON-RPC error), {@code invalid} (a result
   * that is no outcome); the last two fail their turn.
   */
  public List<String> permissionAnswers() {
    List<String> all = new ArrayList<>();
    for (PermissionAnswer answer : answers()) {
      all.add(answer.optionId());
    }
    return all;
  }

  private List<PermissionAnswer> answers() {
    List<LoggedRequest> requests =
        new ArrayList<>(
            plane
                .server()
                .findAll(
                    postRequestedFor(
                        urlEqualTo("/agentdouble/" + id + "/" + PermissionAnswer.PATH))));
    requests.sort(Claims.inOrderOfArrival());
    List<PermissionAnswer> answers = new ArrayList<>();
    for (LoggedRequest request : requests) {
      try {
        answers.add(PermissionAnswer.parse(request.getBodyAsString()));
      } catch (IllegalArgumentException e) {
        // not the fake's: ignored
      }
    }
    return answers;
  }

  private Map<Long, Map<Integer, List<String>>> answersByTurn() {
    Map<Long, Map<Integer, List<String>>> byTurn = new HashMap<>();
    for (PermissionAnswer answer : answers()) {
      byTurn
          .computeIfAbsent(answer.pid(), pid -> new HashMap<>())
          .computeIfAbsent(answer.turn(), turn -> new ArrayList<>())
          .add(answer.optionId());
    }
    return byTurn;
  }

  /** The next invocation not taken yet, waiting up to {@link #DEFAULT_WAIT}. */
  public Invocation takeInvocation() {
    return takeInvocation(DEFAULT_WAIT);
  }

  /** The next invocation not taken yet, waiting up to {@code timeout}; fails with a summary. */
  public Invocation takeInvocation(Duration timeout) {
    String body;
    try {
      body = arrived.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the fake agent to be invoked", e);
    }
    synchronized (this) {
      if (body == null) {
        int all = invocations().size();
        int unused = stubs.unused().size();
        throw new AssertionError(
            "fake agent not invoked within "
                + describe(timeout)
                + " ("
                + all
                + (all == 1 ? " invocation" : " invocations")
                + ", "
                + taken
                + " taken, "
                + unused
                + (unused == 1 ? " tape" : " tapes")
                + " queued)");
      }
      taken++;
    }
    return parse(body);
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
    int count = count(pattern);
    if (times.allows(count)) {
      return;
    }
    StringBuilder message =
        new StringBuilder(
            "expected "
                + expectation(times)
                + " matching "
                + pattern
                + ", got "
                + count
                + " (of "
                + invocations().size()
                + ")");
    if (count < times.min()) {
      // the invocation that misses fewest of the pattern's conditions, and what it missed
      String closest = null;
      List<String> fewest = null;
      for (LoggedRequest request :
          plane.server().findAll(postRequestedFor(urlMatching(invocations)))) {
        List<String> misses = pattern.mismatches(request.getBodyAsString());
        if (!misses.isEmpty() && (fewest == null || misses.size() < fewest.size())) {
          closest = request.getBodyAsString();
          fewest = misses;
        }
      }
      if (closest != null) {
        message
            .append("\nclosest: ")
            .append(parse(closest).summary())
            .append("\n  it missed: ")
            .append(String.join("; ", fewest));
      }
    }
    throw new AssertionError(message.toString());
  }

  /** {@code 1 invocation}, {@code at least 2 invocations}, {@code no invocations}. */
  private static String expectation(Times times) {
    if (times.max() == 0) {
      return "no invocations";
    }
    int shown =
        times.max() == Integer.MAX_VALUE || times.min() == times.max() ? times.min() : times.max();
    String count = times.min() == times.max() ? Integer.toString(shown) : times.toString();
    return count + (shown == 1 ? " invocation" : " invocations");
  }

  /** The invocations that match {@code pattern}, oldest first. */
  public List<Invocation> findAll(InvocationPattern pattern) {
    List<LoggedRequest> requests =
        new ArrayList<>(
            plane.server().findAll(pattern.toRequest(postRequestedFor(urlMatching(invocations)))));
    requests.sort(Claims.inOrderOfArrival());
    List<Invocation> found = new ArrayList<>();
    for (LoggedRequest request : requests) {
      found.add(parse(request.getBodyAsString()));
    }
    return found;
  }

  private int count(InvocationPattern pattern) {
    return plane
        .server()
        .findAll(pattern.toRequest(postRequestedFor(urlMatching(invocations))))
        .size();
  }

  /** A condition for Awaitility: whether a run of the fake has reached {@code gate}. */
  public Callable<Boolean> reached(String gate) {
    checkGate(gate);
    Path file = gates.resolve(GateFiles.reached(gate));
    return () -> Files.exists(file);
  }

  /** Lets runs waiting at {@code gate} (and later ones reaching it) go on. */
  public void release(String gate) {
    try {
      Path file = gates.resolve(GateFiles.release(gate));
      if (!Files.exists(file)) {
        Files.createFile(file);
      }
    } catch (FileAlreadyExistsException e) {
      // released twice: fine
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release gate " + gate, e);
    }
  }

  /** Waits until a run reaches {@code gate}, at most {@code timeout}; fails with a summary. */
  public void awaitGate(String gate, Duration timeout) {
    checkGate(gate);
    long deadline = System.nanoTime() + timeout.toNanos();
    Path file = gates.resolve(GateFiles.reached(gate));
    // woken by the file system as the fake writes the gate's file, not by polling
    try (WatchService watch = gates.getFileSystem().newWatchService()) {
      gates.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
      while (!Files.exists(file)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(
              "fake agent did not reach gate \""
                  + gate
                  + "\" within "
                  + describe(timeout)
                  + " ("
                  + invocations().size()
                  + " invocations)");
        }
        WatchKey key = watch.poll(left, TimeUnit.NANOSECONDS);
        if (key != null) {
          key.pollEvents();
          key.reset();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch the gates folder " + gates, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for gate \"" + gate + "\"", e);
    }
  }

  /**
   * Makes this fake as it was when the extension made it, for a fake shared by the tests of a class
   * (a static field) or a test that starts over: ends its runs still alive, forgets its queued
   * tapes, its stubs and their sequences, the invocations and permission answers it recorded and
   * the invocations not taken yet, opens no gate (releases and arrivals are forgotten), forgets
   * trusted workspaces and what the CLI keeps between runs, and takes back {@link #timing(Timing)},
   * {@link #trustedWorkspaces()}, {@link #allowUnmatched()} and {@link #allowUnused()}. Its
   * executable and folder stay the same, as WireMock's {@code resetAll()} keeps its port.
   */
  public FakeAgent reset() {
    synchronized (this) {
      runs.endAll();
      stubs.clear();
      stubbings.clear();
      gatesOfTapes.clear();
      plane
          .server()
          .removeServeEventsMatching(
              WireMock.anyRequestedFor(urlMatching("/agentdouble/" + id + "/.*")).build());
      arrived.clear();
      taken = 0;
      strictUnmatched = settings.strictUnmatched();
      strictUnused = settings.strictUnused();
      shimEnv.remove(FakeEnvironment.TRUST);
      shimEnv.put(FakeEnvironment.TIMING, settings.timing().toString());
      try {
        emptyFolder(gates);
        emptyFolder(dir.resolve("state"));
        writeShim();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot reset the fake agent in " + dir, e);
      }
    }
    return this;
  }

  private static void emptyFolder(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(folder)) {
          Files.delete(p);
        }
      }
    }
  }

  /** Invocations that matched no stub do not fail the test. */
  public FakeAgent allowUnmatched() {
    strictUnmatched = false;
    return this;
  }

  /** Enqueued tapes left unused do not fail the test. */
  public FakeAgent allowUnused() {
    strictUnused = false;
    return this;
  }

  /**
   * Ends this fake: kills runs still alive, checks strictness, removes its stubs. Returns the
   * problems that fail the test, and adds notes (killed processes) to {@code notes}.
   */
  List<String> finish(List<String> notes) {
    return finish(notes, false);
  }

  /** As {@link #finish(List)}; a passed test keeps what record mode recorded. */
  List<String> finish(List<String> notes, boolean passed) {
    List<Long> stdinOpen = waitingForStdin();
    notes.addAll(runs.endAll());
    List<String> problems = new ArrayList<>();
    List<Long> neverAsked = new ArrayList<>();
    if (!stdinOpen.isEmpty()) {
      Set<Long> asked = new HashSet<>();
      invocations().forEach(i -> asked.add(i.pid()));
      for (long pid : stdinOpen) {
        if (asked.contains(pid)) {
          notes.add(
              "fake agent process "
                  + pid
                  + " had run its tape and was waiting for its stdin to close, as the CLI does:"
                  + " the code under test left the CLI's stdin open");
        } else {
          neverAsked.add(pid);
        }
      }
    }
    if (recordings != null) {
      recordings.keep(passed, notes, problems);
    }
    if (strictUnmatched) {
      for (Stubs.Unmatched request : stubs.unmatched()) {
        problems.add(
            "an invocation matched no stub and no enqueued tape: "
                + parse(request.body()).summary()
                + closest(request.body()).map(c -> "\n  " + c).orElse(""));
      }
    }
    if (!neverAsked.isEmpty()) {
      problems.add(
          (neverAsked.size() == 1 ? "process " : "processes ")
              + neverAsked.stream().map(String::valueOf).collect(Collectors.joining(", "))
              + " started but never asked for a tape: "
              + (neverAsked.size() == 1 ? "it was" : "they were")
              + " still waiting for stdin to close at the end of the test; give the CLI"
              + " /dev/null as stdin (ProcessBuilder.redirectInput(Redirect.from(new"
              + " File(\"/dev/null\")))), or close its stdin after writing the prompt");
    }
    if (strictUnused && neverAsked.isEmpty()) {
      for (String name : stubs.unused()) {
        problems.add(
            "enqueued " + name + " was never used (call allowUnused() if that is " + "expected)");
      }
      for (String name : stubs.unusedReplies()) {
        problems.add(
            "stub " + name + " was never used (call allowUnused() if that is " + "expected)");
      }
    }
    try {
      arrivals.close();
      noTapeReport.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop listening for invocations", e);
    }
    stubs.remove();
    plane
        .server()
        .removeServeEventsMatching(WireMock.anyRequestedFor(urlMatching(invocations)).build());
    return problems;
  }

  /**
   * What the fake prints when nothing answered {@code body}: the invocation in our terms, what was
   * queued, and the stub that came closest with the conditions it missed.
   */
  private String noTape(String body) {
    StringBuilder report =
        new StringBuilder("no stub and no queued tape answers ")
            .append(parse(body).summary())
            .append(", cwd ")
            .append(InvocationRecord.parse(body).cwd());
    report.append("\n").append(NoTapeReport.enqueued(stubs.queued()));
    closest(body).ifPresent(c -> report.append("\n").append(c));
    return report.toString();
  }

  /**
   * The stub whose pattern {@code body} misses least, with what it missed; or a stub it matches
   * whose replies are all used up.
   */
  private Optional<String> closest(String body) {
    Stubbing best = null;
    List<String> bestMisses = null;
    for (Stubbing s : stubbings) {
      List<String> misses = s.pattern.mismatches(body);
      if (best == null || misses.size() < bestMisses.size()) {
        best = s;
        bestMisses = misses;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    if (bestMisses.isEmpty()) {
      return Optional.of(
          "the stub for "
              + best.pattern
              + " matches, but its "
              + best.replies
              + (best.replies == 1 ? " reply is" : " replies are")
              + " used up (repeatLast() answers every later one)");
    }
    return Optional.of(
        "closest stub: " + best.pattern + "; it missed: " + String.join("; ", bestMisses));
  }

  /**
   * The runs still waiting for their stdin to end, by the markers they keep in the gates folder.
   */
  private List<Long> waitingForStdin() {
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> files = Files.list(gates)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.startsWith(GateFiles.STDIN_OPEN)) {
          try {
            long pid = Long.parseLong(name.substring(GateFiles.STDIN_OPEN.length()));
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
              pids.add(pid);
            }
          } catch (NumberFormatException e) {
            // not a marker of ours
          }
        }
      }
    } catch (IOException e) {
      return List.of(); // a diagnosis only
    }
    pids.sort(null);
    return pids;
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

  private static Invocation parse(String body) {
    return invocation(InvocationRecord.parse(body), List.of());
  }

  private static Invocation invocation(InvocationRecord r, List<String> permissionAnswers) {
    return Invocations.of(r, permissionAnswers);
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
