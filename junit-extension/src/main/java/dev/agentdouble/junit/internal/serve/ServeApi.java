package dev.agentdouble.junit.internal.serve;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.HttpHeaders;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.control.Claims;
import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.control.Stubs;
import dev.agentdouble.junit.internal.match.MatchWords;
import dev.agentdouble.junit.internal.match.NoTapeReport;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.TapeReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The HTTP API {@code agentdouble serve} gives suites not on the JVM, at its {@code
 * AGENTDOUBLE_URL}: what the JUnit handle gives a Java test. {@code POST URL/queue} enqueues a tape
 * (the NDJSON of one, or {@code builtin:NAME}); {@code POST URL/stubs} answers the invocations a
 * match lets through with tapes in order; {@code GET URL/invocations} lists what the fakes were
 * asked, with the tape each got; {@code GET URL/unused} the enqueued tapes no invocation took;
 * {@code POST URL/reset} forgets the queue, the stubs and the invocations (the folder's tapes
 * stay). Behind the server's secret, as everything it answers; errors are JSON, {@code
 * {"error":"..."}}, never a stack trace.
 *
 * <p>Answered before any stub (a request filter), so these requests never reach the tapes; the
 * queue and the stubs are answered before the folder's tapes.
 */
final class ServeApi {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String base;
  private final Timing timing;
  private ControlPlane plane;
  private Stubs stubs;
  private int sequences;

  /** The matches of the stubs added, by name, for the report of an invocation nothing answers. */
  private final List<NoTapeReport.Candidate> stubMatches = new CopyOnWriteArrayList<>();

  /** The API under {@code base} (the serve path), applying {@code timing} to the tapes it gets. */
  ServeApi(String base, Timing timing) {
    this.base = base;
    this.timing = timing;
  }

  /** Binds the API to the running server. */
  synchronized void attach(ControlPlane plane) {
    this.plane = plane;
    this.stubs = new Stubs(plane, base + "/invocations");
  }

  /** The answer to {@code request} when it is one of the API's, else empty. */
  Optional<ResponseDefinition> handle(Request request) {
    String url = request.getUrl();
    int query = url.indexOf('?');
    String path = query < 0 ? url : url.substring(0, query);
    if (!path.startsWith(base + "/")) {
      return Optional.empty();
    }
    String method = request.getMethod().getName();
    String endpoint = path.substring(base.length());
    try {
      return switch (endpoint) {
        case "/queue" -> Optional.of(post(method, endpoint, () -> enqueue(request)));
        case "/stubs" -> Optional.of(post(method, endpoint, () -> stub(request)));
        case "/reset" -> Optional.of(post(method, endpoint, this::reset));
        case "/unused" -> Optional.of(get(method, endpoint, () -> json(200, unused())));
        case "/invocations" ->
            // the fakes POST here for their tape: that is for the stubs, not the API
            "GET".equals(method) ? Optional.of(json(200, invocations())) : Optional.empty();
        default -> Optional.empty();
      };
    } catch (ApiError e) {
      return Optional.of(error(e.status, e.getMessage()));
    } catch (RuntimeException e) {
      return Optional.of(error(500, endpoint + ": " + e));
    }
  }

  private static ResponseDefinition post(String method, String endpoint, Action action) {
    if (!"POST".equals(method)) {
      throw new ApiError(405, method + " " + endpoint + ": use POST");
    }
    return action.run();
  }

  private static ResponseDefinition get(String method, String endpoint, Action action) {
    if (!"GET".equals(method)) {
      throw new ApiError(405, method + " " + endpoint + ": use GET");
    }
    return action.run();
  }

  private interface Action {
    ResponseDefinition run();
  }

  // ---- the endpoints --------------------------------------------------------------------------

