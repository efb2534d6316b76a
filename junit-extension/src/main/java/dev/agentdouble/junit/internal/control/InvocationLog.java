package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.http.ImmutableRequest;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.matching.RequestPattern;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.contract.QueueFiles;
import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.junit.Invocation;
import dev.agentdouble.tape.OutputFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * What one fake was asked: its invocations, read from the control plane's request journal and from
 * its queue folder's {@value QueueFiles#TAKEN} (the runs that took a queued tape without asking the
 * server, {@link QueueFiles}), oldest first, with the permission answers of ACP turns; and those
 * not taken yet by the test, fed by a listener and by a look at that folder while waiting.
 * Thread-safe.
 */
public final class InvocationLog implements AutoCloseable {
  private final WireMockServer server;
  private final String id;

  /** The invocations that asked for a tape, and those the CLI stopped before (the trust gate). */
  private final String invocations;

  /** The bodies of the invocations not taken yet, as the control plane answered them. */
  private final BlockingQueue<String> arrived = new LinkedBlockingQueue<>();

  private final AutoCloseable arrivals;

  /** The queue's {@value QueueFiles#TAKEN} folder, where runs write the invocations they took. */
  private final Path fromQueue;

  private volatile PrivateFolder queueFolder;

  /** The URL an invocation from the queue is matched as, as if POSTed. */
  private final String url;

  // guarded by this
  private int taken;

  /** The invocations from the queue already handed to {@link #arrived}, by file name. */
  private final Set<String> seen = new HashSet<>();

  /**
   * The invocations POSTed to {@code path} of {@code plane} by the fake whose id is {@code id}, or
   * written into {@code queue}'s {@value QueueFiles#TAKEN} folder; runs the CLI stopped before they
   * needed a tape report to {@code PATH/stopped}.
   */
  public InvocationLog(ControlPlane plane, String id, String path, Path queue) {
    this.server = plane.server();
    this.id = id;
    this.invocations = path + "(/stopped)?";
    this.fromQueue = queue.resolve(QueueFiles.TAKEN);
    this.url = plane.baseUrl() + path;
    this.arrivals = plane.onPost(invocations, arrived::add);
  }

  /** Every invocation so far, oldest first, ACP turns with their permission answers. */
  public List<Invocation> all() {
    Map<Long, Map<Integer, List<String>>> answers = answersByTurn();
    Map<Long, Integer> turns = new HashMap<>();
    List<Invocation> all = new ArrayList<>();
    for (String body : bodies(UnaryOperator.identity())) {
      InvocationRecord r = InvocationRecord.parse(body);
      List<String> chosen = List.of();
      if (r.outputFormat().equals(OutputFormat.ACP.cliName())) {
        int turn = turns.merge(r.pid(), 1, Integer::sum);
        chosen = answers.getOrDefault(r.pid(), Map.of()).getOrDefault(turn, List.of());
      }
      all.add(invocation(r, chosen));
    }
    return all;
  }

  /** The invocations {@code pattern} lets through, oldest first. */
  public List<Invocation> matching(UnaryOperator<RequestPatternBuilder> pattern) {
    List<Invocation> found = new ArrayList<>();
    for (String body : bodies(pattern)) {
      found.add(parse(body));
    }
    return found;
  }

  /** How many invocations {@code pattern} lets through. */
  public int count(UnaryOperator<RequestPatternBuilder> pattern) {
    return bodies(pattern).size();
  }

  /**
   * The JSON bodies of the invocations {@code pattern} lets through, oldest first: those the server
   * journalled in the order they reached it, those that took a queued tape in the order they took
   * it, the two merged by the time each arrived.
   */
  private List<String> bodies(UnaryOperator<RequestPatternBuilder> pattern) {
    RequestPatternBuilder builder = pattern.apply(postRequestedFor(urlMatching(invocations)));
    List<LoggedRequest> requests = new ArrayList<>(server.findAll(builder));
    requests.sort(Claims.inOrderOfArrival());
    List<Queued> queued = queued();
    if (queued.isEmpty()) {
      return requests.stream().map(LoggedRequest::getBodyAsString).toList();
    }
    RequestPattern match = builder.build();
    List<String> bodies = new ArrayList<>();
    int q = 0;
    for (LoggedRequest request : requests) {
      long at =
          request.getLoggedDate() == null ? Long.MAX_VALUE : request.getLoggedDate().getTime();
      for (; q < queued.size() && queued.get(q).at() <= at; q++) {
        addIfMatched(match, queued.get(q).body(), bodies);
      }
      bodies.add(request.getBodyAsString());
    }
    for (; q < queued.size(); q++) {
      addIfMatched(match, queued.get(q).body(), bodies);
    }
    return bodies;
  }

  /** Adds {@code body} to {@code bodies} when {@code match} lets it through, POSTed as it is. */
  private void addIfMatched(RequestPattern match, String body, List<String> bodies) {
    ImmutableRequest request =
        ImmutableRequest.create()
            .withAbsoluteUrl(url)
            .withMethod(RequestMethod.POST)
            .withHeader("Content-Type", "application/json")
            .withBody(body.getBytes(StandardCharsets.UTF_8))
            .build();
    if (match.match(request).isExactMatch()) {
      bodies.add(body);
    }
  }

