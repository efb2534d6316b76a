package dev.agentdouble.junit.internal.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.requestfilter.RequestFilterAction;
import com.github.tomakehurst.wiremock.extension.requestfilter.StubRequestFilterV2;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.junit.ModelRequest;
import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.control.Gatekeeper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scripted Anthropic Messages API on 127.0.0.1: a WireMock server answering {@code POST
 * /v1/messages} from a {@link ModelScript}, request by request (an SSE stream, or the whole message
 * when the request does not stream; an HTTP error; a cut stream), {@code POST
 * /v1/messages/count_tokens} with a count, anything else with Anthropic's 404.
 *
 * <p>Only requests with its key pass: {@code x-api-key: KEY} (what the CLI sends for {@code
 * ANTHROPIC_API_KEY}) or {@code Authorization: Bearer KEY} ({@code ANTHROPIC_AUTH_TOKEN}); others
 * get Anthropic's 401 at the door and are never seen. The key is new each run and starts with
 * {@code sk-ant-}, so a recorder redacts it like any Anthropic key. The requests answered are kept,
 * the key's headers left out, oldest first, the last {@code limit} of them.
 */
public final class ModelServer implements AutoCloseable {
  /** Key prefix: Anthropic's, so that {@code agentdouble record} redacts it. */
  static final String KEY_PREFIX = "sk-ant-agentdouble-";

  /**
   * What a request past the script is told, with HTTP 400: the CLI prints it ({@code API Error: 400
   * ...}) and exits 1, having first asked again in a few other shapes (docs/claude-2.1.328-runs.md,
   * part l), each one more request past the script.
   */
  static final String PAST_THE_SCRIPT =
      "agentdouble model-api: %s scripts %d answers and this is request %d; the CLI asked the"
          + " model more than the tape's run did (its argv, prompt or tools differ?)";

  private final WireMockServer server;
  private final String key;
  private final Answers answers;

  private ModelServer(WireMockServer server, String key, Answers answers) {
    this.server = server;
    this.key = key;
    this.answers = answers;
  }

  /**
   * Starts a server answering from {@code script} on {@code port} (0: a free one) that keeps the
   * last {@code limit} requests.
   */
  public static ModelServer start(ModelScript script, int port, int limit) {
    String key = KEY_PREFIX + ControlSecret.generate();
    Answers answers = new Answers(script, limit);
    WireMockServer server =
        new WireMockServer(
            Gatekeeper.guard(
                ControlPlane.loopback(port).disableRequestJournal().extensions(answers),
                door(key)));
    server.start();
    return new ModelServer(server, key, answers);
  }

  /** The door: the key in {@code x-api-key} or as a bearer token, else Anthropic's 401. */
  private static Gatekeeper.Door door(String key) {
    return new Gatekeeper.Door(
        headers ->
            ControlSecret.matches(key, headers.apply("x-api-key"))
                || ControlSecret.matches("Bearer " + key, headers.apply("authorization")),
        "application/json",
        error(
                401,
                "agentdouble model-api: this server answers only requests with its key"
                    + " (ANTHROPIC_API_KEY as printed when it started)")
            .toString());
  }

  /** {@code ANTHROPIC_BASE_URL}: e.g. {@code http://127.0.0.1:41234}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  /** {@code ANTHROPIC_API_KEY}: the key requests must carry. */
  public String key() {
    return key;
  }

  /** The requests answered, oldest first (the last {@code limit}). */
  public List<ModelRequest> requests() {
    return answers.received();
  }

  /** How many requests to {@code /v1/messages} came after the script's answers ran out. */
  public int pastTheScript() {
    return answers.past();
  }

  @Override
  public void close() {
    server.stop();
  }

  /** Anthropic's error JSON for {@code status}, with {@code message}. */
  static ObjectNode error(int status, String message) {
    return ApiErrors.of(ApiErrors.type(status), message);
  }

  /** Answers every request that passed the door, from the script, and keeps it. */
  private static final class Answers implements StubRequestFilterV2 {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ModelScript script;
    private final int limit;
    private final Deque<ModelRequest> received = new ArrayDeque<>();
    private int next;
    private int past;

    Answers(ModelScript script, int limit) {
      this.script = script;
      this.limit = limit;
    }

    @Override
    public String getName() {
      return "agentdouble-model-api";
    }

