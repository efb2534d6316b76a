package dev.agentdouble.junit.internal;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The control plane as another local user meets it: a raw HTTP client on loopback without the
 * per-run secret can neither get a tape, read the invocations, add a stub, nor shut it down.
 */
@Timeout(60)
class ControlPlaneTest {
  private static final String PATH = "/agentdouble/test-1/invocations";
  private static final String INVOCATION =
      "{\"argv\":[\"-p\",\"hi\"],\"prompt\":\"my secret plan\"}";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private ControlPlane plane;

  @BeforeEach
  void start() {
    plane = ControlPlane.start();
    plane
        .server()
        .stubFor(
            post(urlEqualTo(PATH)).willReturn(aResponse().withStatus(200).withBody("the tape")));
  }

  @AfterEach
  void stop() {
    plane.close();
  }

  private HttpResponse<String> send(
      String method, String path, String body, Optional<String> secret)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(plane.baseUrl() + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    secret.ifPresent(s -> request.header("X-AgentDouble-Secret", s));
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutTheSecretEveryRequestIsRefused() throws Exception {
    List<String> refused = new ArrayList<>();
    for (Optional<String> secret :
        List.of(
            Optional.<String>empty(),
            Optional.of("guess"),
            Optional.of(plane.secret().substring(1)),
            Optional.of(plane.secret() + "x"))) {
      for (String[] r :
          new String[][] {
            {"POST", PATH, INVOCATION}, // ask for a tape
            {"POST", PATH + "/stopped", INVOCATION},
            {"GET", "/__admin/requests", null}, // read the invocations
            {"GET", "/__admin/mappings", null}, // read the stubs (tapes)
            {
              "POST",
              "/__admin/mappings",
              "{\"request\":{\"method\":\"ANY\"},"
                  + "\"response\":{\"status\":200,\"body\":\"injected\"}}"
            }, // add a stub
            {"POST", "/__admin/reset", null},
            {"POST", "/__admin/shutdown", null}
          }) {
        HttpResponse<String> response = send(r[0], r[1], r[2], secret);
        refused.add(r[0] + " " + r[1] + " " + response.statusCode());
        assertThat(response.body()).doesNotContain("the tape", "my secret plan", "test-1");
      }
    }

    assertThat(refused).allMatch(r -> r.endsWith(" 401"), "all refused");
    assertThat(plane.server().isRunning()).isTrue();
    assertThat(plane.server().listAllStubMappings().getMappings())
        .noneMatch(m -> String.valueOf(m.getResponse().getBody()).contains("injected"));
    // a refused request is no invocation: tests never see it
    assertThat(plane.server().findAll(anyRequestedFor(urlMatching("/agentdouble/.*")))).isEmpty();
    assertThat(plane.server().findAllUnmatchedRequests()).isEmpty();
  }

  @Test
  void withTheSecretTheFakesRequestsAreAnsweredAndTheSecretIsNotKept() throws Exception {
    HttpResponse<String> tape = send("POST", PATH, INVOCATION, Optional.of(plane.secret()));
    HttpResponse<String> journal =
        send("GET", "/__admin/requests", null, Optional.of(plane.secret()));

    assertThat(tape.statusCode()).isEqualTo(200);
    assertThat(tape.body()).isEqualTo("the tape");
    assertThat(journal.statusCode()).isEqualTo(200);
    assertThat(journal.body()).contains("my secret plan").doesNotContain(plane.secret());
    assertThat(plane.server().findAll(anyRequestedFor(urlEqualTo(PATH))))
        .singleElement()
        .satisfies(r -> assertThat(r.containsHeader("X-AgentDouble-Secret")).isFalse());
  }

  @Test
  void eachPlaneHasItsOwnUnguessableSecret() {
    try (ControlPlane other = ControlPlane.start()) {
      assertThat(plane.secret()).hasSize(43).matches("[A-Za-z0-9_-]+").isNotEqualTo(other.secret());
    }
  }
}
