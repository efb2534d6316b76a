package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** show, diff, lint, drift and vary on ACP tapes, as the command runs them. */
class AcpTapeCommandsTest {
  @TempDir Path dir;

  static String session(String answer) {
    return String.join(
        "\n",
        "{\"tape\":1,\"argv\":[\"acp\"],\"outputFormat\":\"acp\",\"source\":\"recorded\"}",
        "{\"t\":0,\"in\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"session/prompt\","
            + "\"params\":{\"sessionId\":\"s-1\"}}}",
        "{\"t\":40,\"out\":{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":"
            + "{\"sessionId\":\"s-1\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\","
            + "\"content\":{\"type\":\"text\",\"text\":\""
            + answer
            + "\"}}}}}",
        "{\"t\":41,\"out\":{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"session/request_permission\","
            + "\"params\":{\"sessionId\":\"s-1\"}}}",
        "{\"t\":42,\"in\":{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"outcome\":{\"outcome\":"
            + "\"selected\",\"optionId\":\"allow-once\"}}}}",
        "{\"t\":50,\"out\":{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"stopReason\":\"end_turn\"}}}",
        "{\"t\":60,\"exit\":0}",
        "");
  }

  private Path write(String name, String text) {
    return Cli.write(dir, name, text);
  }

  @Test
  void showTellsTheClientsMessagesFromTheAgents() {
    Path tape = write("a.tape.ndjson", session("Hello"));
    Cli.Result r = Cli.run("show", tape.toString());
    String out = new String(r.stdout(), StandardCharsets.UTF_8);
    assertThat(r.exit()).isZero();
    assertThat(out)
        .contains("output format acp")
        .contains("in   session/prompt #1")
        .contains("out  session/update         agent_message_chunk Hello")
        .contains("out  session/request_permission #0")
        .contains("in   result #0")
        .contains("out  result #1              stopReason end_turn");
  }

  @Test
  void diffComparesBothSides() {
    Path a = write("a.tape.ndjson", session("Hello"));
    Path b = write("b.tape.ndjson", session("Goodbye"));
    Cli.Result r = Cli.run("diff", a.toString(), b.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(new String(r.stdout(), StandardCharsets.UTF_8))
        .contains("out session/update")
        .contains("params.update.content.text: \"Hello\" -> \"Goodbye\"");
  }

  @Test
  void lintChecksItAsAnAcpSession() {
    Cli.Result r = Cli.run("lint", write("a.tape.ndjson", session("Hello")).toString());
    assertThat(r.err()).contains("0 errors, 0 warnings");
    assertThat(r.exit()).isZero();
  }

  @Test
  void varyRefusesWhatOnlyStreamJsonHas() {
    Path tape = write("a.tape.ndjson", session("Hello"));
    Cli.Result r = Cli.run("vary", tape.toString(), "--variant", "noise");
    assertThat(r.exit()).isNotZero();
    assertThat(r.err()).contains("variant noise changes stream-json events; this is an ACP tape");
    assertThat(Cli.run("vary", tape.toString(), "--variant", "rechunk").exit()).isZero();
  }

  @Test
  void driftComparesMessageShapes() {
    Path a = write("a.tape.ndjson", session("Hello"));
    Path b = write("b.tape.ndjson", session("Hello").replace("stopReason", "stop_reason"));
    Cli.Result r = Cli.run("drift", a.toString(), b.toString());
    assertThat(new String(r.stdout(), StandardCharsets.UTF_8))
        .contains("response to session/prompt")
        .contains("result.stop_reason");
  }
}
