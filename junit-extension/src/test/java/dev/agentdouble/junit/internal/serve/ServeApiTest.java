package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.junit.Runs;
import dev.agentdouble.junit.Together;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble serve}'s own HTTP API, as a pytest or Jest suite uses it: enqueue tapes, add
 * stubs, read and reset the invocations, against the real fake agent (a process).
 */
@Timeout(120)
class ServeApiTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @TempDir Path dir;
  private final List<Serve> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(Serve::close);
  }

  private Serve serve(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Serve.Started s =
        Serve.start(
            args,
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(s.serve()).as(err.toString(StandardCharsets.UTF_8)).isNotNull();
    started.add(s.serve());
    return s.serve();
  }

  record Answer(int status, JsonNode json) {}

  private static Answer call(Serve serve, String method, String endpoint, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(serve.url() + endpoint))
            .timeout(Duration.ofSeconds(30))
            .header(ControlSecret.HEADER, serve.plane().secret());
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    HttpResponse<String> response =
        HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(response.statusCode(), JSON.readTree(response.body()));
  }

  private static Runs.Result fake(Serve serve, String... args) {
    return ServeTest.fake(
        Map.of(
            "AGENTDOUBLE_URL",
            serve.url(),
            "AGENTDOUBLE_SECRET",
            serve.plane().secret(),
            "AGENTDOUBLE_TIMING",
            "fast"),
        args);
  }

  private static String tape(String says, int exit) {
    return "{\"tape\":1}\n{\"t\":0,\"err\":\"" + says + "\\n\"}\n{\"t\":1,\"exit\":" + exit + "}\n";
  }

  @Test
  void enqueuedTapesAnswerInOrderAndTheInvocationsSayWhichTapeEachGot() throws Exception {
    Serve serve = serve();

    Answer first = call(serve, "POST", "/queue", tape("first", 0));
    Answer second = call(serve, "POST", "/queue", "builtin:usage-limit");
    Runs.Result one = fake(serve, "-p", "--trust", "one");
    Runs.Result two = fake(serve, "-p", "--trust", "--output-format", "json", "two");
    Answer invocations = call(serve, "GET", "/invocations", null);

    assertThat(first.status()).isEqualTo(201);
    assertThat(first.json().toString()).isEqualTo("{\"queued\":\"queued #1\",\"position\":1}");
    assertThat(second.json().get("queued").asText()).isEqualTo("builtin:usage-limit");
    assertThat(one.err()).isEqualTo("first\n");
    assertThat(one.exit()).isZero();
    assertThat(two.exit()).isEqualTo(1);
    assertThat(two.err()).startsWith("ActionRequiredError: You've hit your usage limit.");
    JsonNode list = invocations.json().get("invocations");
    assertThat(list).hasSize(2);
    assertThat(list.get(0).get("prompt").asText()).isEqualTo("one");
    assertThat(list.get(0).get("tape").asText()).isEqualTo("queued #1");
    assertThat(list.get(1).get("prompt").asText()).isEqualTo("two");
    assertThat(list.get(1).get("outputFormat").asText()).isEqualTo("json");
    assertThat(list.get(1).get("tape").asText()).isEqualTo("builtin:usage-limit");
    assertThat(call(serve, "GET", "/unused", null).json().toString()).isEqualTo("{\"unused\":[]}");
  }

  /** Invocations sent to serve at once, from as many threads. */
  static final int AT_ONCE = 50;

  private static List<String> prompts(String prefix, int count) {
    List<String> prompts = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      prompts.add(prefix + i);
    }
    return prompts;
  }

  /** The invocations serve lists, oldest first: prompt and tape of each. */
  private static List<String> listed(Serve serve) throws Exception {
    List<String> listed = new ArrayList<>();
    for (JsonNode item : call(serve, "GET", "/invocations", null).json().get("invocations")) {
      listed.add(item.get("prompt").asText() + " -> " + item.get("tape").asText());
    }
    return listed;
  }

  @RepeatedTest(4)
  void invocationsSentAtOnceTakeOneQueuedTapeEachInOrderOfArrival() throws Exception {
    Serve serve = serve();
    for (int t = 1; t <= AT_ONCE + 1; t++) {
      call(serve, "POST", "/queue", tape("tape " + t, 0));
    }

    Map<String, String> got =
        Together.post(
            URI.create(serve.url() + "/invocations"),
            serve.plane().secret(),
            prompts("run ", AT_ONCE));

    List<String> tapes = prompts("queued #", AT_ONCE);
    assertThat(got.values()).containsExactlyInAnyOrderElementsOf(tapes);
    assertThat(call(serve, "GET", "/unused", null).json().toString())
        .isEqualTo("{\"unused\":[\"queued #" + (AT_ONCE + 1) + "\"]}");
    // listed in the order they reached serve, which is the order they took the queue's tapes
    List<String> listed = listed(serve);
    assertThat(listed).hasSize(AT_ONCE);
    for (int i = 0; i < AT_ONCE; i++) {
      String prompt = listed.get(i).substring(0, listed.get(i).indexOf(" -> "));
      assertThat(listed.get(i)).isEqualTo(prompt + " -> " + tapes.get(i));
      assertThat(got.get(prompt)).isEqualTo(tapes.get(i));
    }
  }

  @RepeatedTest(2)
  void invocationsSentAtOnceTakeOneReplyOfAStubOrQueuedTapeEach() throws Exception {
    Serve serve = serve();
    int half = AT_ONCE / 2;
    ObjectNode spec = JSON.createObjectNode();
    spec.putObject("match").put("prompt", "^fix");
    ArrayNode replies = spec.putArray("tapes");
    for (int t = 1; t <= half; t++) {
      replies.add(tape("fix " + t, 0));
    }
    call(serve, "POST", "/stubs", spec.toString());
    for (int t = 1; t <= half + 1; t++) {
      call(serve, "POST", "/queue", tape("tape " + t, 0));
    }
    List<String> prompts = new ArrayList<>();
    for (int i = 1; i <= half; i++) {
      prompts.add("fix " + i);
      prompts.add("say " + i);
    }

    Map<String, String> got =
        Together.post(URI.create(serve.url() + "/invocations"), serve.plane().secret(), prompts);

    List<String> fixes = new ArrayList<>();
    List<String> queued = new ArrayList<>();
    for (String item : listed(serve)) {
      (item.startsWith("fix") ? fixes : queued).add(item.substring(item.indexOf(" -> ") + 4));
    }
    List<String> stubReplies = new ArrayList<>();
    for (int t = 1; t <= half; t++) {
      stubReplies.add("stub 1 reply " + t);
    }
    assertThat(fixes).containsExactlyElementsOf(stubReplies);
    assertThat(queued).containsExactlyElementsOf(prompts("queued #", half));
    assertThat(got.values()).doesNotHaveDuplicates().hasSize(AT_ONCE);
    assertThat(call(serve, "GET", "/unused", null).json().toString())
        .isEqualTo("{\"unused\":[\"queued #" + (half + 1) + "\"]}");
  }

  @Test
  void fakesStartedTogetherTakeOneQueuedTapeEach() throws Exception {
    Serve serve = serve();
    int fakes = 8;
    for (int t = 1; t <= fakes; t++) {
      call(serve, "POST", "/queue", tape("tape " + t, 0));
    }

    assertThat(ServeTest.root().resolve("fake-agent/target/fake-agent.jar"))
        .as("the fake agent's jar (built before this module in the reactor)")
        .exists();
    Map<String, Runs.Result> runs =
        Together.run(
            ServeTest.root().resolve("fake-agent/bin/cursor-agent"),
            Map.of(
                "AGENTDOUBLE_URL",
                serve.url(),
                "AGENTDOUBLE_SECRET",
                serve.plane().secret(),
                "AGENTDOUBLE_TIMING",
                "fast"),
            prompts("run ", fakes));

    assertThat(runs.values()).allSatisfy(r -> assertThat(r.exit()).as(r.err()).isZero());
    assertThat(runs.values().stream().map(Runs.Result::err))
        .containsExactlyInAnyOrderElementsOf(
            prompts("tape ", fakes).stream().map(t -> t + "\n").toList());
    List<String> listed = listed(serve);
    for (int i = 0; i < fakes; i++) {
      String prompt = listed.get(i).substring(0, listed.get(i).indexOf(" -> "));
      assertThat(listed.get(i)).isEqualTo(prompt + " -> queued #" + (i + 1));
      assertThat(runs.get(prompt).err()).isEqualTo("tape " + (i + 1) + "\n");
    }
    assertThat(call(serve, "GET", "/unused", null).json().toString()).isEqualTo("{\"unused\":[]}");
  }

  @Test
  void unusedStaysExactWhenTheJournalHasForgottenTheInvocationsThatTookTheTapes() throws Exception {
    Serve serve = serve("--journal-limit", "2");
    for (int t = 1; t <= 5; t++) {
      call(serve, "POST", "/queue", tape("tape " + t, 0));
    }
    URI invocations = URI.create(serve.url() + "/invocations");

    List<String> got = new ArrayList<>();
    for (String prompt : prompts("run ", 3)) {
      got.addAll(Together.post(invocations, serve.plane().secret(), List.of(prompt)).values());
    }

    assertThat(got).containsExactly("queued #1", "queued #2", "queued #3");
    // the journal keeps the last two requests: the first invocation is no longer in it
    assertThat(listed(serve)).containsExactly("run 2 -> queued #2", "run 3 -> queued #3");
    assertThat(call(serve, "GET", "/unused", null).json().toString())
        .isEqualTo("{\"unused\":[\"queued #4\",\"queued #5\"]}");
  }

  @Test
  void aStubAnswersWhatItsMatchLetsThroughBeforeTheQueueAndTheFolder() throws Exception {
    Path folder = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(folder.resolve("any.tape.ndjson"), tape("folder", 0));
    Serve serve = serve("--tapes", folder.toString());
    call(serve, "POST", "/queue", tape("queued", 0));
    ObjectNode spec = JSON.createObjectNode();
    spec.putObject("match").put("prompt", "^fix");
    spec.putArray("tapes").add(tape("fixed once", 0)).add(tape("fixed twice", 0));
    Answer stub = call(serve, "POST", "/stubs", spec.toString());

    Runs.Result fix1 = fake(serve, "-p", "--trust", "fix the bug");
    Runs.Result other = fake(serve, "-p", "--trust", "say hi");
    Runs.Result fix2 = fake(serve, "-p", "--trust", "fix it again");
    Runs.Result later = fake(serve, "-p", "--trust", "say bye");
    Runs.Result fix3 = fake(serve, "-p", "--trust", "fix a third time");

    assertThat(stub.status()).isEqualTo(201);
    assertThat(fix1.err()).isEqualTo("fixed once\n");
    assertThat(other.err()).isEqualTo("queued\n");
    assertThat(fix2.err()).isEqualTo("fixed twice\n");
    assertThat(later.err()).isEqualTo("folder\n");
    // no repeatLast: a third "fix" falls through to the folder
    assertThat(fix3.err()).isEqualTo("folder\n");
  }

  /** The words of InvocationPattern and TextMatch, as JSON (MatchVocabularyTest walks them all). */
  @Test
  void aStubTakesTheWordsOfAnInvocationPattern() throws Exception {
    Serve serve = serve();
    ObjectNode spec = JSON.createObjectNode();
    ObjectNode match = spec.putObject("match");
    match.putObject("prompt").put("containing", "fix");
    match.putArray("argv").add("--trust").addObject().put("matching", "--output-format=?");
    match.putObject("model").put("absent", true);
    match.putObject("cwd").put("containing", "/");
    spec.putArray("tapes").add(tape("fixed", 0));
    call(serve, "POST", "/stubs", spec.toString());

    Runs.Result fix = fake(serve, "-p", "--trust", "--output-format", "text", "please FIX it");
    Runs.Result fixed = fake(serve, "-p", "--trust", "--output-format", "text", "fix the bug");
    Runs.Result withModel =
        fake(
            serve, "-p", "--trust", "--output-format", "text", "--model", "composer-2.5", "fix it");

    assertThat(fix.exit()).isEqualTo(70);
    assertThat(fix.err()).contains("closest: stub 1; it missed: prompt fix, was \"please FIX it\"");
    assertThat(fixed.err()).isEqualTo("fixed\n");
    assertThat(withModel.exit()).isEqualTo(70);
    assertThat(withModel.err()).contains("it missed: model (absent), was \"composer-2.5\"");
  }

  @Test
  void resetForgetsTheQueueTheStubsAndTheInvocationsAndKeepsTheFolder() throws Exception {
    Path folder = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(folder.resolve("any.tape.ndjson"), tape("folder", 0));
    Serve serve = serve("--tapes", folder.toString());
    call(serve, "POST", "/queue", tape("queued", 0));
    call(serve, "POST", "/queue", tape("never taken", 0));
    fake(serve, "-p", "--trust", "one");
    Answer unused = call(serve, "GET", "/unused", null);

    Answer reset = call(serve, "POST", "/reset", null);
    Runs.Result after = fake(serve, "-p", "--trust", "two");

    assertThat(unused.json().toString()).isEqualTo("{\"unused\":[\"queued #2\"]}");
    assertThat(reset.status()).isEqualTo(200);
    assertThat(after.err()).isEqualTo("folder\n");
    JsonNode list = call(serve, "GET", "/invocations", null).json().get("invocations");
    assertThat(list).hasSize(1);
    assertThat(list.get(0).get("prompt").asText()).isEqualTo("two");
  }

  @Test
  void anInvocationNothingAnswersIsListedAsUnmatchedAndTheFakeExits70() throws Exception {
    Serve serve = serve();

    Runs.Result run = fake(serve, "-p", "--trust", "nobody answers this");
    Answer answer = call(serve, "GET", "/invocations", null);
    JsonNode list = answer.json().get("invocations");

    assertThat(list).as("%s", answer).isNotNull();
    assertThat(run.exit()).isEqualTo(70);
    assertThat(run.err()).startsWith("agentdouble: the control server");
    assertThat(list).hasSize(1);
    assertThat(list.get(0).get("tape").isNull()).isTrue();
    assertThat(list.get(0).get("unmatched").asBoolean()).isTrue();
  }

  @Test
  void badRequestsGetAJsonErrorThatSaysWhatToFix() throws Exception {
    Serve serve = serve();

    Answer badTape = call(serve, "POST", "/queue", "{\"tape\":1}\n{\"t\":0,\"exit\":\"zero\"}\n");
    Answer unknown = call(serve, "POST", "/queue", "builtin:usage-limt");
    Answer empty = call(serve, "POST", "/queue", "");
    Answer notJson = call(serve, "POST", "/stubs", "match: fix");
    Answer badKey = call(serve, "POST", "/stubs", "{\"match\":{\"pwd\":\"/x\"},\"tapes\":[\"x\"]}");
    Answer badOperator =
        call(
            serve,
            "POST",
            "/stubs",
            "{\"match\":{\"cwd\":{\"startsWith\":\"/x\"}},\"tapes\":[\"builtin:hang\"]}");
    Answer noTapes = call(serve, "POST", "/stubs", "{\"match\":{\"prompt\":\"x\"}}");
    Answer badRegex =
        call(
            serve, "POST", "/stubs", "{\"match\":{\"prompt\":\"(\"},\"tapes\":[\"builtin:hang\"]}");
    Answer wrongMethod = call(serve, "GET", "/queue", null);

    assertThat(badTape.status()).isEqualTo(400);
    assertThat(badTape.json().get("error").asText()).startsWith("queue:2:");
    assertThat(unknown.json().get("error").asText())
        .startsWith("queue: no built-in tape named \"usage-limt\"; did you mean usage-limit");
    assertThat(empty.json().get("error").asText()).startsWith("queue: no tape: send a tape's");
    assertThat(notJson.status()).isEqualTo(400);
    assertThat(notJson.json().get("error").asText()).startsWith("stubs: the body is not JSON");
    assertThat(badKey.json().get("error").asText())
        .startsWith("stubs: unknown match condition \"pwd\"");
    assertThat(badOperator.json().get("error").asText())
        .isEqualTo(
            "stubs: match.cwd: unknown operator \"startsWith\"; the operators are equalTo,"
                + " equalToIgnoringCase, containing, notContaining, matching, notMatching,"
                + " containingMatch, absent");
    assertThat(noTapes.json().get("error").asText())
        .startsWith("stubs: \"tapes\" must be a non-empty array");
    assertThat(badRegex.json().get("error").asText())
        .startsWith("stubs: match.prompt is not a valid regular expression");
    assertThat(wrongMethod.status()).isEqualTo(405);
    for (Answer a :
        List.of(badTape, unknown, empty, notJson, badKey, badOperator, noTapes, badRegex)) {
      assertThat(a.json().toString()).doesNotContain("Exception", "\tat ");
    }
  }

  @Test
  void theApiRefusesRequestsWithoutTheSecret() throws Exception {
    Serve serve = serve();

    HttpResponse<String> queue =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(serve.url() + "/queue"))
                .POST(HttpRequest.BodyPublishers.ofString("builtin:usage-limit"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    HttpResponse<String> invocations =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(serve.url() + "/invocations"))
                .header(ControlSecret.HEADER, "not-the-secret")
                .build(),
            HttpResponse.BodyHandlers.ofString());

    assertThat(queue.statusCode()).isEqualTo(ControlSecret.REFUSED);
    assertThat(invocations.statusCode()).isEqualTo(ControlSecret.REFUSED);
    assertThat(call(serve, "GET", "/unused", null).json().toString()).isEqualTo("{\"unused\":[]}");
  }

  @Test
  void apiTapesTakeServesTiming() throws Exception {
    Serve serve = serve("--timing", "fast");
    call(
        serve,
        "POST",
        "/queue",
        "{\"tape\":1}\n{\"t\":60000,\"err\":\"late\\n\"}\n{\"t\":60001,\"exit\":0}\n");

    Runs.Result run =
        ServeTest.fake(
            Map.of("AGENTDOUBLE_URL", serve.url(), "AGENTDOUBLE_SECRET", serve.plane().secret()),
            "-p",
            "--trust",
            "hi");

    // a minute as recorded; the fake's own timing is unset, so only serve's fast made it quick
    assertThat(run.exit()).isZero();
    assertThat(run.err()).isEqualTo("late\n");
  }
}
