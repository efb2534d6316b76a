package dev.agentdouble.fake.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Vars;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class SubstitutionTest {
  static final String SID = "0f6fa7cf-4483-4a6d-ab20-21fb703f6e97";
  static final Vars RECORDED =
      Vars.NONE
          .sessionId(SID)
          .cwd("/home/user/project")
          .home("/home/user")
          .prompt("say \"hi\"")
          .epochMs(1_000_000);

  private static String apply(Vars vars, LiveValues live, String json) {
    ByteBuf out = new ByteBuf();
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    Substitution.of(vars, live).apply(bytes, 0, bytes.length, out);
    return new String(out.data, 0, out.size, StandardCharsets.UTF_8);
  }

  private static LiveValues live(String sid, String cwd, String home, String prompt, long epoch) {
    return new LiveValues(
        Optional.ofNullable(sid),
        Optional.ofNullable(cwd),
        Optional.ofNullable(home),
        Optional.ofNullable(prompt),
        epoch < 0 ? OptionalLong.empty() : OptionalLong.of(epoch));
  }

  @Test
  void replacesTheSessionIdOnlyWhereAStringEqualsIt() {
    String json =
        "{\"session_id\":\"" + SID + "\",\"text\":\"id " + SID + "\",\"a\":[\"" + SID + "-x\"]}";

    assertThat(apply(RECORDED, live("NEW-SESSION", null, null, null, -1), json))
        .isEqualTo(
            "{\"session_id\":\"NEW-SESSION\",\"text\":\"id "
                + SID
                + "\",\"a\":[\""
                + SID
                + "-x\"]}");
  }

  @Test
  void replacesCwdWhereAStringEqualsItOrStartsWithItAndASlash() {
    String json =
        "{\"cwd\":\"/home/user/project\",\"path\":\"/home/user/project/a.ts\","
            + "\"other\":\"/home/user/projects\",\"cmd\":\"cd /home/user/project\"}";

    assertThat(apply(RECORDED, live(null, "/w", null, null, -1), json))
        .isEqualTo(
            "{\"cwd\":\"/w\",\"path\":\"/w/a.ts\",\"other\":\"/home/user/projects\","
                + "\"cmd\":\"cd /home/user/project\"}");
  }

  @Test
  void aOneCharacterValueIsFoundThoughThePairPrefilterKnowsOnlyItsFirstByte() {
    // the rules are tried only after a quote followed by a pair of bytes a rule starts with; a
    // one-character value starts a pair with whatever follows it
    Vars vars = Vars.NONE.cwd("a").home("/h");
    String json = "{\"cwd\":\"a\",\"p\":\"a/x\",\"q\":\"ab\",\"h\":\"/h/y\",\"b\":1}";

    assertThat(apply(vars, live(null, "/w", "/home", null, -1), json))
        .isEqualTo("{\"cwd\":\"/w\",\"p\":\"/w/x\",\"q\":\"ab\",\"h\":\"/home/y\",\"b\":1}");
  }

  @Test
  void theLongerOfCwdAndHomeWins() {
    String json = "[\"/home/user/project/x\",\"/home/user/.cursor/y\"]";

    assertThat(apply(RECORDED, live(null, "/w", "/h", null, -1), json))
        .isEqualTo("[\"/w/x\",\"/h/.cursor/y\"]");
  }

  private static LiveValues projectRoot(String cwd, String home, String root) {
    return new LiveValues(
        Optional.empty(),
        Optional.of(cwd),
        Optional.ofNullable(home),
        Optional.empty(),
        OptionalLong.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(root));
  }

  @Test
  void claudesProjectFolderFollowsTheLiveHomeAndProjectRootEveryOtherCharacterAsADash() {
    String json =
        "{\"memory_paths\":{\"auto\":\"/home/user/.claude/projects/-home-user-project/memory/\"},"
            + "\"original_cwd\":\"/home/user/project\","
            + "\"other\":\"/home/user/.claude/projects/-home-user-projects\"}";

    assertThat(apply(RECORDED, projectRoot("/r/a_b.c d+e/sub", "/h", "/r/a_b.c d+e"), json))
        .isEqualTo(
            "{\"memory_paths\":{\"auto\":\"/h/.claude/projects/-r-a-b-c-d-e/memory/\"},"
                + "\"original_cwd\":\"/r/a_b.c d+e/sub\","
                + "\"other\":\"/h/.claude/projects/-home-user-projects\"}");
  }

  @Test
  void claudesProjectFolderKeepsTheRecordedHomeWhenTheRunHasNone() {
    String json = "[\"/home/user/.claude/projects/-home-user-project\"]";

    assertThat(apply(RECORDED, projectRoot("/w", null, "/w"), json))
        .isEqualTo("[\"/home/user/.claude/projects/-w\"]");
  }

  @Test
  void claudesProjectFolderIsKeptWithoutALiveProjectRoot() {
    String json = "[\"/home/user/.claude/projects/-home-user-project/memory/\"]";

    assertThat(apply(RECORDED, live(null, "/w", "/h", null, -1), json))
        .isEqualTo("[\"/h/.claude/projects/-home-user-project/memory/\"]");
  }

  @Test
  void neverMatchesInsideAStringBehindAnEscapedQuote() {
    String json = "{\"text\":\"say \\\"" + SID + "\\\" now\",\"sid\":\"" + SID + "\"}";

    assertThat(apply(RECORDED, live("NEW-SESSION", null, null, null, -1), json))
        .isEqualTo("{\"text\":\"say \\\"" + SID + "\\\" now\",\"sid\":\"NEW-SESSION\"}");
  }

  @Test
  void replacesThePromptOnlyInTheUserEventsText() {
    String user =
        "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"text\","
            + "\"text\":\"say \\\"hi\\\"\"}]},\"session_id\":\""
            + SID
            + "\"}";
    String assistant =
        "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":"
            + "\"text\",\"text\":\"say \\\"hi\\\"\"}]}}";
    LiveValues live = live(null, null, null, "new\nprompt", -1);

    assertThat(apply(RECORDED, live, user)).contains("\"text\":\"new\\nprompt\"");
    assertThat(apply(RECORDED, live, assistant)).isEqualTo(assistant);
  }

  @Test
  void shiftsTimestampsAsNumbersAndAsDigitStrings() {
    String json =
        "{\"timestamp_ms\":1000500,\"tool_call\":{\"startedAtMs\":\"1000100\","
            + "\"completedAtMs\":\"1000900\"},\"text\":\"timestamp_ms\",\"duration_ms\":1000500}";

    assertThat(apply(RECORDED, live(null, null, null, null, 5_000_000), json))
        .isEqualTo(
            "{\"timestamp_ms\":5000500,\"tool_call\":{\"startedAtMs\":\"5000100\","
                + "\"completedAtMs\":\"5000900\"},\"text\":\"timestamp_ms\",\"duration_ms\":1000500}");
  }

  private static String applyTo(Header tape, long liveEpochMs, String json) {
    ByteBuf out = new ByteBuf();
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    Substitution.of(tape, live(null, null, null, null, liveEpochMs))
        .apply(bytes, 0, bytes.length, out);
    return new String(out.data, 0, out.size, StandardCharsets.UTF_8);
  }

  /** A Claude Code tape recorded from 2026-01-01T00:00:00Z. */
  static final Header CLAUDE =
      Header.builder().cli("claude").vars(Vars.NONE.epochMs(1_767_225_600_000L)).build();

  /** A line of Claude Code's with every kind of time it writes, and look-alikes that are none. */
  static final String CLAUDE_TIMES =
      "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"resetsAt\":1767243600,"
          + "\"unifiedWindows\":{\"five_hour\":{\"resetsAt\":1767243600}}},"
          + "\"timestamp\":\"2026-01-01T00:00:01.123Z\",\"timestamp_ms\":1767225601123,"
          + "\"text\":\"timestamp\",\"resetsAt_text\":\"2026-01-01T00:00:01.123Z\","
          + "\"message\":{\"timestamp\":\"2026-01-01T00:00:01Z\"},\"n\":{\"resetsAt\":1.5}}";

  @Test
  void aClaudeTapesIsoTimesAndResetsAtMoveWithTheLiveEpochInTheirShape() {
    // live start 2027-03-04T05:06:07.890Z: 36 892 567 890 ms later
    assertThat(applyTo(CLAUDE, 1_804_136_767_890L, CLAUDE_TIMES))
        .isEqualTo(
            "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"resetsAt\":1804154767,"
                + "\"unifiedWindows\":{\"five_hour\":{\"resetsAt\":1804154767}}},"
                + "\"timestamp\":\"2027-03-04T05:06:09.013Z\",\"timestamp_ms\":1804136769013,"
                + "\"text\":\"timestamp\",\"resetsAt_text\":\"2026-01-01T00:00:01.123Z\","
                + "\"message\":{\"timestamp\":\"2027-03-04T05:06:08Z\"},"
                + "\"n\":{\"resetsAt\":1.5}}");
  }

  @Test
  void aClaudeTapesResetsAtMovesByWholeSecondsRoundedDown() {
    String json = "{\"resetsAt\":1767243600}";

    assertThat(applyTo(CLAUDE, 1_767_225_600_000L - 1, json))
        .isEqualTo("{\"resetsAt\":1767243599}");
    assertThat(applyTo(CLAUDE, 1_767_225_600_000L + 999, json)).isEqualTo(json);
  }

  @Test
  void isoTimesStayWhereTheRecorderLeavesThem() {
    String json =
        "{\"timestamp\":\"1970-01-01T00:00:00.500Z\",\"a\":{\"timestamp\":\"yesterday\"},"
            + "\"b\":{\"timestamp\":\"2026-02-30T00:00:00.000Z\"},"
            + "\"c\":{\"timestamp\":\"2026-01-01T00:00:00.000\\u005a\"}}";

    // moved before 1970, not a date, escaped: as recorded
    assertThat(applyTo(CLAUDE, 1_767_225_600_000L - 1_000, json)).isEqualTo(json);
  }

  @Test
  void isoTimesAndResetsAtStayInACursorTapeAndInATapeWithoutEpochMs() {
    Header cursor = Header.builder().vars(Vars.NONE.epochMs(1_767_225_600_000L)).build();
    Header noEpoch = Header.builder().cli("claude").vars(Vars.NONE.sessionId(SID)).build();

    assertThat(applyTo(cursor, 1_804_136_767_890L, CLAUDE_TIMES))
        .isEqualTo(CLAUDE_TIMES.replace("1767225601123", "1804136769013"));
    assertThat(applyTo(noEpoch, 1_804_136_767_890L, CLAUDE_TIMES)).isEqualTo(CLAUDE_TIMES);
  }

  @Test
  void changesNothingWhenLiveValuesEqualTheRecordedOnes() {
    Substitution same =
        Substitution.of(
            RECORDED, live(SID, "/home/user/project", "/home/user", "say \"hi\"", 1_000_000));

    assertThat(same.active()).isFalse();
  }

  @Test
  void escapesLiveValuesAsJson() {
    String json = "{\"cwd\":\"/home/user/project\"}";

    assertThat(apply(RECORDED, live(null, "C:\\work \"x\"", null, null, -1), json))
        .isEqualTo("{\"cwd\":\"C:\\\\work \\\"x\\\"\"}");
  }

  private static String applyToClaude(LiveValues live, String json) {
    ByteBuf out = new ByteBuf();
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    Header claude = Header.builder().cli("claude").vars(RECORDED).build();
    Substitution.of(claude, live).apply(bytes, 0, bytes.length, out);
    return new String(out.data, 0, out.size, StandardCharsets.UTF_8);
  }

  /** The cwd's look-alikes and uses inside a string, as Claude Code's permission message has it. */
  static final String CWD_IN_TEXT =
      "{\"message\":\"touch in '/home/user/project/made.txt' needs approval. The path is inside"
          + " the working directories for this session ('/home/user/project'), see"
          + " (/home/user/project) or cd /home/user/project\","
          + "\"a\":\"/home/user/project is here\",\"b\":\"x /home/user/project\","
          + "\"other\":\"cd /home/user/projects; cd /home/user/project.bak;"
          + " cd x/home/user/project; cd \\\"/home/user/project\\\"\"}";

  @Test
  void aClaudeTapesCwdIsReplacedInsideAStringWhereItStandsAsAPath() {
    assertThat(applyToClaude(live(null, "/w", null, null, -1), CWD_IN_TEXT))
        .isEqualTo(
            "{\"message\":\"touch in '/w/made.txt' needs approval. The path is inside"
                + " the working directories for this session ('/w'), see (/w) or cd /w\","
                + "\"a\":\"/w is here\",\"b\":\"x /w\","
                + "\"other\":\"cd /home/user/projects; cd /home/user/project.bak;"
                + " cd x/home/user/project; cd \\\"/home/user/project\\\"\"}");
  }

  @Test
  void aCursorTapesCwdInsideAStringStaysAsRecorded() {
    assertThat(apply(RECORDED, live(null, "/w", null, null, -1), CWD_IN_TEXT))
        .isEqualTo(CWD_IN_TEXT);
  }

  @Test
  void aPromptNamingTheCwdIsReplacedWholeByTheLivePrompt() {
    Vars recorded = RECORDED.prompt("/home/user/project/src: list /home/user/project/src");
    String json =
        "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\","
            + "\"text\":\"/home/user/project/src: list /home/user/project/src\"}]},"
            + "\"cwd\":\"/home/user/project\"}";
    ByteBuf out = new ByteBuf();
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    Substitution.of(
            Header.builder().cli("claude").vars(recorded).build(),
            live(null, "/w", null, "list /w/lib", -1))
        .apply(bytes, 0, bytes.length, out);

    assertThat(new String(out.data, 0, out.size, StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"text\","
                + "\"text\":\"list /w/lib\"}]},\"cwd\":\"/w\"}");
  }

  @Test
  void claudesMessagingSocketIsTheLiveOneWhateverWasRecorded() {
    LiveValues live =
        new LiveValues(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            OptionalLong.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.of("/x/tmp/cc-socks/15333.sock"));
    String json =
        "{\"type\":\"system\",\"subtype\":\"init\",\"messaging_socket_path\":"
            + "\"/tmp/cc-socks/4242.sock\",\"text\":\"messaging_socket_path\"}";

    assertThat(applyToClaude(live, json))
        .isEqualTo(
            "{\"type\":\"system\",\"subtype\":\"init\",\"messaging_socket_path\":"
                + "\"/x/tmp/cc-socks/15333.sock\",\"text\":\"messaging_socket_path\"}");
  }
}
