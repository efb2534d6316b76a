package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/** The scripted Messages API answers as a Claude tape's run was answered, and only with its key. */
class ModelApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private static final String STREAM = "{\"model\":\"claude-opus-5-5\",\"stream\":true}";
  private static final String WHOLE = "{\"model\":\"claude-opus-5-5\",\"stream\":false}";

  @TempDir Path temp;

  @Test
  void aStreamingRequestGetsTheTapesMessageAsServerSentEvents() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      HttpResponse<String> response = post(api, "/v1/messages?beta=true", STREAM);

      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("content-type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("text/event-stream"));
      // the CLI prints this header as the assistant line's request_id
      assertThat(response.headers().firstValue("request-id"))
          .hasValue("req_011Cac1c8e781aa24498bb54");
      List<JsonNode> events = events(response.body());
      assertThat(events)
          .extracting(e -> e.path("type").asText())
          .containsExactly(
              "message_start",
              "content_block_start",
              "content_block_delta",
              "content_block_stop",
              "message_delta",
              "message_stop");
      assertThat(events.get(0).path("message").path("id").asText())
          .isEqualTo("msg_01ed8c1996a91b4d4092d587");
      assertThat(events.get(0).path("message").path("usage").path("input_tokens").asInt())
          .isEqualTo(12);
      assertThat(events.get(2).path("delta").path("text").asText())
          .isEqualTo("Hello from the script.");
      // the result's output tokens: what the CLI sums into its usage and cost
      assertThat(events.get(4).path("usage").path("output_tokens").asInt()).isEqualTo(6);
      assertThat(events.get(4).path("delta").path("stop_reason").asText()).isEqualTo("end_turn");
    }
  }

  @Test
  void aRequestWithoutTheKeyGetsTheApisOwn401AndIsNotKept() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      HttpResponse<String> none = send(api, "/v1/messages", STREAM, null);
      HttpResponse<String> wrong = send(api, "/v1/messages", STREAM, "sk-ant-not-it");

      for (HttpResponse<String> refused : List.of(none, wrong)) {
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(JSON.readTree(refused.body()).path("error").path("type").asText())
            .isEqualTo("authentication_error");
      }
      assertThat(api.requests()).isEmpty();
      // the script was not spent on them
      assertThat(post(api, "/v1/messages", STREAM).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void theKeyAsABearerTokenPassesToo() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      HttpRequest request =
          HttpRequest.newBuilder(URI.create(api.baseUrl() + "/v1/messages"))
              .header("Authorization", "Bearer " + api.apiKey())
              .POST(HttpRequest.BodyPublishers.ofString(STREAM))
              .build();

      assertThat(HTTP.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void aRequestThatDoesNotStreamGetsTheWholeMessage() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      JsonNode message = JSON.readTree(post(api, "/v1/messages", WHOLE).body());

      assertThat(message.path("id").asText()).isEqualTo("msg_01ed8c1996a91b4d4092d587");
      assertThat(message.path("content").path(0).path("text").asText())
          .isEqualTo("Hello from the script.");
      assertThat(message.path("stop_reason").asText()).isEqualTo("end_turn");
      assertThat(message.path("usage").path("output_tokens").asInt()).isEqualTo(6);
    }
  }

  @Test
  void eachModelTurnIsOneAnswerAndTheTurnsOutputTokensAddUpToTheResults() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-tool-bash")) {
      List<JsonNode> first = events(post(api, "/v1/messages", STREAM).body());
      List<JsonNode> second = events(post(api, "/v1/messages", STREAM).body());

      assertThat(first)
          .filteredOn(e -> e.path("type").asText().equals("content_block_start"))
          .extracting(e -> e.path("content_block").path("type").asText())
          .containsExactly("thinking", "text", "tool_use");
      assertThat(first)
          .filteredOn(e -> e.path("delta").path("type").asText().equals("input_json_delta"))
          .extracting(e -> e.path("delta").path("partial_json").asText())
          .containsExactly("{\"command\":\"echo hi\",\"description\":\"Print hi\"}");
      JsonNode firstEnd = first.get(first.size() - 2);
      JsonNode secondEnd = second.get(second.size() - 2);
      assertThat(firstEnd.path("delta").path("stop_reason").asText()).isEqualTo("tool_use");
      assertThat(secondEnd.path("delta").path("stop_reason").asText()).isEqualTo("end_turn");
      // the tape's result counts 38 output tokens over both turns
      assertThat(
              firstEnd.path("usage").path("output_tokens").asInt()
                  + secondEnd.path("usage").path("output_tokens").asInt())
          .isEqualTo(38);
    }
  }

  @Test
  void theApiRetryLinesAreTheFailedRequestsBeforeTheAnswer() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-overloaded-retry")) {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        statuses.add(post(api, "/v1/messages", STREAM).statusCode());
      }

      assertThat(statuses).containsExactly(529, 529, 200);
    }
  }

  @Test
  void theErrorThatEndedTheRunAnswersEveryRequestFromItOn() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-usage-limit")) {
      List<HttpResponse<String>> responses = new ArrayList<>();
      for (int i = 0; i < 13; i++) {
        responses.add(post(api, "/v1/messages", i == 12 ? WHOLE : STREAM));
      }

      assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(429);
      JsonNode error = JSON.readTree(responses.get(12).body()).path("error");
      assertThat(error.path("type").asText()).isEqualTo("rate_limit_error");
      // what the CLI prints after "API Error: Request rejected (429) · "
      assertThat(error.path("message").asText())
          .isEqualTo("Number of request tokens has exceeded your per-minute rate limit");
      assertThat(api.requestsPastTheTape()).isZero();
    }
  }

  @Test
  void aStreamCutShortIsAMessageThatNeverStopsAndCountsTheTokensTheResultHasBeyondItsMessages()
      throws Exception {
    // recorded from the real claude 2.1.328 whose first stream was cut after three events
    try (ModelApi api = ModelApi.serving(resource("model-api/cut-once.tape.ndjson"))) {
      HttpResponse<String> cut = post(api, "/v1/messages", STREAM);
      List<JsonNode> answer = events(post(api, "/v1/messages", STREAM).body());

      assertThat(cut.statusCode()).isEqualTo(200);
      List<JsonNode> cutEvents = events(cut.body());
      // a block begun and never stopped: without one the CLI takes an empty answer, not a cut
      assertThat(cutEvents)
          .extracting(e -> e.path("type").asText())
          .containsExactly("message_start", "content_block_start");
      // the result counts 20 input tokens, the answer's message 10: the cut stream had the rest
      assertThat(cutEvents.get(0).path("message").path("usage").path("input_tokens").asInt())
          .isEqualTo(10);
      assertThat(cutEvents.get(0).path("message").path("model").asText())
          .isEqualTo("claude-opus-5-5");
      assertThat(answer.get(answer.size() - 1).path("type").asText()).isEqualTo("message_stop");
    }
  }

  @Test
  void aStreamCutShortIsStreamedAsFarAsItCameWhenTheTapeHoldsItsEvents() throws Exception {
    try (ModelApi api = ModelApi.serving(resource("model-api/cut-once-partial.tape.ndjson"))) {
      List<JsonNode> cut = events(post(api, "/v1/messages", STREAM).body());
      List<JsonNode> answer = events(post(api, "/v1/messages", STREAM).body());

      // what came before the cut; the CLI's own content_block_stop and message_stop left out
      assertThat(cut)
          .extracting(e -> e.path("type").asText())
          .containsExactly("message_start", "content_block_start", "content_block_delta");
      assertThat(cut.get(2).path("delta").path("text").asText()).isEqualTo("This answer is cut");
      assertThat(answer)
          .extracting(e -> e.path("type").asText())
          .startsWith("message_start")
          .endsWith("message_stop");
      assertThat(post(api, "/v1/messages", STREAM).statusCode()).isEqualTo(400);
    }
  }

  @Test
  void aRequestPastTheTapeGets400NamingTheTape() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      post(api, "/v1/messages", STREAM);
      HttpResponse<String> past = post(api, "/v1/messages", STREAM);

      assertThat(past.statusCode()).isEqualTo(400);
      assertThat(JSON.readTree(past.body()).path("error").path("message").asText())
          .contains("builtin:claude-answer scripts 1 answers and this is request 2");
      assertThat(api.requestsPastTheTape()).isEqualTo(1);
    }
  }

  @Test
  void countTokensIsAnsweredAndOtherPathsGetTheApis404() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      HttpResponse<String> count = post(api, "/v1/messages/count_tokens", "{}");
      HttpResponse<String> other = post(api, "/v1/complete", "{}");

      assertThat(count.statusCode()).isEqualTo(200);
      assertThat(JSON.readTree(count.body()).path("input_tokens").isInt()).isTrue();
      assertThat(other.statusCode()).isEqualTo(404);
      assertThat(JSON.readTree(other.body()).path("error").path("type").asText())
          .isEqualTo("not_found_error");
      // neither spent the script
      assertThat(post(api, "/v1/messages", STREAM).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void theRequestsAreKeptInOrderWithoutTheKey() throws Exception {
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      post(api, "/v1/messages?beta=true", STREAM);

      assertThat(api.requests()).hasSize(1);
      ModelRequest request = api.requests().get(0);
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/v1/messages?beta=true");
      assertThat(request.body()).isEqualTo(STREAM);
      assertThat(request.headers()).doesNotContainKey("x-api-key");
      assertThat(request.headers().toString()).doesNotContain(api.apiKey());
    }
  }

  @Test
  void theEnvironmentPointsTheCliHereWithAHomeOfItsOwnThatCloseDeletes() throws Exception {
    Path home;
    try (ModelApi api = ModelApi.serving("builtin:claude-answer")) {
      assertThat(api.environment())
          .containsEntry("ANTHROPIC_BASE_URL", api.baseUrl())
          .containsEntry("ANTHROPIC_API_KEY", api.apiKey())
          .containsEntry("DISABLE_TELEMETRY", "1")
          .containsEntry("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
      assertThat(api.apiKey()).startsWith("sk-ant-"); // so a recorder redacts it
      home = Path.of(api.environment().get("HOME"));
      assertThat(home).isDirectory();
      ProcessBuilder claude = api.claude(Path.of("claude"), List.of("-p", "hi"));
      assertThat(claude.command()).containsExactly("claude", "-p", "hi");
      assertThat(claude.directory().toPath()).isEqualTo(api.workFolder());
      assertThat(claude.environment()).containsEntry("HOME", home.toString());
    }
    assertThat(home).doesNotExist();
  }

  @Test
  void aTapeItCannotServeIsRefusedNamingTheTapeAndTheFix() throws Exception {
    Path text = temp.resolve("text.tape.ndjson");
    Files.writeString(
        text,
        "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"text\",\"argv\":[\"-p\",\"hi\"]}\n"
            + "{\"t\":0,\"outRaw\":\"hi\\n\"}\n{\"t\":1,\"exit\":0}\n");

    assertThatThrownBy(() -> ModelApi.serving("builtin:documented-minimal"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("builtin:documented-minimal: a tape of cursor-agent")
        .hasMessageContaining("serves Claude Code tapes");
    assertThatThrownBy(() -> ModelApi.serving(text.toString()))
        .hasMessageContaining(text + ": recorded in text")
        .hasMessageContaining("record the run with --output-format stream-json --verbose");
    assertThatThrownBy(() -> ModelApi.serving("builtin:claude-not-logged-in"))
        .hasMessageContaining("builtin:claude-not-logged-in: the run never reached the model");
    assertThatThrownBy(() -> ModelApi.serving(temp.resolve("none.tape.ndjson").toString()))
        .hasMessageContaining("none.tape.ndjson: no such file");
  }

  @Test
  @ResourceLock(Resources.SYSTEM_PROPERTIES)
  void theInstalledClaudeIsTheOneTheSystemPropertyNames() {
    String before = System.getProperty("agentdouble.claude");
    System.setProperty("agentdouble.claude", temp.resolve("my-claude").toString());
    try {
      assertThat(ModelApi.installedClaude()).hasValue(temp.resolve("my-claude"));
    } finally {
      if (before == null) {
        System.clearProperty("agentdouble.claude");
      } else {
        System.setProperty("agentdouble.claude", before);
      }
    }
  }

  private static HttpResponse<String> post(ModelApi api, String path, String body)
      throws Exception {
    return send(api, path, body, api.apiKey());
  }

  private static HttpResponse<String> send(ModelApi api, String path, String body, String key)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(api.baseUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      request.header("x-api-key", key);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String resource(String name) throws Exception {
    return Path.of(ModelApiTest.class.getClassLoader().getResource(name).toURI()).toString();
  }

  /** The {@code data:} JSON of each event of an SSE body. */
  private static List<JsonNode> events(String body) throws Exception {
    List<JsonNode> events = new ArrayList<>();
    for (String line : body.split("\n")) {
      if (line.startsWith("data: ")) {
        events.add(JSON.readTree(line.substring(6)));
      }
    }
    return events;
  }
}
