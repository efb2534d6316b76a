package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.PermissionAnswer;
import dev.agentdouble.junit.Invocation;
import dev.agentdouble.tape.OutputFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.UnaryOperator;

/**
 * What one fake was asked, read from the control plane's request journal: its invocations in the
 * order they arrived, with the permission answers of ACP turns, and those not taken yet by the
 * test, fed by a listener. Thread-safe.
 */
public final class InvocationLog implements AutoCloseable {
  private final WireMockServer server;
  private final String id;

  /** The invocations that asked for a tape, and those the CLI stopped before (the trust gate). */
  private final String invocations;

  /** The bodies of the invocations not taken yet, as the control plane answered them. */
  private final BlockingQueue<String> arrived = new LinkedBlockingQueue<>();

  private final AutoCloseable arrivals;

  // guarded by this
  private int taken;

  /**
   * The invocations POSTed to {@code path} of {@code plane} by the fake whose id is {@code id};
   * runs the CLI stopped before they needed a tape report to {@code PATH/stopped}.
   */
  public InvocationLog(ControlPlane plane, String id, String path) {
    this.server = plane.server();
    this.id = id;
    this.invocations = path + "(/stopped)?";
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
    return server.findAll(pattern.apply(postRequestedFor(urlMatching(invocations)))).size();
  }

  /** The JSON bodies of the invocations {@code pattern} lets through, oldest first. */
  private List<String> bodies(UnaryOperator<RequestPatternBuilder> pattern) {
    List<LoggedRequest> requests =
        new ArrayList<>(server.findAll(pattern.apply(postRequestedFor(urlMatching(invocations)))));
    requests.sort(Claims.inOrderOfArrival());
    return requests.stream().map(LoggedRequest::getBodyAsString).toList();
  }

  /** The JSON bodies of every invocation, in the order of WireMock's request journal. */
  public List<String> asJournalled() {
    return server.findAll(postRequestedFor(urlMatching(invocations))).stream()
        .map(LoggedRequest::getBodyAsString)
        .toList();
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
      body = arrived.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
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

  /** Forgets every request of the fake and the invocations not taken yet. */
  public synchronized void clear() {
    server.removeServeEventsMatching(
        WireMock.anyRequestedFor(urlMatching("/agentdouble/" + id + "/.*")).build());
    arrived.clear();
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
