package dev.agentdouble.junit.internal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * The WireMock stubs that answer one fake agent's invocations: its queue (first in, first out) and
 * its sequences of replies to patterns, each a scenario of its own; removed when the fake ends.
 */
public final class Stubs {
  private static final int QUEUE_PRIORITY = 10;
  private static final int STUB_PRIORITY = 5;

  private record Queued(UUID stub, String name) {}

  private final WireMockServer server;
  private final String path;
  private final String id;
  private final List<Queued> queue = new CopyOnWriteArrayList<>();

  /** The replies of the sequences, each to be used once (their repeats need not be). */
  private final List<Queued> replies = new CopyOnWriteArrayList<>();

  /** Bumped by {@link #clear()}: the queue's scenario starts afresh under a new name. */
  private int generation;

  private final List<UUID> stubs = new CopyOnWriteArrayList<>();

  /** The stubs of the fake whose invocations are POSTed to {@code path}; {@code id} names it. */
  public Stubs(WireMockServer server, String path, String id) {
    this.server = server;
    this.path = path;
    this.id = id;
  }

  /** How many tapes were enqueued. */
  public int queued() {
    return queue.size();
  }

  /** The next invocation no stub answers gets {@code tape}, after those enqueued before. */
  public synchronized void enqueue(Tape tape, String name) {
    enqueue(tape, name, Optional.empty());
  }

  /**
   * As {@link #enqueue(Tape, String)}, replayed with {@code timing} instead of the fake's own when
   * one is given.
   */
  public synchronized void enqueue(Tape tape, String name, Optional<Timing> timing) {
    int index = queue.size();
    MappingBuilder mapping =
        post(urlEqualTo(path))
            .atPriority(QUEUE_PRIORITY)
            .inScenario("queue-" + id + "-" + generation)
            .whenScenarioStateIs(index == 0 ? Scenario.STARTED : "served-" + index)
            .willSetStateTo("served-" + (index + 1))
            .willReturn(tapeResponse(tape, name, timing));
    StubMapping stub = server.stubFor(mapping);
    queue.add(new Queued(stub.getId(), name));
    stubs.add(stub.getId());
  }

  /**
   * The {@code index}-th (from 0) invocation that {@code match} lets through, in {@code scenario},
   * gets {@code tape}.
   */
  public void reply(
      UnaryOperator<MappingBuilder> match, String scenario, int index, Tape tape, String name) {
    reply(match, scenario, index, tape, name, Optional.empty(), true);
  }

  /**
   * As {@link #reply(UnaryOperator, String, int, Tape, String)}, with its own timing if given; a
   * reply that need not be used ({@code mustBeUsed} false: a replayed recording) is left out of
   * {@link #unusedReplies()}.
   */
  public void reply(
      UnaryOperator<MappingBuilder> match,
      String scenario,
      int index,
      Tape tape,
      String name,
      Optional<Timing> timing,
      boolean mustBeUsed) {
    MappingBuilder mapping =
        match
            .apply(post(urlEqualTo(path)))
            .atPriority(STUB_PRIORITY)
            .inScenario(scenario)
            .whenScenarioStateIs(index == 0 ? Scenario.STARTED : "replied-" + index)
            .willSetStateTo("replied-" + (index + 1))
            .willReturn(tapeResponse(tape, name, timing));
    UUID stub = server.stubFor(mapping).getId();
    stubs.add(stub);
    if (mustBeUsed) {
      replies.add(new Queued(stub, name));
    }
  }

  /**
   * Every invocation {@code match} lets through after the {@code count} replies gets {@code tape}.
   */
  public void repeat(
      UnaryOperator<MappingBuilder> match, String scenario, int count, Tape tape, String name) {
    repeat(match, scenario, count, tape, name, Optional.empty());
  }

  /** As {@link #repeat(UnaryOperator, String, int, Tape, String)}, with its own timing if given. */
  public void repeat(
      UnaryOperator<MappingBuilder> match,
      String scenario,
      int count,
      Tape tape,
      String name,
      Optional<Timing> timing) {
    MappingBuilder mapping =
        match
            .apply(post(urlEqualTo(path)))
            .atPriority(STUB_PRIORITY)
            .inScenario(scenario)
            .whenScenarioStateIs("replied-" + count)
            .willReturn(tapeResponse(tape, name, timing));
    stubs.add(server.stubFor(mapping).getId());
  }

  /** The names of the enqueued tapes no invocation has taken. */
  public List<String> unused() {
    return unused(queue);
  }

  /** The names of the stubs' replies no invocation has taken (repeats of a last reply aside). */
  public List<String> unusedReplies() {
    return unused(replies);
  }

  private List<String> unused(List<Queued> tapes) {
    List<Queued> unused = new ArrayList<>(tapes);
    if (!unused.isEmpty()) {
      for (ServeEvent event : server.getAllServeEvents()) {
        StubMapping stub = event.getStubMapping();
        if (event.getWasMatched() && stub != null) {
          unused.removeIf(q -> q.stub().equals(stub.getId()));
        }
      }
    }
    return unused.stream().map(Queued::name).toList();
  }

  /** The bodies of the invocations no stub answered, oldest first. */
  public List<Unmatched> unmatched() {
    List<Unmatched> unmatched = new ArrayList<>();
    for (LoggedRequest request : server.findAllUnmatchedRequests()) {
      if (request.getUrl().equals(path)) {
        unmatched.add(new Unmatched(request.getBodyAsString()));
      }
    }
    return unmatched;
  }

  /** An invocation no stub answered: the JSON the fake sent. */
  public record Unmatched(String body) {}

  /** Removes every stub of this fake. */
  public void remove() {
    for (UUID stub : stubs) {
      server.removeStub(stub);
    }
  }

  /** Removes every stub and forgets the queue: as new, for a fake that is reset. */
  public synchronized void clear() {
    remove();
    stubs.clear();
    queue.clear();
    replies.clear();
    generation++;
  }

  private static ResponseDefinitionBuilder tapeResponse(
      Tape tape, String name, Optional<Timing> timing) {
    ResponseDefinitionBuilder response =
        aResponse()
            .withStatus(200)
            .withHeader("Content-Type", "application/x-ndjson")
            .withHeader(ControlSecret.TAPE_HEADER, name);
    timing.ifPresent(t -> response.withHeader(ControlSecret.TIMING_HEADER, t.toString()));
    return response.withBody(TapeWriter.toBytes(tape));
  }
}
