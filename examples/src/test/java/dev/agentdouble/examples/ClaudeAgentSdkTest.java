package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.testing.TestProcess;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Anthropic's own client, the TypeScript Agent SDK ({@code @anthropic-ai/claude-agent-sdk}), drives
 * the fake's {@code claude} ({@code pathToClaudeCodeExecutable}): one query of three turns on one
 * process, with a tool call its {@code canUseTool} callback allows, an interrupt, and a turn after
 * it, all answered by a tape recorded from the real Claude Code 2.1.328 under the same SDK ({@code
 * claude-sdk/sdk-session.tape.ndjson}). The script is {@code claude-sdk/query.mjs}.
 *
 * <p>npm installs the SDK, at a pinned version, into {@code target/claude-agent-sdk}; where node or
 * npm is missing, or the registry cannot be reached, the test is skipped with a message saying so.
 */
@Timeout(300)
class ClaudeAgentSdkTest {
  /** The SDK version the tape was recorded with. */
  static final String SDK_VERSION = "0.3.328";

  private static final Path SDK_PREFIX = Path.of("target", "claude-agent-sdk").toAbsolutePath();
  private static final Path SDK_PACKAGE =
      SDK_PREFIX.resolve("node_modules/@anthropic-ai/claude-agent-sdk");
  private static final Path CLAUDE =
      Path.of(System.getProperty("agentdouble.root", ".."), "fake-agent/bin/claude")
          .toAbsolutePath()
          .normalize();

  private static Path node;

  @BeforeAll
  static void installTheSdk() throws Exception {
    node = Npm.node("the Agent SDK test");
    Npm.install(
        SDK_PREFIX,
        "@anthropic-ai/claude-agent-sdk",
        SDK_VERSION,
        // the SDK's optional dependency is a bundled claude binary: the test runs the fake
        "--omit=optional",
        "--legacy-peer-deps");
  }

  @Test
  void theAgentSdkRunsAToolCallAnInterruptAndASecondTurnAgainstTheFake(@TempDir Path workspace)
      throws Exception {
    assertThat(CLAUDE).as("the fake's claude launcher (issue 25, item 1)").isExecutable();

    TestProcess.Result run =
        TestProcess.command(
                node.toString(),
                resource("claude-sdk/query.mjs").toString(),
                SDK_PACKAGE.toString(),
                CLAUDE.toString())
            .directory(workspace)
            .withoutEnv("ANTHROPIC_", "CLAUDE_")
            .env("AGENTDOUBLE_TAPE", resource("claude-sdk/sdk-session.tape.ndjson").toString())
            .env("AGENTDOUBLE_TIMING", "fast")
            .noStdin()
            .run();

    assertThat(run.exit()).as("node's exit; stderr:%n%s", run.err()).isZero();
    List<String> lines = run.out().lines().toList();
    assertThat(lines.subList(0, lines.size() - 1))
        .containsExactly(
            "MSG system/init",
            "MSG assistant",
            "MSG assistant",
            "CAN_USE_TOOL Bash {\"command\":\"touch made.txt\",\"description\":\"Make a file\"}",
            "MSG user",
            "MSG assistant",
            "MSG result/success",
            "MSG system/init",
            "INTERRUPTED",
            "MSG user",
            "MSG result/error_during_execution",
            "MSG system/init",
            "MSG assistant",
            "MSG result/success",
            "DONE");
    JsonNode results = new ObjectMapper().readTree(lines.get(lines.size() - 1)).path("results");
    assertThat(results)
        .extracting(r -> r.path("subtype").asText(), r -> r.path("result").asText(null))
        .containsExactly(
            tuple("success", "Done with the file."),
            tuple("error_during_execution", null),
            tuple("success", "After the interrupt."));
    // one process, one session: every turn's result names the same session
    assertThat(results)
        .extracting(r -> r.path("session_id").asText())
        .containsOnly(results.get(0).path("session_id").asText());
  }

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(ClaudeAgentSdkTest.class.getClassLoader().getResource(name).toURI());
  }
}