    @Override
    public RequestFilterAction filter(Request request, ServeEvent serveEvent) {
      return RequestFilterAction.stopWith(answer(request));
    }

    private synchronized ResponseDefinition answer(Request request) {
      keep(request);
      String method = request.getMethod().getName();
      String url = request.getUrl();
      int query = url.indexOf('?');
      String path = query < 0 ? url : url.substring(0, query);
      if (method.equals("POST") && path.equals("/v1/messages/count_tokens")) {
        return json(200, null, "{\"input_tokens\":42}");
      }
      if (!method.equals("POST") || !path.equals("/v1/messages")) {
        return json(404, null, error(404, "Not found: " + method + " " + path).toString());
      }
      List<ModelAnswer> all = script.answers();
      if (next >= all.size()) {
        next++;
        if (script.finalFailure() != null) {
          return failure(script.finalFailure());
        }
        past++;
        return json(
            400,
            null,
            error(
                    400,
                    String.format(Locale.ROOT, PAST_THE_SCRIPT, script.source(), all.size(), next))
                .toString());
      }
      ModelAnswer answer = all.get(next++);
      ResponseDefinitionBuilder response;
      if (answer instanceof ModelAnswer.Message message) {
        response =
            streams(request.getBodyAsString())
                ? sse(message.events(), message.requestId())
                : builder(200, message.requestId(), message.message().toString());
      } else if (answer instanceof ModelAnswer.Failure failure) {
        return delayed(failure(failure), failure.delayMs());
      } else {
        ModelAnswer.Cut cut = (ModelAnswer.Cut) answer;
        response =
            streams(request.getBodyAsString())
                ? sse(cut.events(), null)
                : ResponseDefinitionBuilder.responseDefinition()
                    .withFault(Fault.CONNECTION_RESET_BY_PEER);
      }
      return delayed(response.build(), answer.delayMs());
    }

    private static ResponseDefinition delayed(ResponseDefinition response, long ms) {
      if (ms <= 0) {
        return response;
      }
      return ResponseDefinitionBuilder.like(response)
          .withFixedDelay((int) Math.min(ms, Integer.MAX_VALUE))
          .build();
    }

    private static ResponseDefinition failure(ModelAnswer.Failure failure) {
      return json(failure.status(), failure.requestId(), failure.body().toString());
    }

    /** Whether the request asks for a stream: {@code "stream":true} in its JSON. */
    private static boolean streams(String body) {
      try {
        return JSON.readTree(body).path("stream").asBoolean(false);
      } catch (JsonProcessingException e) {
        return false; // not JSON: not a streaming request
      }
    }

    private static ResponseDefinitionBuilder sse(List<ModelAnswer.Event> events, String requestId) {
      StringBuilder body = new StringBuilder();
      for (ModelAnswer.Event event : events) {
        body.append("event: ")
            .append(event.name())
            .append("\ndata: ")
            .append(event.data())
            .append("\n\n");
      }
      return ResponseDefinitionBuilder.responseDefinition()
          .withStatus(200)
          .withHeader("Content-Type", "text/event-stream; charset=utf-8")
          .withHeader("Cache-Control", "no-cache")
          .withHeader("request-id", requestId(requestId))
          .withBody(body.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static ResponseDefinition json(int status, String requestId, String body) {
      return builder(status, requestId, body).build();
    }

    private static ResponseDefinitionBuilder builder(int status, String requestId, String body) {
      return ResponseDefinitionBuilder.responseDefinition()
          .withStatus(status)
          .withHeader("Content-Type", "application/json")
          .withHeader("request-id", requestId(requestId))
          .withBody(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String requestId(String given) {
      return given == null ? "req_agentdouble" : given;
    }

    private void keep(Request request) {
      Map<String, String> headers = new LinkedHashMap<>();
      for (HttpHeader header : request.getHeaders().all()) {
        String name = header.key().toLowerCase(Locale.ROOT);
        if (!name.equals("x-api-key") && !name.equals("authorization")) {
          headers.put(name, String.join(", ", header.values()));
        }
      }
      received.addLast(
          new ModelRequest(
              request.getMethod().getName(), request.getUrl(), headers, request.getBodyAsString()));
      while (received.size() > limit) {
        received.removeFirst();
      }
    }

    synchronized List<ModelRequest> received() {
      return new ArrayList<>(received);
    }

    synchronized int past() {
      return past;
    }
  }
}
