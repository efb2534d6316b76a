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
import com.github.tomakehurst.wiremock.verification.NearMiss;
import com.github.tomakehurst.wiremock.verification.diff.PlainTextDiffRenderer;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
  private static final PlainTextDiffRenderer DIFF = new PlainTextDiffRenderer(Map.of());

  private record Queued(UUID stub, String name) {}

  private final WireMockServer server;
  private final String path;
  private final String id;
  private final List<Queued> queue = new CopyOnWriteArrayList<>();
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
    int index = queue.size();
    MappingBuilder mapping =
        post(urlEqualTo(path))
            .atPriority(QUEUE_PRIORITY)
            .inScenario("queue-" + id)
            .whenScenarioStateIs(index == 0 ? Scenario.STARTED : "served-" + index)
            .willSetStateTo("served-" + (index + 1))
            .willReturn(tapeResponse(tape, name));
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
    MappingBuilder mapping =
        match
            .apply(post(urlEqualTo(path)))
            .atPriority(STUB_PRIORITY)
            .inScenario(scenario)
            .whenScenarioStateIs(index == 0 ? Scenario.STARTED : "replied-" + index)
            .willSetStateTo("replied-" + (index + 1))
            .willReturn(tapeResponse(tape, name));
    stubs.add(server.stubFor(mapping).getId());
  }

  /**
   * Every invocation {@code match} lets through after the {@code count} replies gets {@code tape}.
   */
  public void repeat(
      UnaryOperator<MappingBuilder> match, String scenario, int count, Tape tape, String name) {
    MappingBuilder mapping =
        match
            .apply(post(urlEqualTo(path)))
            .atPriority(STUB_PRIORITY)
            .inScenario(scenario)
            .whenScenarioStateIs("replied-" + count)
            .willReturn(tapeResponse(tape, name));
    stubs.add(server.stubFor(mapping).getId());
  }

  /** The names of the enqueued tapes no invocation has taken. */
  public List<String> unused() {
    List<Queued> unused = new ArrayList<>(queue);
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

  /** The bodies of the invocations no stub answered, each with its closest stub, if any. */
  public List<Unmatched> unmatched() {
    List<Unmatched> unmatched = new ArrayList<>();
    for (LoggedRequest request : server.findAllUnmatchedRequests()) {
      if (request.getUrl().equals(path)) {
        unmatched.add(new Unmatched(request.getBodyAsString(), nearest(request)));
      }
    }
    return unmatched;
  }

  /** An invocation no stub answered, and how the closest stub of this fake differs (or ""). */
  public record Unmatched(String body, String closest) {}

  private String nearest(LoggedRequest request) {
    for (NearMiss miss : server.findNearMissesFor(request)) {
      if (miss.getStubMapping() != null && stubs.contains(miss.getStubMapping().getId())) {
        return "\n  closest stub:\n" + DIFF.render(miss.getDiff()).strip().replace("\n", "\n  ");
      }
    }
    return "";
  }

  /** Removes every stub of this fake. */
  public void remove() {
    for (UUID stub : stubs) {
      server.removeStub(stub);
    }
  }

  private static ResponseDefinitionBuilder tapeResponse(Tape tape, String name) {
    return aResponse()
        .withStatus(200)
        .withHeader("Content-Type", "application/x-ndjson")
        .withHeader(ControlSecret.TAPE_HEADER, name)
        .withBody(TapeWriter.toBytes(tape));
  }
}
