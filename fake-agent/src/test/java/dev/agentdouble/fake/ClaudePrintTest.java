package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code claude -p} run as the journal and the control plane see it (prompt, model, format,
 * session), and Claude Code's stdin and session rules: docs/claude-2.1.328-runs.md parts c and d,
 * ../shared/reference/claude-code.md §8.
 */
@Timeout(120)
class ClaudePrintTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String RESUMED = "11111111-2222-4333-8444-555555555555";

  /** A tape whose session id is a variable: the live one takes its place. */
  static final String TAPE =
      "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\","
          + "\"vars\":{\"sessionId\":\"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\","
          + "\"session_id\":\"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
          + "\"result\":\"hi\",\"session_id\":\"aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa\"}}\n"
          + "{\"t\":1,\"exit\":0}\n";

  @TempDir Path dir;
  Path journal;
  Map<String, String> env;

  @BeforeEach
  void tape() throws IOException {
    Path tape = dir.resolve("run.tape.ndjson");
    Files.writeString(tape, TAPE, StandardCharsets.UTF_8);
    journal = dir.resolve("journal.ndjson");
    env = new HashMap<>();
    env.put("AGENTDOUBLE_TAPE", tape.toString());
    env.put("AGENTDOUBLE_TIMING", "fast");
    env.put("AGENTDOUBLE_JOURNAL", journal.toString());
  }

  private FakeProcess.Result claude(String stdin, String... args) {
    return FakeProcess.run(
        ClaudeArgvTest.claude(), env, stdin.getBytes(StandardCharsets.UTF_8), args);
  }

  private JsonNode journalLine() throws IOException {
    List<String> lines = Files.readAllLines(journal, StandardCharsets.UTF_8);
    assertThat(lines).hasSize(1);
    return JSON.readTree(lines.get(0));
  }

  /**
   * A tape of one impersonated CLI is not played under the other's name: a Claude Code recording
   * through {@code cursor-agent}, or a Cursor one through {@code claude}, is the fake's own error
   * naming the launcher to use; a tape of a CLI the fake does not impersonate plays as recorded.
   */
  @Test
  void aTapeOfTheOtherCliIsRefusedNamingItsLauncher() throws IOException {
    env.put("AGENTDOUBLE_TAPE", "builtin:tool-read");
    FakeProcess.Result cursorTape = claude("", "-p", "--output-format", "json", "Say hello");
    assertThat(cursorTape.exit()).isEqualTo(70);
    assertThat(cursorTape.out()).isEmpty();
    assertThat(cursorTape.err())
        .isEqualTo(
            "agentdouble: builtin:tool-read: a recording of cursor-agent (its header's \"cli\"),"
                + " which the fake started as claude does not play: give it to"
                + " fake-agent/bin/cursor-agent, or record the run with claude\n");

    env.put("AGENTDOUBLE_TAPE", "builtin:claude-answer");
    FakeProcess.Result claudeTape = FakeProcess.run(env, "-p", "--trust", "Say hello");
    assertThat(claudeTape.exit()).isEqualTo(70);
    assertThat(claudeTape.err())
        .contains("a recording of claude (its header's \"cli\")")
        .contains("give it to fake-agent/bin/claude");

    Path codex = dir.resolve("codex.tape.ndjson");
    Files.writeString(
        codex,
        "{\"tape\":1,\"cli\":\"codex\",\"outputFormat\":\"json\"}\n"
            + "{\"t\":0,\"out\":{\"type\":\"thread.started\"}}\n{\"t\":1,\"exit\":0}\n",
        StandardCharsets.UTF_8);
    env.put("AGENTDOUBLE_TAPE", codex.toString());
    FakeProcess.Result other =
        FakeProcess.run(env, "-p", "--trust", "--output-format", "json", "x");
    assertThat(other.exit()).as(other.err()).isZero();
    assertThat(other.out()).isEqualTo("{\"type\":\"thread.started\"}\n");
  }

  @Test
  void theInvocationCarriesPromptModelFormatAndSession() throws IOException {
    FakeProcess.Result r =
        claude("", "-p", "--output-format", "json", "--model", "sonnet", "Say hello");

    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode line = journalLine();
    assertThat(line.path("prompt").asText()).isEqualTo("Say hello");
    assertThat(line.path("model").asText()).isEqualTo("sonnet");
    assertThat(line.path("outputFormat").asText()).isEqualTo("json");
    assertThat(line.path("sessionId").asText()).matches("[0-9a-f-]{36}").isNotEqualTo(RESUMED);
    assertThat(r.out()).contains("\"session_id\":\"" + line.path("sessionId").asText() + "\"");
  }

  @Test
  void pipedTextIsThePromptOrJoinsTheArgumentAfterANewline() throws IOException {
    // FINDINGS c.1 and c.2: stdin's bytes kept, the trailing newline too
    claude("piped line one\npiped line two\n", "-p", "Summarise this");
    assertThat(journalLine().path("prompt").asText())
        .isEqualTo("Summarise this\npiped line one\npiped line two\n");

    Files.delete(journal);
    claude("Say hello from stdin\n", "-p");
    assertThat(journalLine().path("prompt").asText()).isEqualTo("Say hello from stdin\n");
  }

  @Test
  void theSessionIsTheOneGivenOrResumedAndANewOneWhenForked() throws IOException {
    String given = "22222222-3333-4444-8555-666666666666";
    assertThat(sessionOf("-p", "--session-id", given, "hi")).isEqualTo(given);
    assertThat(sessionOf("-p", "--resume", RESUMED, "hi")).isEqualTo(RESUMED);
    assertThat(sessionOf("-p", "-r", RESUMED, "hi")).isEqualTo(RESUMED);
    assertThat(sessionOf("-p", "--resume", RESUMED, "--fork-session", "hi"))
        .isNotEqualTo(RESUMED)
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    assertThat(sessionOf("-p", "--resume", RESUMED, "--fork-session", "--session-id", given, "hi"))
        .isEqualTo(given);
    assertThat(sessionOf("-p", "--continue", "hi"))
        .isEqualTo("aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa");
  }

  private String sessionOf(String... args) throws IOException {
    Files.deleteIfExists(journal);
    FakeProcess.Result r = claude("", args);
    assertThat(r.exit()).as(r.err()).isZero();
    String id = journalLine().path("sessionId").asText();
    assertThat(r.out()).isEqualTo("hi\n");
    return id;
  }

  /**
   * A tape recorded from 2026-07-14T03:33:20Z (as the recorder leaves one, the catalog's claude
   * tapes too): a rate limit that resets five hours later, an answer 605 ms in.
   */
  static final String TIMED_TAPE =
      "{\"tape\":1,\"cli\":\"claude\",\"outputFormat\":\"stream-json\","
          + "\"vars\":{\"epochMs\":1784000000000}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s\"}}\n"
          + "{\"t\":0,\"out\":{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"status\":"
          + "\"allowed\",\"resetsAt\":1784018000,\"rateLimitType\":\"five_hour\"},"
          + "\"session_id\":\"s\"}}\n"
          + "{\"t\":605,\"out\":{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":"
          + "\"text\",\"text\":\"hi\"}]},\"session_id\":\"s\","
          + "\"timestamp\":\"2026-07-14T03:33:20.605Z\"}}\n"
          + "{\"t\":610,\"out\":{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"
          + "\"result\":\"hi\",\"session_id\":\"s\"}}\n"
          + "{\"t\":615,\"exit\":0}\n";

  @Test
  void aReplaysIsoTimestampsAndResetsAtAreTheLiveClocks() throws IOException {
    Path tape = dir.resolve("timed.tape.ndjson");
    Files.writeString(tape, TIMED_TAPE, StandardCharsets.UTF_8);
    env.put("AGENTDOUBLE_TAPE", tape.toString());
    // the live run starts at 2026-01-01T00:00:00Z
    env.put("AGENTDOUBLE_EPOCH_MS", "1767225600000");

    FakeProcess.Result stream =
        claude("", "-p", "--output-format", "stream-json", "--verbose", "hi");
    FakeProcess.Result json = claude("", "-p", "--output-format", "json", "--verbose", "hi");

    assertThat(stream.exit()).as(stream.err()).isZero();
    List<String> lines = stream.out().lines().toList();
    assertThat(JSON.readTree(lines.get(1)).at("/rate_limit_info/resetsAt").asLong())
        .isEqualTo(1_767_243_600L);
    assertThat(JSON.readTree(lines.get(2)).path("timestamp").asText())
        .isEqualTo("2026-01-01T00:00:00.605Z");
    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.out())
        .contains("\"resetsAt\":1767243600,", "\"timestamp\":\"2026-01-01T00:00:00.605Z\"")
        .doesNotContain("2026-07-14", "1784018000");
  }

  @Test
  void aSubcommandIsNotImpersonated() {
    FakeProcess.Result r = claude("", "mcp", "list");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: claude mcp is not impersonated; the fake plays print runs (claude -p)\n");
  }

  @Test
  void withoutPrintAndWithStdoutNotATerminalTheRunPrints() {
    // FINDINGS d / a run here: `claude hi` with stdout redirected prints, as -p does
    FakeProcess.Result r = claude("", "hi");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("hi\n");
  }

  @Test
  void aProfileOfTheOtherCliIsAClearError() {
    env.put("AGENTDOUBLE_PROFILE", "2026.10");
    FakeProcess.Result claude = claude("", "-p", "hi");
    env.put("AGENTDOUBLE_PROFILE", "2.1.328");
    FakeProcess.Result cursor =
        FakeProcess.run(FakeProcess.launcher(), env, new byte[0], "-p", "--trust", "hi");

    assertThat(claude.exit()).isEqualTo(70);
    assertThat(claude.err())
        .isEqualTo(
            "agentdouble: AGENTDOUBLE_PROFILE=2026.10: is a profile of cursor-agent, not of"
                + " claude; claude takes 2.1.328, 2.1.332, or none for 2.1.328 (the default)\n");
    assertThat(cursor.exit()).isEqualTo(70);
    assertThat(cursor.err())
        .startsWith(
            "agentdouble: AGENTDOUBLE_PROFILE=2.1.328: is a profile of claude, not of"
                + " cursor-agent; cursor-agent takes ");
  }

  @Test
  void stdinLeftOpenIsLeftAfterTheWaitWithTheRealWarning() throws Exception {
    // FINDINGS c.4: a pipe that gives nothing for 3 s; the run goes on with its argument
    ProcessBuilder pb =
        FakeProcess.builder(ClaudeArgvTest.claude(), env, List.of("-p", "Say hello"));
    Process p = pb.start();
    try {
      byte[] out = p.getInputStream().readAllBytes();
      byte[] err = p.getErrorStream().readAllBytes();
      assertThat(p.waitFor()).isZero();
      assertThat(new String(out, StandardCharsets.UTF_8)).isEqualTo("hi\n");
      assertThat(new String(err, StandardCharsets.UTF_8))
          .isEqualTo(
              "Warning: no stdin data received in 3s, proceeding without it. If piping from a"
                  + " slow command, redirect stdin explicitly: < /dev/null to skip, or wait"
                  + " longer.\n");
    } finally {
      FakeProcess.kill(p);
    }
  }
}