  /** An invocation that took a queued tape: when its file was written, and its JSON. */
  private record Queued(String name, long at, String body) {}

  /**
   * The queue's folder, once found private (every folder above it looked at, once: a wait reads the
   * queue every few milliseconds); its {@code taken/} is looked at by itself at every read.
   */
  private Optional<PrivateFolder> queueFolder() {
    PrivateFolder known = queueFolder;
    if (known == null) {
      Optional<PrivateFolder> found = PrivateFolder.of(fromQueue.getParent());
      if (found.isEmpty()) {
        return found; // not made yet, or not private: asked again next time
      }
      queueFolder = known = found.get();
    }
    return Optional.of(known);
  }

  /** The invocations that took queued tapes, in the order they took them. */
  private List<Queued> queued() {
    return queued(Set.of());
  }

  /** As {@link #queued()}, but those whose file names are in {@code known}. */
  private List<Queued> queued(Set<String> known) {
    // held to the rules the fake holds the queue to: a private folder of its own, the user's files
    Optional<PrivateFolder> taken = queueFolder().flatMap(q -> q.folder(QueueFiles.TAKEN));
    String[] names = taken.isEmpty() ? null : taken.get().path().toFile().list();
    if (names == null) {
      return List.of();
    }
    Arrays.sort(names);
    List<Queued> queued = new ArrayList<>();
    for (String name : names) {
      if (name.endsWith(QueueFiles.INVOCATION) && !known.contains(name)) {
        Path file = taken.get().path().resolve(name);
        if (!taken.get().isOwn(file)) {
          continue; // a link, a FIFO, another user's file: no run of this test wrote it
        }
        try {
          queued.add(
              new Queued(
                  name,
                  Files.getLastModifiedTime(file).toMillis(),
                  Files.readString(file, StandardCharsets.UTF_8)));
        } catch (IOException e) {
          // gone: the fake was reset meanwhile
        }
      }
    }
    return queued;
  }

  /** The JSON bodies of every invocation: WireMock's request journal's, then the queue's. */
  public List<String> asJournalled() {
    List<String> bodies =
        new ArrayList<>(
            server.findAll(postRequestedFor(urlMatching(invocations))).stream()
                .map(LoggedRequest::getBodyAsString)
                .toList());
    queued().forEach(q -> bodies.add(q.body()));
    return bodies;
  }

  /** The options ACP clients chose when the fake asked for permission, in order. */
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
            server.findAll(
                postRequestedFor(urlEqualTo("/agentdouble/" + id + "/" + PermissionAnswer.PATH))));
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

  /**
   * The next invocation not taken yet, waiting up to {@code timeout}; fails saying how many there
   * were, how many were taken and how many tapes are still queued ({@code queued}).
   */
  public Invocation take(Duration timeout, IntSupplier queued) {
    String body;
    try {
      body = next(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for the fake agent to be invoked", e);
    }
    synchronized (this) {
      if (body == null) {
        int all = all().size();
        int unused = queued.getAsInt();
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

  /**
   * The next invocation not taken yet, waiting up to {@code timeout}: those the server answered
   * come from its listener; those that took a queued tape are looked for in the queue folder, every
   * {@value #LOOK_MS} ms while waiting.
   */
  private String next(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      lookInTheQueue();
      long left = deadline - System.nanoTime();
      String body =
          arrived.poll(Math.max(0, Math.min(left, LOOK_MS * 1_000_000L)), TimeUnit.NANOSECONDS);
      if (body != null || deadline - System.nanoTime() <= 0) {
        return body != null ? body : arrived.poll();
      }
    }
  }

  /** How often a wait looks for the invocations that took queued tapes. */
  static final long LOOK_MS = 2;

  /** Hands the invocations that took queued tapes since the last look to {@link #arrived}. */
  private synchronized void lookInTheQueue() {
    for (Queued q : queued(seen)) {
      seen.add(q.name());
      arrived.add(q.body());
    }
  }

  /** Forgets every request of the fake and the invocations not taken yet. */
  public synchronized void clear() {
    server.removeServeEventsMatching(
        WireMock.anyRequestedFor(urlMatching("/agentdouble/" + id + "/.*")).build());
    arrived.clear();
    seen.clear();
    taken = 0;
  }

  /** Stops listening for invocations and forgets them. */
  @Override
  public void close() {
    try {
      arrivals.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop listening for invocations", e);
    }
    server.removeServeEventsMatching(WireMock.anyRequestedFor(urlMatching(invocations)).build());
  }

  /** The invocation a fake POSTed as {@code body}. */
  public static Invocation parse(String body) {
    return invocation(InvocationRecord.parse(body), List.of());
  }

  private static Invocation invocation(InvocationRecord r, List<String> permissionAnswers) {
    return Invocations.of(r, permissionAnswers);
  }

  /** {@code 5s}, {@code 1500ms}. */
  public static String describe(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }
}
