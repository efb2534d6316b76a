package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A {@link ModelApi} registered as a field lives as long as the field: a new one for each test and
 * closed after it (an instance field), or one for the class, closed after its last test (a static
 * field); closed, its port answers nothing and its folders are gone.
 */
class ModelApiLifecycleTest {
  /**
   * What each test of the classes below saw, by class (this class's tests run side by side): its
   * model API's base URL and home.
   */
  static final List<List<String>> PER_TEST = new CopyOnWriteArrayList<>();

  static final List<List<String>> SHARED = new CopyOnWriteArrayList<>();

  @Test
  void anInstanceFieldIsANewModelApiForEachTestClosedAfterIt() throws Exception {
    PER_TEST.clear();

    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(PerTest.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(2));

    assertThat(PER_TEST).hasSize(2);
    assertThat(PER_TEST.get(0).get(0)).isNotEqualTo(PER_TEST.get(1).get(0));
    for (List<String> seen : PER_TEST) {
      assertClosed(seen);
    }
  }

  @Test
  void aStaticFieldIsOneModelApiForTheClassClosedAfterIt() throws Exception {
    SHARED.clear();

    EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(Shared.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(2));

    assertThat(SHARED).hasSize(2);
    assertThat(SHARED.get(0)).isEqualTo(SHARED.get(1));
    assertClosed(SHARED.get(0));
  }

  private static void assertClosed(List<String> seen) {
    assertThat(Path.of(seen.get(1))).doesNotExist();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(seen.get(0) + "/v1/messages"))
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    assertThatThrownBy(() -> http.send(request, HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(IOException.class);
  }

  /** Answers one request, so that a test sees a live server. */
  static void use(ModelApi model, List<List<String>> seen) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(model.baseUrl() + "/v1/messages/count_tokens"))
            .timeout(Duration.ofSeconds(10))
            .header("x-api-key", model.apiKey())
            .POST(HttpRequest.BodyPublishers.ofString("{}"))
            .build();
    assertThat(
            HttpClient.newHttpClient()
                .send(request, HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(200);
    seen.add(List.of(model.baseUrl(), model.environment().get("HOME")));
  }

  static class PerTest {
    @RegisterExtension final ModelApi model = ModelApi.serving("builtin:claude-answer");

    @Test
    void first() throws Exception {
      use(model, PER_TEST);
    }

    @Test
    void second() throws Exception {
      use(model, PER_TEST);
    }
  }

  static class Shared {
    @RegisterExtension static final ModelApi MODEL = ModelApi.serving("builtin:claude-answer");

    @Test
    void first() throws Exception {
      use(MODEL, SHARED);
    }

    @Test
    void second() throws Exception {
      use(MODEL, SHARED);
    }
  }
}
