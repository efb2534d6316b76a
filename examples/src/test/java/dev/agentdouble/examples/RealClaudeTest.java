package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.junit.ModelApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The real {@code claude} under test, for users: their own code drives the real CLI, whose model is
 * a tape served by {@link ModelApi}, so that it runs whole turns, its own tools included, with no
 * account and no network. Here the CLI is the one npm installs into {@code target/} (skipped with a
 * message without node and npm); a user's own would come from {@link ModelApi#installedClaude()}.
 * docs/junit.md shows these tests.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RealClaudeTest {
  private static Path claude;

  @BeforeAll
  static void installTheCli() throws Exception {
    claude = RealClaude.installed();
  }

  @RegisterExtension final ModelApi model = ModelApi.serving("builtin:claude-tool-bash");

  @Test
  void theRealCliRunsTheToolTheScriptedModelAsksFor() throws Exception {
    Process run =
        model.claude(claude, List.of("-p", "--output-format", "json", "Run echo hi")).start();
    run.getOutputStream().close(); // no stdin: the prompt is the argument
    JsonNode result = new ObjectMapper().readTree(run.getInputStream());

    assertThat(run.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(run.exitValue()).isZero();
    assertThat(result.path("result").asText()).isEqualTo("It printed hi.");
    // two model turns: the second request carries what the CLI's own Bash printed
    assertThat(model.requests()).hasSize(2);
    JsonNode messages =
        new ObjectMapper().readTree(model.requests().get(1).body()).path("messages");
    JsonNode answer = messages.get(messages.size() - 1);
    assertThat(answer.path("role").asText()).isEqualTo("user");
    assertThat(answer.path("content").findValuesAsText("type")).contains("tool_result");
    assertThat(answer.path("content").toString()).contains("hi");
  }

  @Test
  void eachTestHasAModelApiOfItsOwnThatEndsWithIt() throws Exception {
    assertThat(model.requests()).isEmpty();
    Path home = Path.of(model.environment().get("HOME"));
    assertThat(home).isDirectory();
    assertThat(Files.list(home).count()).isZero();
  }
}
