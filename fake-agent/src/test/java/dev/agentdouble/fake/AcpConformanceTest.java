package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cursor's real ACP transcripts ({@code conformance/acp/}, what the 2026.06.24 agent wrote) replay
 * byte for byte when driven by the client requests their ids imply: 1 initialize, 2 authenticate, 3
 * session/new, 4 session/set_mode, 5 session/prompt, and the permission request 0 allowed. The
 * agent runs with the command line it was started with, {@code cursor-agent acp} (its source shows
 * it: OpenAgentsInc/openagents {@code crates/acp-client/src/cursor.rs}, {@code arguments()} is
 * {@code ["acp"]} for the binary {@code cursor-agent}), imported into the tape's header, under the
 * fake's profile of its version ({@link ConformanceTest#profileOf}).
 */
class AcpConformanceTest {
  @TempDir Path dir;

  /** The command line of the transcripts, the program first. */
  private static final List<String> COMMAND_LINE = List.of("cursor-agent", "acp");

  private static final String CLI_VERSION = "2026.06.24";

  private static final String[] REQUESTS = {
    null,
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1,"
        + "\"clientCapabilities\":{}}}",
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"authenticate\",\"params\":{\"methodId\":"
        + "\"cursor_login\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/new\",\"params\":{\"cwd\":\"/w\","
        + "\"mcpServers\":[]}}",
    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/set_mode\",\"params\":{\"sessionId\":"
        + "\"5ae4d49f-2510-4f4d-83ec-3faac4c1571e\",\"modeId\":\"agent\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"session/prompt\",\"params\":{\"sessionId\":"
        + "\"5ae4d49f-2510-4f4d-83ec-3faac4c1571e\",\"prompt\":[{\"type\":\"text\",\"text\":"
        + "\"Run `echo hi > probe.txt`, then reply exactly done.\"}]}}",
  };

  private static Path transcript(String name) {
    Path file = FakeProcess.shared().resolve("conformance/acp").resolve(name);
    assumeTrue(Files.isRegularFile(file), file + " not found: ACP conformance skipped");
    return file;
  }

  /** The ACP tape of a transcript, as {@code agentdouble import --output-format acp} makes it. */
  private Path tape(Path transcript) throws IOException {
    Tape tape =
        Importer.importRun(
            Capture.exited(Files.readAllBytes(transcript), new byte[0], 0),
            ImportOptions.builder()
                .outputFormat(OutputFormat.ACP)
                .cli(COMMAND_LINE.get(0))
                .argv(COMMAND_LINE.subList(1, COMMAND_LINE.size()))
                .cliVersion(CLI_VERSION)
                .build());
    Path file = dir.resolve("acp.tape.ndjson");
    tape.write(file);
    return file;
  }

  /** The id a response answers; 0 for anything else. */
  private static int id(String line) {
    if (line.contains("\"method\"") || !line.startsWith("{\"jsonrpc\":\"2.0\",\"id\":")) {
      return 0;
    }
    String rest = line.substring("{\"jsonrpc\":\"2.0\",\"id\":".length());
    return Integer.parseInt(rest.substring(0, rest.indexOf(',')));
  }

  private void replays(String name) throws IOException {
    Path transcript = transcript(name);
    List<String> lines = Files.readAllLines(transcript, StandardCharsets.UTF_8);
    Map<String, String> env =
        env(
            "AGENTDOUBLE_TAPE",
            tape(transcript).toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_PROFILE",
            ConformanceTest.profileOf(CLI_VERSION));
    int requests = lines.stream().mapToInt(AcpConformanceTest::id).max().orElse(0);
    Path launcher = FakeProcess.launcher();
    assertThat(launcher.getFileName()).hasToString(COMMAND_LINE.get(0));
    try (AcpPeer agent =
        new AcpPeer(env, COMMAND_LINE.subList(1, COMMAND_LINE.size()).toArray(String[]::new))) {
      for (int id = 1; id <= requests; id++) {
        agent.sendLine(REQUESTS[id]);
        agent.response(id);
      }
      assertThat(agent.finish()).isZero();
      assertThat(agent.seen()).containsExactlyElementsOf(lines);
    }
  }

  @Test
  void aSignedOutSessionReplaysByteForByte() throws IOException {
    replays("cursor-2026.06.24-signed-out.stdout.ndjson");
  }

  @Test
  void aTurnWithAPermissionRequestReplaysByteForByte() throws IOException {
    replays("cursor-2026.06.24-turn.stdout.ndjson");
  }
}
