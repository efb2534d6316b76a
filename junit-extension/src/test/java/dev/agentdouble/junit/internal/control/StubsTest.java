package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The queue and the sequences of one fake, as its invocations meet them over HTTP: who answers
 * which invocation, what is left unused, and that a client cannot choose its tape or its place.
 * (Many invocations at once: {@code ConcurrentInvocationsTest}, and {@code ServeApiTest} for {@code
 * serve}.)
 */
@Timeout(60)
class StubsTest {
  private static final String PATH = "/agentdouble/stubs-test/invocations";
  private static final String TAPE = ControlSecret.TAPE_HEADER;
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private final ControlPlane plane = ControlPlane.start();
  private final Stubs stubs = new Stubs(plane, PATH);

  @AfterEach
  void stop() {
    plane.close();
  }

  private static Tape says(String text) {
    return new Tape(
        Header.empty(), List.of(Frame.OutBytes.text(0, text + "\n"), new Frame.Exit(0, 0)));
  }

  /** What {@code prompt}'s invocation got: the tape's name, or the status without one. */
  private String invoke(String prompt, Map<String, String> headers) throws Exception {
    byte[] body =
        InvocationRecord.builder()
            .argv(List.of("-p", prompt))
            .prompt(prompt)
            .cwd("/work")
            .outputFormat("text")
            .pid(42)
            .cli("cursor-agent")
            .build()
            .json();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(plane.baseUrl() + PATH))
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    HttpResponse<String> answer = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    return answer.statusCode() == 200
        ? answer.headers().firstValue(TAPE).orElseThrow()
        : "HTTP " + answer.statusCode();
  }

  private String invoke(String prompt) throws Exception {
    return invoke(prompt, Map.of(ControlSecret.HEADER, plane.secret()));
  }

  private Stubs.Sequence promptContaining(String text) {
    return stubs.sequence(
        mapping ->
            mapping.withRequestBody(
                matchingJsonPath(InvocationRecord.PATH_PROMPT, WireMock.containing(text))));
  }

  @Test
  void sequencesAnswerBeforeTheQueueAndTheStubAddedLastFirst() throws Exception {
    Stubs.Sequence any = stubs.sequence(mapping -> mapping);
    any.reply(says("a1"), "a1", Optional.empty(), true);
    any.reply(says("a2"), "a2", Optional.empty(), true);
    promptContaining("fix").reply(says("b1"), "b1", Optional.empty(), true);
    stubs.enqueue(says("q1"), "q1");
    stubs.enqueue(says("q2"), "q2");

    List<String> got = new ArrayList<>();
    for (String prompt : List.of("fix it", "fix it", "say hi", "fix it", "say hi")) {
      got.add(invoke(prompt));
    }

    // as WireMock orders stubs of one priority: the one added last first
    assertThat(got).containsExactly("b1", "a1", "a2", "q1", "q2");
    assertThat(invoke("say hi")).isEqualTo("HTTP 404");
    assertThat(stubs.unused()).isEmpty();
    assertThat(stubs.unusedReplies()).isEmpty();
    assertThat(stubs.unmatched())
        .singleElement()
        .satisfies(u -> assertThat(u.body()).contains("say hi"));
  }

  @Test
  void aRepeatAnswersEveryInvocationAfterTheRepliesAndNeedNotBeUsed() throws Exception {
    Stubs.Sequence fix = promptContaining("fix");
    fix.reply(says("first"), "first", Optional.empty(), true);
    fix.reply(says("second"), "second", Optional.empty(), true);
    fix.repeat(says("again"), "again", Optional.empty());
    Stubs.Sequence optional = promptContaining("never");
    optional.reply(says("recorded"), "recorded", Optional.empty(), false);

    assertThat(stubs.unusedReplies()).containsExactly("first", "second");
    List<String> got = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      got.add(invoke("fix " + i));
    }

    assertThat(got).containsExactly("first", "second", "again", "again");
    assertThat(stubs.unusedReplies()).isEmpty();
  }

  @Test
  void whatIsLeftUnusedIsWhatNoInvocationTookInOrder() throws Exception {
    stubs.enqueue(says("q1"), "q1");
    stubs.enqueue(says("q2"), "q2");
    stubs.enqueue(says("q3"), "q3");
    Stubs.Sequence fix = promptContaining("fix");
    fix.reply(says("f1"), "f1", Optional.empty(), true);
    fix.reply(says("f2"), "f2", Optional.empty(), true);

    invoke("say hi");
    invoke("fix it");

    assertThat(stubs.queued()).isEqualTo(3);
    assertThat(stubs.unused()).containsExactly("q2", "q3");
    assertThat(stubs.unusedReplies()).containsExactly("f2");
  }

  @Test
  void aRequestWithoutTheSecretTakesNoTape() throws Exception {
    stubs.enqueue(says("q1"), "q1");

    String refused = invoke("say hi", Map.of());
    String guessed = invoke("say hi", Map.of(ControlSecret.HEADER, "guess"));

    assertThat(refused).isEqualTo("HTTP " + ControlSecret.REFUSED);
    assertThat(guessed).isEqualTo("HTTP " + ControlSecret.REFUSED);
    assertThat(stubs.unused()).containsExactly("q1");
    assertThat(invoke("say hi")).isEqualTo("q1");
  }

  @Test
  void aClientCannotChooseItsTapeNorItsPlaceInTheOrder() throws Exception {
    stubs.enqueue(says("q1"), "q1");
    stubs.enqueue(says("q2"), "q2");
    String second =
        plane.server().listAllStubMappings().getMappings().stream()
            .filter(m -> m.getResponse().getHeaders() != null)
            .filter(m -> m.getResponse().getHeaders().getHeader(TAPE).containsValue("q2"))
            .map(StubMapping::getId)
            .findFirst()
            .orElseThrow()
            .toString();

    String got =
        invoke(
            "say hi",
            Map.of(
                ControlSecret.HEADER,
                plane.secret(),
                "x-agentdouble-claim",
                second,
                "X-AgentDouble-Arrival",
                "0"));

    assertThat(got).isEqualTo("q1");
    LoggedRequest logged = plane.server().findAll(postRequestedFor(urlEqualTo(PATH))).get(0);
    assertThat(logged.header(Claims.CLAIM_HEADER).values()).doesNotContain(second);
    assertThat(logged.header(Claims.ARRIVAL_HEADER).values()).singleElement().isNotEqualTo("0");
  }

  @Test
  void aSequenceMadeBeforeAClearIsRefused() throws Exception {
    Stubs.Sequence before = promptContaining("fix");
    before.reply(says("f1"), "f1", Optional.empty(), true);
    stubs.enqueue(says("q1"), "q1");

    stubs.clear();

    assertThat(stubs.unused()).isEmpty();
    assertThat(stubs.unusedReplies()).isEmpty();
    assertThat(invoke("fix it")).isEqualTo("HTTP 404");
    assertThatThrownBy(() -> before.reply(says("f2"), "f2", Optional.empty(), true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("reset()");
  }

  @Test
  void onePathHasOneClaim() {
    assertThatThrownBy(() -> new Stubs(plane, PATH))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(PATH);
  }
}
