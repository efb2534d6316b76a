package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble record -- cursor-agent acp}: an ACP session recorded both ways through the
 * launcher, the fake agent playing Cursor, a test driving it as a client.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RecordAcpTest {
  @TempDir Path dir;

  private static final String KEY = "sk-live-0123456789abcdefABCDEF";

  private Child session() {
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("AGENTDOUBLE_TAPE", "builtin:tool-shell");
    env.put("AGENTDOUBLE_TIMING", "fast");
    env.put("AGENTDOUBLE_TRUST", "trusted");
    env.put("CURSOR_API_KEY", KEY);
    return Child.start(
        Child.agentdouble(
            "record",
            "--quiet",
            "--out",
            dir.resolve("acp.tape.ndjson").toString(),
            "--",
            Cli.root().resolve("fake-agent/bin/cursor-agent").toString(),
            "acp"),
        dir,
        env);
  }

  @Test
  void recordsBothSidesInOrderNormalisedAndRedacted() throws IOException {
    Child r = session();
    r.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
    r.awaitOut("\"id\":1,");
    r.send(
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"authenticate\",\"params\":{\"methodId\":"
            + "\"cursor_login\",\"_meta\":{\"apiKey\":\""
            + KEY
            + "\"}}}");
    r.awaitOut("\"id\":2,");
    r.send(
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"session/new\",\"params\":{\"cwd\":\""
            + dir
            + "\",\"mcpServers\":[]}}");
    r.awaitOut("\"id\":3,");
    String out = r.out();
    String session = out.replaceAll("(?s).*\"sessionId\":\"([0-9a-f-]{36})\".*", "$1");
    r.send(
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/prompt\",\"params\":{\"sessionId\":\""
            + session
            + "\",\"prompt\":[{\"type\":\"text\",\"text\":\"Run the tests\"}]}}");
    r.awaitOut("session/request_permission");
    r.send(
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":{\"outcome\":\"selected\","
            + "\"optionId\":\"allow-once\"}}}");
    r.awaitOut("\"stopReason\":\"end_turn\"");
    assertThat(r.waitFor()).isZero();

    Tape tape = Tape.read(dir.resolve("acp.tape.ndjson"));
    assertThat(tape.header().format()).isEqualTo(OutputFormat.ACP);
    assertThat(tape.header().argv()).containsExactly("acp");
    List<Frame> frames = tape.frames();
    List<String> kinds =
        frames.stream()
            .map(f -> f instanceof Frame.In ? "in" : f instanceof Frame.Out ? "out" : "other")
            .toList();
    // each client message before what answers it
    assertThat(String.join(" ", kinds)).startsWith("in out in out in out in out");
    String text = new String(tape.toBytes(), StandardCharsets.UTF_8);
    assertThat(text)
        .doesNotContain(KEY)
        .doesNotContain(session)
        .doesNotContain(dir.toString())
        .contains("\"sessionId\":\"00000000-0000-4000-8000-000000000001\"")
        .contains("\"cwd\":\"/workspace\"")
        .contains("\"toolCallId\":\"call_000000000000000000000001\\nfc_")
        .contains("\"in\":{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":");
    assertThat(tape.header().vars().sessionId()).contains("00000000-0000-4000-8000-000000000001");
    assertThat(tape.header().vars().cwd()).contains("/workspace");
    assertThat(tape.ending()).isEqualTo(new Frame.Exit(tape.ending().t(), 0));
  }
}
