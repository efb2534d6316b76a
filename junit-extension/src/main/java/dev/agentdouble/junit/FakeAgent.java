package dev.agentdouble.junit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.VerificationException;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.github.tomakehurst.wiremock.verification.NearMiss;
import com.github.tomakehurst.wiremock.verification.diff.PlainTextDiffRenderer;
import dev.agentdouble.junit.internal.ControlPlane;
import dev.agentdouble.junit.internal.FakeAgentRuntime;
import dev.agentdouble.junit.internal.Shim;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import dev.agentdouble.tape.TapeWriter;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

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
  /** How long {@link #takeInvocation()} waits by default. */
  public static final Duration DEFAULT_WAIT = Duration.ofSeconds(5);

  private static final int QUEUE_PRIORITY = 10;
  private static final int STUB_PRIORITY = 5;

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
  private final List<Queued> queue = new CopyOnWriteArrayList<>();
  private final List<UUID> stubs = new CopyOnWriteArrayList<>();
  private volatile boolean strictUnmatched;
  private volatile boolean strictUnused;
  /** The bodies of the invocations not taken yet, as the control plane answered them. */
  private final BlockingQueue<String> arrived = new LinkedBlockingQueue<>();
  private final AutoCloseable arrivals;
  private int taken;
  private int sequences;
  private volatile Path recordTarget;

  private record Queued(UUID stub, String name) {}

  FakeAgent(ControlPlane plane, FakeAgentRuntime runtime, Path dir, Settings settings)
      throws IOException {
    this.plane = plane;
    this.runtime = runtime;
    this.dir = dir;
    this.bin = dir.resolve("bin");
    this.gates = Files.createDirectories(dir.resolve("gates"));
    this.path = "/agentdouble/" + id + "/invocations";
    this.invocations = path + "(/stopped)?";
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
   * Entries to add to a {@link ProcessBuilder}'s environment for consumers that look the CLI up
   * on {@code PATH}: {@code PATH} with {@link #binDir()} first, and the fake's configuration.
   */
  public Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    String path = System.getenv("PATH");
    env.put("PATH", bin + (path == null || path.isEmpty() ? "" : java.io.File.pathSeparator + path));
    synchronized (this) {
      env.putAll(shimEnv);
    }
    return env;
  }

  /**
   * Later invocations run on a machine where every workspace is already trusted, as a
   * developer's machine is after a first {@code --trust}. By default the fake is a fresh machine,
   * as CI is: a print run without {@code --trust}, {@code -f} or {@code --yolo} stops at the
   * workspace trust gate, as the real CLI does.
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
   * The timing policy of later invocations: {@link Timing#FAST} (default), {@link
   * Timing#RECORDED}, {@link Timing.Scale}, {@link Timing.MaxGap}; {@link Timing#parse} reads one
   * from its spec ({@code scale:0.5}).
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
    recordTarget = target;
    Shim.writeRecording(bin, runtime, dir.resolve("recordings"), realCli, dir.resolve("pids"));
  }

  /** The files a recorded test's runs are kept in, first run first. */
  static List<Path> recordedFiles(Path target, int count) {
    List<Path> files = new ArrayList<>();
    String name = target.getFileName().toString();
    String stem = name.endsWith(".tape.ndjson") ? name.substring(0, name.length() - 12) : name;
    for (int i = 1; i <= count; i++) {
      files.add(i == 1 ? target : target.resolveSibling(stem + "." + i + ".tape.ndjson"));
    }
    return files;
  }

  /** Answers the next invocation not answered by a stub with {@code tape} (first in, first out). */
  public FakeAgent enqueue(Tape tape) {
    return enqueue(tape, "tape #" + (queue.size() + 1));
  }

  /** Enqueues the tape in {@code file}. */
  public FakeAgent enqueue(Path file) {
    try {
      return enqueue(TapeReader.read(file), file.getFileName().toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tape " + file, e);
    }
  }

  /** Enqueues a tape from the test classpath, e.g. {@code "tapes/hello.tape.ndjson"}. */
  public FakeAgent enqueueResource(String resource) {
    return enqueue(resource(resource), resource);
  }

  private synchronized FakeAgent enqueue(Tape tape, String name) {
    int index = queue.size();
    String scenario = "queue-" + id;
    MappingBuilder mapping = post(urlEqualTo(path)).atPriority(QUEUE_PRIORITY)
        .inScenario(scenario)
        .whenScenarioStateIs(index == 0 ? Scenario.STARTED : "served-" + index)
        .willSetStateTo("served-" + (index + 1))
        .willReturn(tapeResponse(tape, name));
    StubMapping stub = plane.server().stubFor(mapping);
    queue.add(new Queued(stub.getId(), name));
    stubs.add(stub.getId());
    return this;
  }

  /** Answers invocations matching {@code pattern}; see {@link Stubbing}. */
  public Stubbing when(InvocationPattern pattern) {
    synchronized (this) {
      return new Stubbing(pattern, "sequence-" + id + "-" + (++sequences));
    }
  }

  /**
   * What answers the invocations of one pattern: {@code reply(a, b)} answers the first with a,
   * the second with b, and leaves later ones unmatched unless {@link #repeatLast()} is called.
   */
  public final class Stubbing {
    private final InvocationPattern pattern;
    private final String scenario;
    private final List<UUID> ids = new ArrayList<>();
    private Tape last;
    private String lastName;

    private Stubbing(InvocationPattern pattern, String scenario) {
      this.pattern = pattern;
      this.scenario = scenario;
    }

    /** The tapes that answer matching invocations, in order. */
    public Stubbing reply(Tape first, Tape... then) {
      List<Tape> tapes = new ArrayList<>();
      tapes.add(first);
      tapes.addAll(List.of(then));
      for (Tape tape : tapes) {
        add(tape, "reply #" + (ids.size() + 1) + " to " + pattern);
      }
      return this;
    }

    /** Replies with a tape from the test classpath. */
    public Stubbing replyResource(String resource) {
      add(resource(resource), resource);
      return this;
    }

    private void add(Tape tape, String name) {
      int index = ids.size();
      MappingBuilder mapping = pattern.toRequestMapping(post(urlEqualTo(path)))
          .atPriority(STUB_PRIORITY)
          .inScenario(scenario)
          .whenScenarioStateIs(index == 0 ? Scenario.STARTED : "replied-" + index)
          .willSetStateTo("replied-" + (index + 1))
          .willReturn(tapeResponse(tape, name));
      UUID stubId = plane.server().stubFor(mapping).getId();
      ids.add(stubId);
      stubs.add(stubId);
      last = tape;
      lastName = name;
    }

    /** The last tape also answers every later matching invocation. */
    public Stubbing repeatLast() {
      if (last == null) {
        throw new IllegalStateException("call reply(..) first");
      }
      MappingBuilder mapping = pattern.toRequestMapping(post(urlEqualTo(path)))
          .atPriority(STUB_PRIORITY)
          .inScenario(scenario)
          .whenScenarioStateIs("replied-" + ids.size())
          .willReturn(tapeResponse(last, lastName + " (repeated)"));
      UUID stubId = plane.server().stubFor(mapping).getId();
      stubs.add(stubId);
      return this;
    }
  }

  private static com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder tapeResponse(
      Tape tape, String name) {
    return aResponse().withStatus(200)
        .withHeader("Content-Type", "application/x-ndjson")
        .withHeader(ControlSecret.TAPE_HEADER, name)
        .withBody(TapeWriter.toBytes(tape));
  }

  static Tape resource(String resource) {
    String name = resource.startsWith("/") ? resource.substring(1) : resource;
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try (InputStream in = loader.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException("no tape " + name + " on the test classpath "
            + "(put it under src/test/resources/" + name + ")");
      }
      return TapeReader.read(name, in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tape " + name, e);
    }
  }

  /** Every invocation so far, oldest first. */
  public List<Invocation> invocations() {
    List<LoggedRequest> requests = new ArrayList<>(
        plane.server().findAll(postRequestedFor(urlMatching(invocations))));
    requests.sort(Comparator.comparing(LoggedRequest::getLoggedDate));
    List<Invocation> invocations = new ArrayList<>();
    for (LoggedRequest request : requests) {
      invocations.add(parse(request.getBodyAsString()));
    }
    return invocations;
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
        int unused = unusedQueued().size();
        throw new AssertionError("fake agent not invoked within " + describe(timeout) + " ("
            + all + (all == 1 ? " invocation" : " invocations") + ", " + taken + " taken, "
            + unused + (unused == 1 ? " tape" : " tapes") + " queued)");
      }
      taken++;
    }
    return parse(body);
  }

  /** Fails unless exactly {@code times} invocations match {@code pattern}, saying which came closest. */
  public void verify(int times, InvocationPattern pattern) {
    try {
      plane.server().verify(times, pattern.toRequest(postRequestedFor(urlMatching(invocations))));
    } catch (VerificationException e) {
      int count = count(pattern);
      StringBuilder message = new StringBuilder("expected " + times
          + (times == 1 ? " invocation" : " invocations") + " matching " + pattern + ", got " + count
          + " (of " + invocations().size() + ")");
      if (count < times) {
        List<NearMiss> misses = plane.server().findAllNearMissesFor(
            pattern.toRequest(postRequestedFor(urlMatching(invocations))));
        if (!misses.isEmpty()) {
          NearMiss closest = misses.get(0);
          message.append("\nclosest: ").append(parse(closest.getRequest().getBodyAsString()).summary())
              .append('\n').append(DIFF.render(closest.getDiff()));
        }
      }
      throw new AssertionError(message.toString(), e);
    }
  }

  private static final PlainTextDiffRenderer DIFF = new PlainTextDiffRenderer(Map.of());

  private int count(InvocationPattern pattern) {
    return plane.server().findAll(pattern.toRequest(postRequestedFor(urlMatching(invocations)))).size();
  }

  /** A condition for Awaitility: whether a run of the fake has reached {@code gate}. */
  public Callable<Boolean> reached(String gate) {
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
    } catch (java.nio.file.FileAlreadyExistsException e) {
      // released twice: fine
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release gate " + gate, e);
    }
  }

  /** Waits until a run reaches {@code gate}, at most {@code timeout}; fails with a summary. */
  public void awaitGate(String gate, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Path file = gates.resolve(GateFiles.reached(gate));
    // woken by the file system as the fake writes the gate's file, not by polling
    try (WatchService watch = gates.getFileSystem().newWatchService()) {
      gates.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
      while (!Files.exists(file)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("fake agent did not reach gate \"" + gate + "\" within "
              + describe(timeout) + " (" + invocations().size() + " invocations)");
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

  private List<Queued> unusedQueued() {
    List<Queued> unused = new ArrayList<>(queue);
    if (unused.isEmpty()) {
      return unused;
    }
    for (ServeEvent event : plane.server().getAllServeEvents()) {
      StubMapping stub = event.getStubMapping();
      if (event.getWasMatched() && stub != null) {
        unused.removeIf(q -> q.stub().equals(stub.getId()));
      }
    }
    return unused;
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
    for (long pid : pids()) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isPresent() && process.get().isAlive() && isFake(process.get())) {
        process.get().descendants().forEach(ProcessHandle::destroyForcibly);
        process.get().destroyForcibly();
        try {
          process.get().onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
          // reported below either way
        }
        notes.add("fake agent process " + pid + " was still running at the end of the test: killed");
      }
    }
    List<String> problems = new ArrayList<>();
    if (recordTarget != null) {
      keepRecordings(passed, notes, problems);
    }
    WireMockServer server = plane.server();
    if (strictUnmatched) {
      List<LoggedRequest> unmatched = new ArrayList<>();
      for (LoggedRequest request : server.findAllUnmatchedRequests()) {
        if (request.getUrl().equals(path)) {
          unmatched.add(request);
        }
      }
      for (LoggedRequest request : unmatched) {
        problems.add("an invocation matched no stub and no enqueued tape: "
            + parse(request.getBodyAsString()).summary() + nearest(request));
      }
    }
    if (strictUnused) {
      for (Queued q : unusedQueued()) {
        problems.add("enqueued " + q.name() + " was never used (call allowUnused() if that is "
            + "expected)");
      }
    }
    try {
      arrivals.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop listening for invocations", e);
    }
    for (UUID stub : stubs) {
      server.removeStub(stub);
    }
    server.removeServeEventsMatching(
        com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor(urlMatching(invocations))
            .build());
    return problems;
  }

  private void keepRecordings(boolean passed, List<String> notes, List<String> problems) {
    List<Path> recorded = new ArrayList<>();
    try (var files = Files.list(dir.resolve("recordings"))) {
      files.filter(p -> p.getFileName().toString().endsWith(".tape.ndjson")).sorted()
          .forEach(recorded::add);
    } catch (IOException e) {
      problems.add("cannot read the recordings in " + dir.resolve("recordings") + ": " + e);
      return;
    }
    if (!passed) {
      notes.add("the test failed: its " + recorded.size() + " recorded run(s) were not kept");
      return;
    }
    if (recorded.isEmpty()) {
      problems.add("record mode: the test never ran the agent, so there is nothing to keep as "
          + recordTarget);
      return;
    }
    List<Path> targets = recordedFiles(recordTarget, recorded.size());
    try {
      Files.createDirectories(recordTarget.toAbsolutePath().getParent());
      for (int i = 0; i < recorded.size(); i++) {
        TapeReader.read(recorded.get(i)).write(targets.get(i));
      }
      notes.add("recorded " + recorded.size() + " run(s) into " + recordTarget);
    } catch (IOException e) {
      problems.add("cannot keep the recording as " + recordTarget + ": " + e.getMessage());
    }
  }

  private String nearest(LoggedRequest request) {
    for (NearMiss miss : plane.server().findNearMissesFor(request)) {
      if (miss.getStubMapping() != null && stubs.contains(miss.getStubMapping().getId())) {
        return "\n  closest stub:\n" + DIFF.render(miss.getDiff()).strip().replace("\n", "\n  ");
      }
    }
    return "";
  }

  /** How many runs have started so far (each shim start counts), first run 0. */
  int runsStarted() {
    return pids().size();
  }

  /**
   * Ends the runs from the {@code from}-th on that are still alive (SIGKILL), so that a consumer
   * blocked reading them sees their end; returns, for each, what it was: its process, the tape it
   * was replaying, for which prompt, how that tape ends, and the last step gate it reached.
   */
  List<String> endRuns(int from) {
    List<Long> all = pids();
    List<String> ended = new ArrayList<>();
    for (long pid : all.subList(Math.min(from, all.size()), all.size())) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isEmpty() || !process.get().isAlive() || !isFake(process.get())) {
        continue;
      }
      String what = describeRun(pid);
      process.get().descendants().forEach(ProcessHandle::destroyForcibly);
      process.get().destroyForcibly();
      try {
        process.get().onExit().get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        // said as ended either way: SIGKILL cannot be refused
      }
      ended.add(what);
    }
    return ended;
  }

  /** One run, from the journal line it wrote before replaying and the gates it reached. */
  private String describeRun(long pid) {
    StringBuilder what = new StringBuilder("process ").append(pid);
    Optional<JsonNode> entry = journalEntry(pid);
    if (entry.isEmpty() || !entry.get().hasNonNull(InvocationRecord.TAPE)) {
      what.append(": before it had a tape (starting, or asking for one)");
    } else {
      JsonNode e = entry.get();
      String tape = e.get(InvocationRecord.TAPE).asText()
          .replaceFirst("^" + Pattern.quote(InvocationRecord.CONTROL_TAPE + " "), "");
      what.append(": tape \"").append(tape).append("\" (prompt \"")
          .append(abbreviate(e.path(InvocationRecord.PROMPT).asText(""))).append("\"), which ends ");
      if (e.has(InvocationRecord.HANG)) {
        what.append(e.path(InvocationRecord.CLOSE_STDOUT).asBoolean() ? "in a hang after closing stdout"
            : "in a hang");
      } else if (e.has(InvocationRecord.SIGNAL)) {
        what.append("by ").append(e.get(InvocationRecord.SIGNAL).asText());
      } else {
        what.append("with exit ").append(e.path(InvocationRecord.EXIT).asText("?"));
      }
    }
    lastGate(pid).ifPresent(gate -> what.append("; the last gate it reached: \"").append(gate)
        .append('"'));
    return what.toString();
  }

  private Optional<JsonNode> journalEntry(long pid) {
    Path journal = dir.resolve("journal.ndjson");
    try {
      if (Files.exists(journal)) {
        for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            JsonNode node = Json.tree(line);
            if (node.path(InvocationRecord.PID).asLong() == pid) {
              return Optional.of(node);
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // said as "before it had a tape"
    }
    return Optional.empty();
  }

  /** The gate whose {@code NAME.reached} file this run wrote last. */
  private Optional<String> lastGate(long pid) {
    String mark = GateFiles.mark(pid);
    try (var files = Files.list(gates)) {
      return files.filter(f -> f.getFileName().toString().endsWith(GateFiles.REACHED))
          .filter(f -> {
            try {
              return Files.readString(f, StandardCharsets.US_ASCII).equals(mark);
            } catch (IOException e) {
              return false;
            }
          })
          .max(Comparator.comparing(f -> f.toFile().lastModified()))
          .map(f -> f.getFileName().toString().replaceFirst(
              Pattern.quote(GateFiles.REACHED) + "$", ""));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  private static boolean isFake(ProcessHandle process) {
    return process.info().commandLine()
        .map(c -> c.contains(FakeAgentRuntime.MAIN) || c.contains(FakeAgentRuntime.RECORDER))
        .orElse(true);
  }

  private List<Long> pids() {
    Path file = dir.resolve("pids");
    List<Long> pids = new ArrayList<>();
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
          if (!line.isBlank()) {
            pids.add(Long.parseLong(line.strip()));
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // nothing to kill that can be told
    }
    return pids;
  }

  private static Invocation parse(String body) {
    InvocationRecord r = InvocationRecord.parse(body);
    return new Invocation(r.argv(), r.prompt(), r.cwd(), r.outputFormat(), r.model(), r.stdin(),
        r.pid(), r.env(), r.stoppedBy());
  }

  private static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