  private synchronized ResponseDefinition enqueue(Request request) {
    String body = request.getBodyAsString();
    Tape tape = tape("queue", body);
    String name =
        Optional.ofNullable(request.queryParameter("name"))
            .filter(p -> p.isPresent())
            .map(p -> p.firstValue())
            .orElse(
                builtin(body).map(n -> "builtin:" + n).orElse("queued #" + (stubs.queued() + 1)));
    stubs.enqueue(retime(tape, timing), name);
    ObjectNode answer = JSON.createObjectNode().put("queued", name).put("position", stubs.queued());
    return json(201, answer);
  }

  private synchronized ResponseDefinition stub(Request request) {
    JsonNode spec;
    try {
      spec = JSON.readTree(request.getBodyAsString());
    } catch (JsonProcessingException e) {
      throw new ApiError(
          400, "stubs: the body is not JSON: " + e.getOriginalMessage() + "; " + STUB_SHAPE);
    }
    if (spec == null || !spec.isObject()) {
      throw new ApiError(400, "stubs: the body must be a JSON object; " + STUB_SHAPE);
    }
    for (Iterator<String> keys = spec.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!List.of("match", "tapes", "repeatLast").contains(key)) {
        throw new ApiError(400, "stubs: unknown key \"" + key + "\"; " + STUB_SHAPE);
      }
    }
    JsonNode node = spec.path("match");
    if (!node.isMissingNode() && !node.isNull() && !node.isObject()) {
      throw new ApiError(400, "stubs: \"match\" must be an object; " + STUB_SHAPE);
    }
    MatchWords.Parsed match;
    try {
      match = MatchWords.parse(node);
    } catch (MatchWords.Refused e) {
      throw new ApiError(400, "stubs: " + e.getMessage());
    }
    JsonNode tapes = spec.path("tapes");
    if (!tapes.isArray() || tapes.isEmpty()) {
      throw new ApiError(400, "stubs: \"tapes\" must be a non-empty array; " + STUB_SHAPE);
    }
    List<Tape> replies = new ArrayList<>();
    for (int i = 0; i < tapes.size(); i++) {
      if (!tapes.get(i).isTextual()) {
        throw new ApiError(
            400, "stubs: tapes[" + i + "] must be a string: a tape's NDJSON, or builtin:NAME");
      }
      replies.add(retime(tape("stubs: tapes[" + i + "]", tapes.get(i).asText()), timing));
    }
    sequences++;
    String name = "stub " + sequences;
    stubMatches.add(
        match.tapeMatch().isPresent()
            ? NoTapeReport.Candidate.of(name, match.tapeMatch().get())
            : new NoTapeReport.Candidate(
                name,
                invocation ->
                    match
                        .conditions()
                        .mismatches(new String(invocation.json(), StandardCharsets.UTF_8))));
    Stubs.Sequence sequence = stubs.sequence(match.conditions()::toRequestMapping);
    for (int i = 0; i < replies.size(); i++) {
      sequence.reply(
          replies.get(i), "stub " + sequences + " reply " + (i + 1), Optional.empty(), true);
    }
    boolean repeat = spec.path("repeatLast").asBoolean(false);
    if (repeat) {
      sequence.repeat(
          replies.get(replies.size() - 1),
          "stub " + sequences + " reply " + replies.size() + " (repeated)",
          Optional.empty());
    }
    ObjectNode answer =
        JSON.createObjectNode()
            .put("stub", sequences)
            .put("replies", replies.size())
            .put("repeatLast", repeat);
    return json(201, answer);
  }

  private synchronized ResponseDefinition reset() {
    stubs.clear();
    stubMatches.clear();
    plane.server().resetRequests();
    return json(200, JSON.createObjectNode().put("reset", true));
  }

  /** The API's stubs, for {@link NoTapeReport}. */
  List<NoTapeReport.Candidate> stubMatches() {
    return List.copyOf(stubMatches);
  }

  /** How many tapes were enqueued through the API. */
  synchronized int queued() {
    return stubs.queued();
  }

  private synchronized ObjectNode unused() {
    ObjectNode answer = JSON.createObjectNode();
    ArrayNode names = answer.putArray("unused");
    stubs.unused().forEach(names::add);
    return answer;
  }

  /**
   * What the fakes POSTed to {@code URL/invocations}, in the order they reached serve (the order in
   * which they took the queue's tapes and each stub's replies), each with its tape.
   */
  private ObjectNode invocations() {
    List<ServeEvent> events = new ArrayList<>(plane.server().getAllServeEvents());
    events.sort(Comparator.comparing(ServeEvent::getRequest, Claims.inOrderOfArrival()));
    ObjectNode answer = JSON.createObjectNode();
    ArrayNode list = answer.putArray("invocations");
    for (ServeEvent event : events) {
      Request request = event.getRequest();
      String url = request.getUrl();
      boolean invocation = url.equals(base + "/invocations");
      boolean stopped = url.equals(base + "/invocations/stopped");
      if (!"POST".equals(request.getMethod().getName()) || !(invocation || stopped)) {
        continue;
      }
      ObjectNode item;
      try {
        JsonNode body = JSON.readTree(request.getBodyAsString());
        item = body != null && body.isObject() ? (ObjectNode) body : JSON.createObjectNode();
      } catch (JsonProcessingException e) {
        item = JSON.createObjectNode().put("body", request.getBodyAsString());
      }
      HttpHeaders headers = event.getResponse() == null ? null : event.getResponse().getHeaders();
      HttpHeader tape = headers == null ? null : headers.getHeader(ControlSecret.TAPE_HEADER);
      if (stopped) {
        item.putNull("tape");
      } else if (tape != null && tape.isPresent()) {
        item.put("tape", tape.firstValue());
      } else {
        item.putNull("tape");
        item.put("unmatched", true);
      }
      list.add(item);
    }
    return answer;
  }

  // ---- reading what was sent ------------------------------------------------------------------

  static final String STUB_SHAPE =
      "send {\"match\":{\"prompt\":REGEX,\"argv\":[...],\"model\":M,\"outputFormat\":F},"
          + "\"tapes\":[NDJSON or \"builtin:NAME\", ...],\"repeatLast\":false}";

  /** The tape {@code text} is: a tape's NDJSON, or {@code builtin:NAME}. */
  private static Tape tape(String what, String text) {
    Optional<String> builtin = builtin(text);
    if (builtin.isPresent()) {
      try {
        return Catalog.tape(builtin.get());
      } catch (IllegalArgumentException e) {
        throw new ApiError(400, what + ": " + e.getMessage());
      }
    }
    if (text.isBlank()) {
      throw new ApiError(
          400,
          what + ": no tape: send a tape's NDJSON (header line, then frames), or builtin:NAME");
    }
    try {
      return TapeReader.parse(what, text);
    } catch (TapeException e) {
      throw new ApiError(400, e.getMessage());
    }
  }

  private static Optional<String> builtin(String text) {
    String trimmed = text.strip();
    return trimmed.startsWith("builtin:") && !trimmed.contains("\n")
        ? Optional.of(trimmed.substring("builtin:".length()))
        : Optional.empty();
  }

  // ---- answers --------------------------------------------------------------------------------

  private static ResponseDefinition json(int status, JsonNode body) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withBody(body.toString().getBytes(StandardCharsets.UTF_8))
        .build();
  }

  private static ResponseDefinition error(int status, String message) {
    return json(status, JSON.createObjectNode().put("error", message));
  }

  /** A request the API refuses: its status and what to fix. */
  static final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;

    ApiError(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  /**
   * The tape with its frame times rewritten as the fake's {@code AGENTDOUBLE_TIMING=spec} would
   * schedule them, so that a fake replaying it as recorded writes each frame at the same moment.
   */
  static Tape retime(Tape tape, Timing timing) {
    List<Frame> frames = new ArrayList<>(tape.frames().size());
    long lastT = 0;
    long lastScheduled = 0;
    for (Frame frame : tape.frames()) {
      long t = frame.t();
      long scheduled = timing.due(t, lastT, lastScheduled);
      lastT = t;
      lastScheduled = scheduled;
      frames.add(frame.at(scheduled));
    }
    return new Tape(tape.header(), frames);
  }
}
