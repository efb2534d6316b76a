import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.process.FakeAgentRuntime;
import dev.agentdouble.junit.internal.process.Shim;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The JUnit extension's per-test overhead (bench/run --only extension; see bench/README.md).
 *
 * <pre>
 *   java -cp ... ExtensionBench run CLASS TAPE LAUNCHER LINES RESULTS.json
 *   java -cp ... ExtensionBench startup WORKDIR
 *   java -cp ... ExtensionBench diagnose TAPE LINES WORKDIR ROUNDS POSTCLASSES
 *   java -cp ... ExtensionBench wiremock CLASS PLAIN RESULTS.json
 *   java -cp ... ExtensionBench first CLASS TESTS TAPE|- LINES
 * </pre>
 *
 * {@code run} executes the generated test class CLASS (N tests, each one invocation of the fake
 * agent through the extension) with the JUnit Platform launcher, and after each test, in the same
 * JVM and with the same spawning code, one direct run of the fake ({@code LAUNCHER} with {@code
 * AGENTDOUBLE_TAPE}): A B A B... A listener times each test from its start to its end, so a test's
 * time holds everything the extension does for it (field or parameter injection, the shim, the
 * stub, the invocation, the end-of-test checks, the clean-up). Writes every figure to RESULTS.json.
 *
 * <p>From the second test on, each test also runs, right after its invocation, the fake through a
 * shim written by the extension's own {@code Shim} with the extension's runtime (its classpath and
 * CDS archive) and the first test's fake's configuration, but with {@code AGENTDOUBLE_TAPE} instead
 * of the control plane and its queue: in the same place, it splits the invocation's cost into what
 * taking the tape costs and what the shim costs. Its time is taken off the test's.
 *
 * <p>{@code wiremock} is the anchor beside it: what a test costs with WireMock's own JUnit extension,
 * the generated CLASS's N tests under {@code WireMockExtension} (a port of its own, its server
 * reset before each test), each registering a stub and making one request of it ({@link
 * #wiremockBody}), against PLAIN's N empty tests without any extension; after a warm-up round of
 * each, the two classes run in turn, A B B A.
 *
 * <p>{@code first} runs the first TESTS tests of CLASS in this JVM, fresh, in one launcher session
 * as a build tool does, and prints what its first test cost beyond its later ones ({@link #first}).
 *
 * <p>{@code startup} times, in a fresh JVM, what the first test pays once: starting WireMock and
 * making the fake's class-data sharing archive.
 *
 * <p>{@code diagnose} gathers the evidence of where the control-plane round trip goes (see
 * bench/README.md): the same fake, through shims written by the extension's {@code Shim}, asking
 * a WireMock control plane (as the extension does), reading {@code AGENTDOUBLE_TAPE} instead, or
 * asking the control plane with a CDS archive trained on such a run; one POST in a fresh JVM with
 * HttpURLConnection, a Socket or a SocketChannel ({@code ControlPost}); WireMock's own time for a
 * POST from a warm client; and the classes the archive lacks on the control-plane path.
 */
public final class ExtensionBench {
  static final List<String> ARGV = List.of("-p", "--trust", "--output-format", "stream-json", "hi");

  /** Set by {@code run} for the generated tests. */
  static String tape;
  static int lines;
  static Path stderrLog;

  /** The invocation time measured inside each test, in the order the tests ran. */
  static final List<Long> invocationNs = new ArrayList<>();

  /**
   * The time of the shim without the control plane, run inside each test after its invocation
   * (-1 in the first test, before that shim is written), in the order the tests ran.
   */
  static final List<Long> noHttpNs = new ArrayList<>();

  /** The shim without the control plane, written after the first test. */
  static List<String> noHttp;

  /** The first test's fake's configuration, as its shim bakes it in (FakeAgent.environment()). */
  static Map<String, String> agentEnv;

  private ExtensionBench() {}

  /** One spawned process, read to the end of its stdout and reaped. */
  record Spawned(long ns, int exit, int lines) {}

  /**
   * Spawns {@code command} as a test would: stdin /dev/null, stdout read to the end, stderr
   * appended to the log; timed from just before the spawn to just after the exit.
   */
  static Spawned spawn(List<String> command, Map<String, String> env) {
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectError(ProcessBuilder.Redirect.appendTo(stderrLog.toFile()));
    pb.environment().keySet().removeIf(k -> k.startsWith(FakeEnvironment.PREFIX));
    pb.environment().putAll(env);
    long t0 = System.nanoTime();
    try {
      Process p = pb.start();
      int n = 0;
      try (InputStream out = p.getInputStream()) {
        byte[] buf = new byte[65536];
        for (int k = out.read(buf); k >= 0; k = out.read(buf)) {
          for (int i = 0; i < k; i++) {
            if (buf[i] == '\n') {
              n++;
            }
          }
        }
      }
      int exit = p.waitFor();
      return new Spawned(System.nanoTime() - t0, exit, n);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static void check(Spawned s, String what) {
    if (s.exit() != 0 || s.lines() != lines) {
      throw new AssertionError(what + ": exit " + s.exit() + ", " + s.lines() + " stdout lines ("
          + lines + " expected); see bench/out/stderr.log");
    }
  }

  /** A listener that notes when each test starts. */
  abstract static class Timed implements TestExecutionListener {
    long started;

    @Override
    public void executionStarted(TestIdentifier id) {
      if (id.isTest()) {
        started = System.nanoTime();
      }
    }
  }

  /** The body of every generated test: one invocation of the fake through the extension. */
  public static void invoke(FakeAgent agent) {
    if (agentEnv == null) {
      agentEnv = new java.util.LinkedHashMap<>(agent.environment());
      agentEnv.remove("PATH");
    }
    agent.enqueue(Path.of(tape));
    List<String> command = new ArrayList<>();
    command.add(agent.executable().toString());
    command.addAll(ARGV);
    Spawned s = spawn(command, Map.of());
    check(s, "the fake through the extension");
    invocationNs.add(s.ns());
    // from the second test on, in the same place: the same shim reading AGENTDOUBLE_TAPE (outside
    // the test, in the listener, the same run takes some ms less: the test JVM's own work around a
    // test, the JIT's included, competes with the fake's start less there)
    if (noHttp != null) {
      Spawned c = spawn(noHttp, Map.of());
      check(c, "the fake through a shim, without the control plane");
      noHttpNs.add(c.ns());
    } else {
      noHttpNs.add(-1L);
    }
  }

  public static void main(String[] args) throws Exception {
    long mainNs = System.nanoTime();
    switch (args.length > 0 ? args[0] : "") {
      case "run" -> System.exit(run(args[1], args[2], args[3], Integer.parseInt(args[4]),
          Path.of(args[5])));
      case "startup" -> startup(Path.of(args[1]));
      case "wiremock" -> System.exit(wiremock(args[1], args[2], Path.of(args[3])));
      case "options" -> options(args[1]);
      case "first" -> System.exit(first(mainNs, args[1], Integer.parseInt(args[2]), args[3],
          Integer.parseInt(args[4])));
      case "diagnose" -> diagnose(args[1], Integer.parseInt(args[2]), Path.of(args[3]),
          Integer.parseInt(args[4]), args[5]);
      default -> {
        System.err.println("usage: ExtensionBench run CLASS TAPE LAUNCHER LINES RESULTS.json"
            + " | startup WORKDIR");
        System.exit(2);
      }
    }
  }

  static int run(String testClass, String tapeFile, String launcher, int expectedLines,
      Path results) throws IOException {
    tape = Path.of(tapeFile).toAbsolutePath().toString();
    lines = expectedLines;
    stderrLog = Path.of("stderr.log").toAbsolutePath();
    List<String> direct = new ArrayList<>();
    direct.add(launcher);
    direct.addAll(ARGV);
    Map<String, String> directEnv = Map.of(FakeEnvironment.TAPE, tape, FakeEnvironment.TIMING,
        "fast");

    List<String> names = new ArrayList<>();
    List<Long> testNs = new ArrayList<>();
    List<Long> baselineNs = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Path work = Files.createTempDirectory(Path.of("").toAbsolutePath(), "extension-bench-");
    TestExecutionListener listener = new Timed() {
      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!id.isTest()) {
          if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
            failures.add(id.getDisplayName() + ": " + result.getThrowable().map(Throwable::toString)
                .orElse(result.getStatus().toString()));
          }
          return;
        }
        testNs.add(System.nanoTime() - started);
        names.add(id.getDisplayName());
        if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
          failures.add(id.getDisplayName() + ": " + result.getThrowable().map(Throwable::toString)
              .orElse(result.getStatus().toString()));
        }
        // the baseline, interleaved: the same invocation of the fake, run directly
        Spawned s = spawn(direct, directEnv);
        check(s, "the fake run directly");
        baselineNs.add(s.ns());
        if (noHttp == null) {
          // after the first test, so that it does not change what the first test pays
          noHttp = noHttpShim(work);
        }
      }
    };
    LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(testClass))
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .build();
    long wallNs;
    // one launcher session for discovery and execution, as build tools run it (the extension's
    // early start begins in the session and ends with it)
    try (org.junit.platform.launcher.LauncherSession session = LauncherFactory.openSession()) {
      Launcher junit = session.getLauncher();
      TestPlan plan = junit.discover(request);
      long t0 = System.nanoTime();
      junit.execute(plan, listener);
      wallNs = System.nanoTime() - t0;
    }

    StringBuilder json = new StringBuilder();
    json.append("{\"wallNs\":").append(wallNs);
    json.append(",\"names\":[");
    for (int i = 0; i < names.size(); i++) {
      json.append(i == 0 ? "" : ",").append('"').append(names.get(i).replace("\"", "")).append('"');
    }
    json.append("],\"testNs\":").append(testNs);
    json.append(",\"invocationNs\":").append(invocationNs);
    json.append(",\"baselineNs\":").append(baselineNs);
    json.append(",\"noHttpNs\":").append(noHttpNs);
    json.append(",\"failures\":[");
    for (int i = 0; i < failures.size(); i++) {
      json.append(i == 0 ? "" : ",").append('"')
          .append(failures.get(i).replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n"))
          .append('"');
    }
    json.append("]}\n");
    Files.writeString(results, json, StandardCharsets.UTF_8);
    deleteTree(work);
    for (String f : failures) {
      System.err.println("bench: failed: " + f);
    }
    return failures.isEmpty() ? 0 : 1;
  }

  /**
   * A shim as the extension writes it ({@code Shim.write}, the extension's fake runtime: its
   * classpath and CDS archive), configured as the first test's fake was (its timing, owner, gate
   * timeout...), but with {@code AGENTDOUBLE_TAPE} instead of the control plane and its queue, and
   * folders of its own: the difference to a test's invocation is the taking of the tape alone.
   */
  static List<String> noHttpShim(Path work) {
    try {
      FakeAgentRuntime runtime = FakeAgentRuntime.create(work);
      Path dir = Files.createDirectories(work.resolve("no-http"));
      Map<String, String> env = new java.util.LinkedHashMap<>(agentEnv);
      env.remove(FakeEnvironment.URL);
      env.remove(FakeEnvironment.SECRET);
      env.remove(FakeEnvironment.QUEUE);
      env.put(FakeEnvironment.TAPE, tape);
      env.put(FakeEnvironment.GATES, Files.createDirectories(dir.resolve("gates")).toString());
      env.put(FakeEnvironment.JOURNAL, dir.resolve("journal.ndjson").toString());
      env.put(FakeEnvironment.STATE_DIR, Files.createDirectories(dir.resolve("state")).toString());
      Shim.write(dir.resolve("bin"), runtime, env, dir.resolve("pids"));
      List<String> command = new ArrayList<>();
      command.add(dir.resolve("bin/cursor-agent").toString());
      command.addAll(ARGV);
      return command;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void deleteTree(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /**
   * The body of every test of the WireMock anchor under its extension: a stub, one GET of it with
   * HttpURLConnection (as code under test would), the answer checked, the stub removed.
   */
  public static void wiremockBody(com.github.tomakehurst.wiremock.client.WireMock client, int port) {
    var stub = client.register(com.github.tomakehurst.wiremock.client.WireMock.get("/agent")
        .willReturn(com.github.tomakehurst.wiremock.client.WireMock.ok("hi")));
    try {
      var c = (java.net.HttpURLConnection) java.net.URI.create("http://localhost:" + port + "/agent")
          .toURL().openConnection();
      try (InputStream in = c.getInputStream()) {
        String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        if (c.getResponseCode() != 200 || !body.equals("hi")) {
          throw new AssertionError("WireMock answered " + c.getResponseCode() + " " + body);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    client.removeStubMapping(stub);
  }

  /**
   * Runs the WireMock anchor: CLASS (its tests through WireMock's extension) and PLAIN (the same
   * bodies against a server of their own, no extension), in turn, twice each, in this JVM; every
   * test timed by a listener from its start to its end.
   */
  static int wiremock(String testClass, String plainClass, Path results) throws IOException {
    List<Long> testNs = new ArrayList<>();
    List<Long> baselineNs = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    Launcher junit = LauncherFactory.create();
    // a warm-up round of each (not kept: the JIT and the first of everything), then A B B A
    String[] order = {plainClass, testClass, testClass, plainClass, plainClass, testClass};
    for (int round = 0; round < order.length; round++) {
      String name = order[round];
      boolean first = round < 2;
      // the warm-up keeps only its first test, negated, below
      List<Long> into = first ? new ArrayList<>() : name.equals(plainClass) ? baselineNs : testNs;
      List<Long> kept = name.equals(plainClass) ? baselineNs : testNs;
      TestExecutionListener listener = new Timed() {
        private boolean skipped = !first;

        @Override
        public void executionFinished(TestIdentifier id, TestExecutionResult result) {
          long ns = System.nanoTime() - started;
          if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
            failures.add(id.getDisplayName() + ": " + result.getThrowable()
                .map(Throwable::toString).orElse(result.getStatus().toString()));
          }
          if (id.isTest()) {
            // a class's first test pays what starts once (WireMock's server, the JIT's first work)
            if (!skipped) {
              skipped = true;
              kept.add(-ns);
              return;
            }
            into.add(ns);
          }
        }
      };
      LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
          .selectors(DiscoverySelectors.selectClass(name))
          .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
          .build();
      junit.execute(junit.discover(request), listener);
    }
    Files.writeString(results, "{\"testNs\":" + testNs + ",\"baselineNs\":" + baselineNs
        + ",\"failures\":" + failures.size() + "}\n", StandardCharsets.UTF_8);
    for (String f : failures) {
      System.err.println("bench: failed: " + f);
    }
    return failures.isEmpty() ? 0 : 1;
  }

  /**
   * The first test of a fresh JVM (this one), as a build tool runs it: one launcher session, one
   * request selecting CLASS, filtered to its first {@code tests} methods (t001, t002, ...),
   * discovered and executed in it. Prints, in ns, from the class's start ({@code executionStarted} of its
   * container, so its {@code beforeAll} is in) to the end of its first test, each later test's own
   * time, and the time from {@code main} to the end of its first test and, as evidence of when an
   * early start can begin, to the session's opening, discovery's start, the test plan's start and
   * the class's start.
   * TAPE and LINES are the generated AgentDouble class's ({@link #invoke}); "-" for WireMock's.
   */
  static int first(long mainNs, String testClass, int tests, String tapeFile, int expectedLines) {
    if (!tapeFile.equals("-")) {
      tape = Path.of(tapeFile).toAbsolutePath().toString();
      lines = expectedLines;
    }
    stderrLog = Path.of("stderr.log").toAbsolutePath();
    long[] classStart = {0};
    long[] firstEnd = {0};
    long[] discoveryStart = {0};
    long[] planStart = {0};
    List<Long> laterNs = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    TestExecutionListener listener = new Timed() {
      @Override
      public void testPlanExecutionStarted(TestPlan plan) {
        planStart[0] = System.nanoTime();
      }

      @Override
      public void executionStarted(TestIdentifier id) {
        super.executionStarted(id);
        if (classStart[0] == 0 && id.getSource().filter(
            org.junit.platform.engine.support.descriptor.ClassSource.class::isInstance).isPresent()) {
          classStart[0] = System.nanoTime();
        }
      }

      @Override
      public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        long now = System.nanoTime();
        if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
          failures.add(id.getDisplayName() + ": " + result.getThrowable()
              .map(Throwable::toString).orElse(result.getStatus().toString()));
        }
        if (id.isTest()) {
          if (firstEnd[0] == 0) {
            firstEnd[0] = now;
          } else {
            laterNs.add(now - started);
          }
        }
      }
    };
    // the class selected, as Surefire and Gradle do, its tests past the first few filtered out
    StringBuilder names = new StringBuilder();
    for (int i = 1; i <= tests; i++) {
      names.append(i == 1 ? "" : "|").append(String.format("t%03d", i));
    }
    LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
        .selectors(DiscoverySelectors.selectClass(testClass))
        .filters(org.junit.platform.launcher.MethodFilter.includeMethodNamePatterns(
            ".*[#.](" + names + ")(\\(.*\\))?"))
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .listeners(new org.junit.platform.launcher.LauncherDiscoveryListener() {
          @Override
          public void launcherDiscoveryStarted(LauncherDiscoveryRequest r) {
            discoveryStart[0] = System.nanoTime();
          }
        });
    long sessionStart;
    try (org.junit.platform.launcher.LauncherSession session = LauncherFactory.openSession()) {
      sessionStart = System.nanoTime();
      session.getLauncher().execute(request.build(), listener);
    }
    for (String f : failures) {
      System.err.println("bench: failed: " + f);
    }
    if (laterNs.size() != tests - 1) {
      System.err.println("bench: " + (laterNs.size() + 1) + " tests ran, " + tests + " expected");
      return 1;
    }
    System.out.println("{\"firstNs\":" + (firstEnd[0] - classStart[0]) + ",\"laterNs\":" + laterNs
        + ",\"mainToClassNs\":" + (classStart[0] - mainNs) + ",\"mainToFirstNs\":"
        + (firstEnd[0] - mainNs) + ",\"mainToSessionNs\":" + (sessionStart - mainNs)
        + ",\"mainToDiscoveryNs\":" + (discoveryStart[0] - mainNs) + ",\"mainToPlanNs\":"
        + (planStart[0] - mainNs) + ",\"invocationNs\":" + invocationNs + "}");
    return failures.isEmpty() ? 0 : 1;
  }

  /**
   * In a fresh JVM (this one): WireMock started on the control plane's options ({@code
   * ControlPlane.loopback}) with one more, named by {@code option} ("none" for none), and stopped;
   * prints the start's wall time and this JVM's CPU time to the end of the start, in ns.
   */
  static void options(String option) {
    long t0 = System.nanoTime();
    var options = ControlPlane.loopback(0);
    switch (option) {
      case "none" -> { }
      case "http2" -> options.http2PlainDisabled(true).http2TlsDisabled(true);
      case "templating" -> options.templatingEnabled(false);
      case "xml" -> options.disableOptimizeXmlFactoriesLoading(true);
      case "gzip" -> options.gzipDisabled(true);
      case "logging" -> options.stubRequestLoggingDisabled(true);
      case "threads" -> options.containerThreads(8);
      case "all" -> options.http2PlainDisabled(true).http2TlsDisabled(true).templatingEnabled(false)
          .disableOptimizeXmlFactoriesLoading(true).gzipDisabled(true)
          .stubRequestLoggingDisabled(true);
      default -> throw new IllegalArgumentException("no option " + option);
    }
    var server = new com.github.tomakehurst.wiremock.WireMockServer(options);
    server.start();
    long t1 = System.nanoTime();
    long cpu = ((com.sun.management.OperatingSystemMXBean)
        java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    server.stop();
    System.out.println("{\"startNs\":" + (t1 - t0) + ",\"cpuNs\":" + cpu + "}");
  }

  /** What {@code diagnose} prints: medians in ms, and counts. */
  static void diagnose(String tapeFile, int expectedLines, Path work, int rounds, String postClasses)
      throws Exception {
    tape = Path.of(tapeFile).toAbsolutePath().toString();
    lines = expectedLines;
    stderrLog = Path.of("stderr.log").toAbsolutePath();
    Files.createDirectories(work);
    ControlPlane plane = ControlPlane.start();
    try {
      String path = "/agentdouble/diagnose";
      plane.server().stubFor(com.github.tomakehurst.wiremock.client.WireMock.post(
              com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo(path + "/invocations"))
          .willReturn(com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(200)
              .withHeader("X-AgentDouble-Tape", "diagnose")
              .withBody(Files.readAllBytes(Path.of(tape)))));
      String url = plane.baseUrl() + path;
      FakeAgentRuntime runtime = FakeAgentRuntime.create(work);
      if (runtime.archive().isEmpty()) {
        throw new IllegalStateException("the extension's runtime made no CDS archive");
      }
      String archive = runtime.archive().get().toString();
      Path viaUrl = shim(work.resolve("url"), runtime, FakeEnvironment.URL, url,
          Map.of(FakeEnvironment.SECRET, plane.secret()));
      Path viaTape = shim(work.resolve("tape"), runtime, FakeEnvironment.TAPE, tape);
      // the same shim, its java made to archive what a control-plane run loads, then to use that
      Path trained = work.resolve("trained.jsa");
      Path train = rewrite(viaUrl, work.resolve("train"), "-XX:SharedArchiveFile=" + archive,
          "-XX:ArchiveClassesAtExit=" + trained);
      check(spawn(withArgv(train), Map.of()), "the training run");
      Path viaUrlTrained = rewrite(viaUrl, work.resolve("url-trained"),
          "-XX:SharedArchiveFile=" + archive, "-XX:SharedArchiveFile=" + trained);
      // which classes a control-plane run loads from outside the archive
      Path classLog = work.resolve("classes.log");
      Path logged = rewrite(viaUrl, work.resolve("url-logged"), "-Xlog:disable -Xlog:all=off",
          "-Xlog:class+load=info:file=" + classLog);
      check(spawn(withArgv(logged), Map.of()), "the class-logging run");
      int outside = 0;
      int total = 0;
      for (String l : Files.readAllLines(classLog)) {
        if (l.contains(" source: ")) {
          total++;
          if (!l.contains("shared objects file")) {
            outside++;
          }
        }
      }

      // WireMock's own time: POSTs from this JVM, measured once warm
      List<Double> server = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        long t0 = System.nanoTime();
        int status = ControlPostClient.post(url, plane.secret());
        long t1 = System.nanoTime();
        if (status != 200) {
          throw new IllegalStateException("HTTP " + status);
        }
        if (i >= 20) {
          server.add((t1 - t0) / 1e6);
        }
      }
      Map<String, List<Double>> ms = new java.util.LinkedHashMap<>();
      for (String k : List.of("url", "urlTrained", "tape", "urlconnection", "socket", "channel")) {
        ms.put(k, new ArrayList<>());
      }
      String java = runtime.java().toString();
      // two rounds unmeasured, so that WireMock is as warm as in a test suite's later tests
      for (int i = -2; i < rounds; i++) {
        if (i == 0) {
          ms.values().forEach(List::clear);
        }
        ms.get("url").add(timed(withArgv(viaUrl), "via the control plane"));
        ms.get("urlTrained").add(timed(withArgv(viaUrlTrained), "via the control plane, trained"));
        ms.get("tape").add(timed(withArgv(viaTape), "via " + FakeEnvironment.TAPE));
        for (String mode : List.of("urlconnection", "socket", "channel")) {
          ms.get(mode).add(post(List.of(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1",
              "-XX:-UsePerfData", "-Xrs", "-cp", postClasses, "ControlPost", mode, url,
              plane.secret())));
        }
      }
      StringBuilder json = new StringBuilder("{");
      for (Map.Entry<String, List<Double>> e : ms.entrySet()) {
        json.append('"').append(e.getKey()).append("\":").append(median(e.getValue())).append(',');
      }
      json.append("\"warmPost\":").append(median(server));
      json.append(",\"classes\":").append(total).append(",\"classesOutsideArchive\":").append(outside);
      json.append(",\"rounds\":").append(rounds).append('}');
      System.out.println(json);
    } finally {
      plane.close();
      deleteTree(work);
    }
  }

  /** A warm client: HttpURLConnection in this JVM, after warm-up. */
  static final class ControlPostClient {
    static int post(String url, String secret) throws IOException {
      java.net.HttpURLConnection c = (java.net.HttpURLConnection)
          java.net.URI.create(url + "/invocations").toURL().openConnection();
      c.setRequestMethod("POST");
      c.setDoOutput(true);
      c.setRequestProperty("Content-Type", "application/json");
      c.setRequestProperty("X-AgentDouble-Secret", secret);
      try (java.io.OutputStream out = c.getOutputStream()) {
        out.write("{\"argv\":[\"-p\",\"hi\"],\"prompt\":\"hi\"}".getBytes(StandardCharsets.UTF_8));
      }
      int status = c.getResponseCode();
      try (InputStream in = c.getInputStream()) {
        in.readAllBytes();
      }
      return status;
    }
  }

  static Path shim(Path dir, FakeAgentRuntime runtime, String variable, String value)
      throws IOException {
    return shim(dir, runtime, variable, value, Map.of());
  }

  static Path shim(Path dir, FakeAgentRuntime runtime, String variable, String value,
      Map<String, String> more) throws IOException {
    Map<String, String> env = new java.util.LinkedHashMap<>();
    env.put(variable, value);
    env.putAll(more);
    env.put(FakeEnvironment.TIMING, "fast");
    env.put(FakeEnvironment.GATES, Files.createDirectories(dir.resolve("gates")).toString());
    env.put(FakeEnvironment.GATE_TIMEOUT_MS, "30000");
    env.put(FakeEnvironment.JOURNAL, dir.resolve("journal.ndjson").toString());
    Shim.write(dir.resolve("bin"), runtime, env, dir.resolve("pids"));
    return dir.resolve("bin/cursor-agent");
  }

  /** A copy of {@code shim} with one piece of its text replaced. */
  static Path rewrite(Path shim, Path dir, String from, String to) throws IOException {
    String text = Files.readString(shim);
    if (!text.contains(from)) {
      throw new IllegalStateException("the shim has no \"" + from + "\": " + shim);
    }
    Files.createDirectories(dir);
    Path copy = dir.resolve("cursor-agent");
    Files.writeString(copy, text.replace(from, to));
    copy.toFile().setExecutable(true);
    return copy;
  }

  static List<String> withArgv(Path executable) {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(ARGV);
    return command;
  }

  static double timed(List<String> command, String what) {
    Spawned s = spawn(command, Map.of());
    check(s, what);
    return s.ns() / 1e6;
  }

  /** Runs ControlPost; its stdout is the milliseconds it measured. */
  static double post(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectError(ProcessBuilder.Redirect.appendTo(stderrLog.toFile())).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("ControlPost failed: " + command);
    }
    return Double.parseDouble(out);
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    java.util.Collections.sort(s);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  /** In a fresh JVM: WireMock's start, then the fake's CDS archive, as the first test pays them. */
  static void startup(Path work) throws IOException {
    Files.createDirectories(work);
    long t0 = System.nanoTime();
    ControlPlane plane = ControlPlane.start();
    long t1 = System.nanoTime();
    FakeAgentRuntime runtime = FakeAgentRuntime.create(work);
    long t2 = System.nanoTime();
    plane.close();
    System.out.println("{\"wiremockNs\":" + (t1 - t0) + ",\"archiveNs\":" + (t2 - t1)
        + ",\"archive\":" + runtime.archive().isPresent() + "}");
  }
}
