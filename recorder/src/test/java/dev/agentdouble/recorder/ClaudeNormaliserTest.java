package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Normalisation of Claude Code's stream-json ({@code "cli":"claude"}): its ids, the same id to the
 * same stand-in, its ISO timestamps and its project folder; Cursor's keys stay Cursor's.
 */
class ClaudeNormaliserTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  static final Pattern API_ID = Pattern.compile("(msg|toolu|req)_[A-Za-z0-9]{20,}");

  /** A run like claude 2.1.328 writes it (the stand-in's output), in {@code cwd} under home. */
  static String run(String home, String cwd) {
    try (InputStream in =
        ClaudeNormaliserTest.class.getResourceAsStream("/claude/stream-json-tool-run.ndjson")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .replace("@CWD@", cwd)
          .replace("@HOME@", home)
          .replace("@MANGLED@", cwd.replace('/', '-').replace('.', '-'))
          .replace("@KEY@", "not-a-key");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Tape claudeTape(String stdout, boolean claude) {
    ImportOptions.Builder options = ImportOptions.builder().raw(true);
    if (claude) {
      options.cli("claude");
    }
    return Importer.importRun(
        Capture.exited(stdout.getBytes(StandardCharsets.UTF_8), new byte[0], 0), options.build());
  }

  /** {@code text} with every id made another one, as another recording of the run has them. */
  static String otherIds(String text) {
    StringBuilder sb = new StringBuilder();
    Matcher m = Pattern.compile(UUID.pattern() + "|" + API_ID.pattern()).matcher(text);
    while (m.find()) {
      String id = m.group();
      String other = id.substring(0, id.length() - 4) + (id.startsWith("req_") ? "QQQQ" : "beef");
      m.appendReplacement(sb, other);
    }
    m.appendTail(sb);
    return sb.toString();
  }

  /** {@code text} recorded {@code ms} later: its ISO timestamps and its rate limit's reset. */
  static String later(String text, long ms) {
    StringBuilder sb = new StringBuilder();
    Matcher m = Pattern.compile("\"timestamp\":\"([^\"]+)\"|\"resetsAt\":([0-9]+)").matcher(text);
    while (m.find()) {
      String moved =
          m.group(1) != null
              ? "\"timestamp\":\"" + Instant.parse(m.group(1)).plusMillis(ms) + "\""
              : "\"resetsAt\":" + (Long.parseLong(m.group(2)) + ms / 1000);
      m.appendReplacement(sb, Matcher.quoteReplacement(moved));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  static final long STARTED = Instant.parse("2026-11-26T14:21:04Z").toEpochMilli();

  static Tape normalised(String home, String cwd, String stdout, long started) {
    return Normaliser.normalise(
        claudeTape(stdout, true), Normaliser.Context.NONE.cwd(cwd).home(home).epochMs(started));
  }

  static List<JsonNode> lines(Tape tape) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Out out) {
        lines.add(JSON.readTree(out.json()));
      }
    }
    return lines;
  }

  @Test
  void twoRecordingsOfOneRunNormaliseToTheSameBytes() {
    String alice = run("/home/alice", "/home/alice/proj");
    String bob = later(otherIds(run("/Users/bob", "/Users/bob/src/my.app")), 3 * 86_400_000L);
    assertThat(bob).isNotEqualTo(alice);

    Tape a = normalised("/home/alice", "/home/alice/proj", alice, STARTED);
    Tape b = normalised("/Users/bob", "/Users/bob/src/my.app", bob, STARTED + 3 * 86_400_000L);

    assertThat(new String(b.toBytes(), StandardCharsets.UTF_8))
        .isEqualTo(new String(a.toBytes(), StandardCharsets.UTF_8));
    assertThat(Normaliser.normalise(a, Normaliser.Context.NONE).toBytes())
        .as("normalising twice")
        .isEqualTo(a.toBytes());
  }

  @Test
  void idsBecomeStandInsThatStillPairAToolUseWithItsResult() throws IOException {
    String stdout = run("/home/alice", "/home/alice/proj");
    Tape tape = normalised("/home/alice", "/home/alice/proj", stdout, STARTED);
    String text = new String(tape.toBytes(), StandardCharsets.UTF_8);

    Matcher ids = Pattern.compile(UUID.pattern() + "|" + API_ID.pattern()).matcher(stdout);
    while (ids.find()) {
      assertThat(text).as("recorded id %s", ids.group()).doesNotContain(ids.group());
    }
    List<JsonNode> lines = lines(tape);
    JsonNode init = lines.get(0);
    JsonNode toolUse = lines.get(1);
    JsonNode toolResult = lines.get(2);
    assertThat(init.get("session_id").asText()).isEqualTo(Normaliser.SESSION_ID);
    assertThat(init.get("uuid").asText()).isEqualTo("00000000-0000-4000-a000-000000000001");
    assertThat(init.get("cwd").asText()).isEqualTo(Normaliser.CWD);
    assertThat(init.at("/memory_paths/auto").asText())
        .isEqualTo("/home/user/.claude/projects/-workspace/memory/");
    String toolUseId = toolUse.at("/message/content/0/id").asText();
    assertThat(toolUseId).isEqualTo("toolu_000000000000000000000001");
    assertThat(toolResult.at("/message/content/0/tool_use_id").asText()).isEqualTo(toolUseId);
    assertThat(toolUse.at("/message/id").asText()).isEqualTo("msg_000000000000000000000001");
    assertThat(lines.get(4).at("/message/id").asText()).isEqualTo("msg_000000000000000000000002");
    assertThat(toolUse.get("request_id").asText()).isEqualTo("req_" + "0".repeat(23) + "1");
    // the run started at 14:21:04 is rebased to 2026-01-01T00:00:00Z, its times with it
    assertThat(toolUse.get("timestamp").asText()).isEqualTo("2026-01-01T00:00:01.123Z");
    assertThat(lines.get(3).at("/rate_limit_info/resetsAt").asLong())
        .isEqualTo(1_795_716_000L + (Normaliser.EPOCH_MS - STARTED) / 1000);
    // timings and costs are kept, as Cursor's are
    assertThat(lines.get(5).get("duration_ms").asLong()).isEqualTo(2745);
    assertThat(lines.get(5).get("total_cost_usd").asDouble()).isEqualTo(0.00123);
  }

  /**
   * Claude Code names a project's folder after the git repository's root when the cwd is inside
   * one, every character but an ASCII letter or digit as {@code -} (docs/claude-2.1.328-runs.md
   * part j): a recording in {@code /home/alice/my_repo.git/sub} names {@code
   * -home-alice-my-repo-git}, not the cwd's form, and that too stops naming the recording's folder.
   */
  @Test
  void theProjectFolderOfAGitRootOrOfAnyCharacterIsTheCanonicalOnes() throws IOException {
    String cwd = "/home/alice/my_repo.git/sub";
    String stdout =
        run("/home/alice", cwd)
            .replace(cwd.replace('/', '-').replace('.', '-'), "-home-alice-my-repo-git");
    assertThat(stdout).contains("/home/alice/.claude/projects/-home-alice-my-repo-git/memory/");

    Tape tape = normalised("/home/alice", cwd, stdout, STARTED);

    assertThat(lines(tape).get(0).at("/memory_paths/auto").asText())
        .isEqualTo("/home/user/.claude/projects/-workspace/memory/");
    assertThat(new String(tape.toBytes(), StandardCharsets.UTF_8)).doesNotContain("alice");
  }

  @Test
  void aTapeOfAnotherCliKeepsClaudesKeysAsRecorded() {
    String stdout = run("/home/alice", "/home/alice/proj");
    Tape tape =
        Normaliser.normalise(
            claudeTape(stdout, false), Normaliser.Context.NONE.cwd("/home/alice/proj"));
    String text = new String(tape.toBytes(), StandardCharsets.UTF_8);

    assertThat(text)
        .contains("0b6f1e2d-3c4a-4e5f-8a9b-1c2d3e4f5a61", "msg_01Q7xKp3VbN8sLm2Rt5WcYzA")
        .contains("2026-11-26T14:21:05.123Z");
  }

  @Test
  void theMessagingSocketBecomesTheCanonicalOneTheFakeReplacesByItsOwn() throws IOException {
    // the real 2.1.328: <TMPDIR>/cc-socks/<its pid>.sock (docs/claude-2.1.328-runs.md part k)
    String stdout =
        run("/home/alice", "/home/alice/proj")
            .replaceFirst(
                "\"tools\":",
                "\"messaging_socket_path\":\"/home/alice/tmp/cc-socks/15333.sock\",\"tools\":");

    Tape tape = normalised("/home/alice", "/home/alice/proj", stdout, STARTED);

    assertThat(lines(tape).get(0).get("messaging_socket_path").asText())
        .isEqualTo("/tmp/cc-socks/4242.sock");
    assertThat(new String(tape.toBytes(), StandardCharsets.UTF_8)).doesNotContain("alice");
  }

  /**
   * {@code stdout} with the real 2.1.328's {@code system/permission_denied} line before its result
   * (catalog {@code builtin:claude-permission-denied}): its message names the run's cwd.
   */
  static String withDenial(String stdout, String cwd) {
    String denial =
        "{\"type\":\"system\",\"subtype\":\"permission_denied\",\"tool_name\":\"Bash\","
            + "\"tool_use_id\":\"toolu_01Hd5Fg8Jk2Lm4Np6Qr8St0V\",\"message\":\""
            + denial(cwd)
            + "\",\"uuid\":\"6bcf7d8e-9c0a-4eb5-8a6b-7c8d9eafb0c7\","
            + "\"session_id\":\"7f3c2a91-5b0e-4d6a-9c21-3e8f4b6d2a10\"}\n";
    int result = stdout.lastIndexOf("{\"duration_api_ms\"");
    return stdout.substring(0, result) + denial + stdout.substring(result);
  }

  static String denial(String cwd) {
    return "touch in '"
        + cwd
        + "/made.txt' needs approval. The path is inside the working directories for this"
        + " session ('"
        + cwd
        + "'), and Claude Code asks before a shell command creates, changes or removes files"
        + " there.";
  }

  /**
   * Claude Code names its live cwd inside its own messages; the fake replaces a Claude tape's cwd
   * there (docs/tape-format.md, §4), so the recorder rebases it there: the tape names no folder of
   * the recording's.
   */
  @Test
  void theCwdInsideClaudesOwnMessageIsRebasedAsTheFakeSubstitutesIt() throws IOException {
    String cwd = "/home/alice/my.proj";
    String stdout = withDenial(run("/home/alice", cwd), cwd);

    Tape tape = normalised("/home/alice", cwd, stdout, STARTED);

    assertThat(tape.header().vars().cwd()).contains(Normaliser.CWD);
    JsonNode denied = lines(tape).get(5);
    assertThat(denied.get("subtype").asText()).isEqualTo("permission_denied");
    assertThat(denied.get("message").asText()).isEqualTo(denial(Normaliser.CWD));
    assertThat(new String(tape.toBytes(), StandardCharsets.UTF_8)).doesNotContain("alice");
  }

  /**
   * A run whose text already names the canonical folder as a path would not come back from a
   * replay: its cwd stays as recorded, declared so, inside the message too.
   */
  @Test
  void aClaudeRunNamingTheCanonicalFolderInItsTextKeepsItsCwd() throws IOException {
    String cwd = "/home/alice/proj";
    String stdout =
        withDenial(run("/home/alice", cwd), cwd)
            .replace("rotate it.", "rotate it, as in '/workspace/notes.txt'.");

    Tape tape = normalised("/home/alice", cwd, stdout, STARTED);

    assertThat(tape.header().vars().cwd()).contains(cwd);
    assertThat(lines(tape).get(5).get("message").asText()).isEqualTo(denial(cwd));
    assertThat(lines(tape).get(4).at("/message/content/0/text").asText())
        .endsWith("as in '/workspace/notes.txt'.");
  }

  @Test
  void aTapeOfAnotherCliKeepsTheCwdInsideAStringAsRecorded() throws IOException {
    String cwd = "/home/alice/proj";
    String stdout = withDenial(run("/home/alice", cwd), cwd);

    Tape tape = Normaliser.normalise(claudeTape(stdout, false), Normaliser.Context.NONE.cwd(cwd));

    assertThat(tape.header().vars().cwd()).contains(Normaliser.CWD);
    assertThat(lines(tape).get(0).get("cwd").asText()).isEqualTo(Normaliser.CWD);
    assertThat(lines(tape).get(5).get("message").asText()).isEqualTo(denial(cwd));
  }
}
