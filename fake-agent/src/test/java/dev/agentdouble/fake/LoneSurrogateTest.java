package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lone surrogate in a tape's text (JSON {@code \ud800}, which a model's output can hold) reaches
 * the consumer as the real CLI, a Node program, writes it: in text, where Node writes a string as
 * UTF-8, as U+FFFD (bytes EF BF BD); in JSON (json, stream-json, ACP), where {@code JSON.stringify}
 * is well-formed, as the escape {@code \ud800}. Never as Java's {@code ?}.
 */
@Timeout(120)
class LoneSurrogateTest {
  private static final byte[] REPLACEMENT = {(byte) 0xef, (byte) 0xbf, (byte) 0xbd};

  /** The escape, as JSON text holds it. */
  private static final String ESCAPE = "\\ud800";

  @TempDir Path dir;
  private Path tape;

  @BeforeEach
  void aTapeWithALoneSurrogate() throws IOException {
    tape = dir.resolve("lone.tape.ndjson");
    Script.of("say it")
        .init()
        .user()
        .thinking("t\ud800")
        .assistant("a\ud800b")
        .result()
        .exit(0)
        .build()
        .write(tape);
  }

  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      out.writeBytes(
          part instanceof byte[] b ? b : ((String) part).getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }

  private FakeProcess.Result run(String style, String... args) {
    return FakeProcess.run(
        env(
            "AGENTDOUBLE_TAPE",
            tape.toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_TEXT_STYLE",
            style),
        args);
  }

  @Test
  void theFinalTextStyleWritesItAsTheReplacementCharacter() {
    FakeProcess.Result r = run("final", "-p", "--output-format", "text", "say it");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.stdout()).isEqualTo(bytes("a", REPLACEMENT, "b\n"));
  }

  @Test
  void theActionsTextStyleWritesItAsTheReplacementCharacter() {
    FakeProcess.Result r = run("actions", "-p", "--output-format", "text", "say it");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.stdout()).isEqualTo(bytes("a", REPLACEMENT, "b\n"));
  }

  @Test
  void theJsonFormatWritesItEscaped() {
    FakeProcess.Result r =
        run("final", "-p", "--output-format", "json", "--show-thinking", "say it");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("\"result\":\"a" + ESCAPE + "b\"")
        .contains("\"thinking_blocks\":[{\"text\":\"t" + ESCAPE + "\"}]")
        .doesNotContain("a?b", "t?", "\ufffd");
  }

  @Test
  void streamJsonWithLiveValuesSubstitutedWritesItEscaped() {
    // another prompt and a fresh session id: the substitution rewrites the lines around it
    FakeProcess.Result r = run("final", "-p", "--output-format", "stream-json", "a live prompt");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out())
        .contains("\"text\":\"a live prompt\"")
        .contains("\"text\":\"a" + ESCAPE + "b\"")
        .contains("\"result\":\"a" + ESCAPE + "b\"")
        .doesNotContain("a?b", "t?", "\ufffd");
  }

  @Test
  void derivedPartialOutputWritesItEscaped() {
    FakeProcess.Result r =
        run(
            "final",
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "a live prompt");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("a" + ESCAPE).doesNotContain("a?", "t?", "\ufffd");
  }

  @Test
  void acpWritesItEscaped() {
    try (AcpPeer agent = new AcpPeer(env("AGENTDOUBLE_TAPE", tape.toString()))) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", AcpPeer.prompt(session, "say it"));

      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      assertThat(agent.seen())
          .anySatisfy(
              line ->
                  assertThat(line)
                      .contains("\"sessionUpdate\":\"agent_message_chunk\"")
                      .contains("\"text\":\"a" + ESCAPE + "b\""))
          .anySatisfy(
              line ->
                  assertThat(line)
                      .contains("\"sessionUpdate\":\"agent_thought_chunk\"")
                      .contains("\"text\":\"t" + ESCAPE + "\""))
          .noneSatisfy(line -> assertThat(line).contains("\ufffd"));
      assertThat(agent.finish()).isZero();
    }
  }
}
