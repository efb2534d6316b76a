package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.lint.Linter;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class NormaliserTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** One scenario; what differs between two recordings of it is what a run cannot control. */
  static Tape scenario(String sessionId, String cwd, long epochMs) {
    return Script.of("Count the lines in notes.txt")
        .sessionId(sessionId)
        .cwd(cwd)
        .epochMs(epochMs)
        .init()
        .user()
        .thinking("Reading notes.txt.")
        .assistant("I'll read the file.")
        .tool(ToolCall.read("notes.txt", "alpha\nbeta\n"))
        .tool(ToolCall.shell("wc -l notes.txt", 0, "2 notes.txt\n", ""))
        .assistant("It has 2 lines.")
        .usage(8830, 185, 44800, 0)
        .result()
        .exit(0)
        .build();
  }

  static String text(Tape tape) {
    return new String(tape.toBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void twoRecordingsOfOneScenarioNormaliseToTheSameBytes() {
    Tape alice =
        scenario("4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27", "/home/alice/proj", 1_784_819_288_000L);
    Tape bob =
        scenario("9e3a7c1d-1111-4222-8333-000000000042", "/tmp/run-42/proj", 1_790_000_000_123L);
    assertThat(text(alice)).isNotEqualTo(text(bob));

    Tape a =
        Normaliser.normalise(
            alice, Normaliser.Context.NONE.cwd("/home/alice/proj").home("/home/alice"));
    Tape b =
        Normaliser.normalise(
            bob, Normaliser.Context.NONE.cwd("/tmp/run-42/proj").home("/home/bob"));

    assertThat(text(a)).isEqualTo(text(b));
    assertThat(text(a))
        .doesNotContain("alice", "run-42", "4f1c2a8e", "1784819288")
        .contains(
            "\"cwd\":\"/workspace\"",
            "/workspace/notes.txt",
            "\"session_id\":\"" + Normaliser.SESSION_ID + "\"");
    assertThat(a.header().vars())
        .isEqualTo(
            Vars.NONE
                .sessionId(Normaliser.SESSION_ID)
                .cwd(Normaliser.CWD)
                .home(Normaliser.HOME)
                .prompt("Count the lines in notes.txt")
                .epochMs(Normaliser.EPOCH_MS));
    assertThat(Linter.lint(a, Linter.Scope.RUN)).noneMatch(f -> f.isError());
  }

  @Test
  void aPathInsideALongerTextStaysAsRecorded() {
    // an edit's diffString names the file after "b/": not a whole string, so replay could not
    // put the live cwd there either; it is the one place two recordings still differ
    Tape alice =
        Script.of("write")
            .cwd("/home/alice/proj")
            .init()
            .user()
            .tool(ToolCall.edit("count.txt", "", "2\n"))
            .result("done")
            .exit(0)
            .build();
    Tape bob =
        Script.of("write")
            .cwd("/tmp/run-42/proj")
            .init()
            .user()
            .tool(ToolCall.edit("count.txt", "", "2\n"))
            .result("done")
            .exit(0)
            .build();

    String a = text(Normaliser.normalise(alice, Normaliser.Context.NONE));
    String b = text(Normaliser.normalise(bob, Normaliser.Context.NONE));

    assertThat(a).contains("\"path\":\"/workspace/count.txt\"", "+++ b//home/alice/proj/count.txt");
    assertThat(b.replace("/tmp/run-42/proj", "/home/alice/proj")).isEqualTo(a);
  }

  /** A run with ids written by hand: every id random, one tool call id also inside its args. */
  static Tape handWritten(
      String sid, String request, String suffix0, String suffix1, String call0, String call1) {
    String mc0 = request + "-0-" + suffix0;
    String mc1 = request + "-1-" + suffix1;
    List<Frame> frames = new ArrayList<>();
    frames.add(
        new Frame.Out(
            0,
            "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":"
                + "\"login\",\"cwd\":\"/w/p\",\"session_id\":\""
                + sid
                + "\",\"model\":\"Auto\","
                + "\"permissionMode\":\"default\"}"));
    frames.add(
        new Frame.Out(
            1,
            "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
                + "[{\"type\":\"text\",\"text\":\"go\"}]},\"session_id\":\""
                + sid
                + "\"}"));
    for (String[] call : new String[][] {{call0, mc0}, {call1, mc1}}) {
      String id = call[0].replace("\n", "\\n");
      frames.add(
          new Frame.Out(
              2,
              "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\""
                  + id
                  + "\",\"tool_call\":{\"writeToolCall\":{\"args\":{\"path\":\"/w/p/a.txt\","
                  + "\"fileText\":\"x\",\"toolCallId\":\""
                  + id
                  + "\"}},\"toolCallId\":\""
                  + id
                  + "\"},"
                  + "\"model_call_id\":\""
                  + call[1]
                  + "\",\"session_id\":\""
                  + sid
                  + "\"}"));
    }
    frames.add(
        new Frame.Out(
            3,
            "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":3,"
                + "\"duration_api_ms\":3,\"is_error\":false,\"result\":\"ok\",\"session_id\":\""
                + sid
                + "\",\"request_id\":\""
                + request
                + "\"}"));
    frames.add(new Frame.Exit(3, 0));
    return new Tape(Header.empty(), frames);
  }

  @Test
  void requestModelCallAndToolCallIdsAreNumberedInOrderOfFirstAppearance() {
    Tape one =
        handWritten(
            "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27",
            "59ff63a6-195e-463f-89ce-f26a820987bf",
            "c94p",
            "g9hb",
            "call_PFAupCWibROFKbdASSdiHCoi\nfc_0d2609f619ccdca801698ca0a51c6481a0aaa34fcf724631a9",
            "call-bb11656a-e59e-4356-9866-5b206aedb390-1\nfc_35bc3e26-1dfc-9c07-b668-4c50a744b8f9_1");
    Tape two =
        handWritten(
            "0f6fa7cf-4483-4a6d-ab20-21fb703f6e97",
            "31c9efbe-c94a-4021-b6cb-832a6a9542a2",
            "mwez",
            "ytm4",
            "call_MZSwjBaQcdosfHhvJfsQqWdm\nfc_05e0124e90bd688f01698ca1281b3081939144eaa3db48daf5",
            "call-dd7bc1c7-aaaa-4bbb-8ccc-0123456789ab-1\nfc_27b4c3fb-9abc-92ae-967f-147ee264096e_1");

    Tape a = Normaliser.normalise(one, Normaliser.Context.NONE);
    Tape b = Normaliser.normalise(two, Normaliser.Context.NONE);

    assertThat(text(a)).isEqualTo(text(b));
    String first = ((Frame.Out) a.frames().get(2)).json();
    String second = ((Frame.Out) a.frames().get(3)).json();
    String request = "00000000-0000-4000-9000-000000000001";
    assertThat(first)
        .isEqualTo(
            "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":"
                + "\"call_000000000000000000000001\\nfc_0000000000000000000000000000000000000000000000000"
                + "1\","
                + "\"tool_call\":{\"writeToolCall\":{\"args\":{\"path\":\"/workspace/a.txt\","
                + "\"fileText\":\"x\",\"toolCallId\":\"call_000000000000000000000001\\nfc_0000000000000000"
                + "0000000000000000000000000000000001\"}},\"toolCallId\":\"call_000000000000000000000001"
                + "\\nfc_00000000000000000000000000000000000000000000000001\"},\"model_call_id\":\""
                + request
                + "-0-0001\",\"session_id\":\""
                + Normaliser.SESSION_ID
                + "\"}");
    assertThat(second)
        .contains(
            "\"call_id\":\"call-00000000-0000-0000-0000-000000000000-2\\nfc_"
                + "00000000-0000-0000-0000-000000000000_2\"",
            "\"model_call_id\":\"" + request + "-1-0002\"");
    assertThat(((Frame.Out) a.frames().get(4)).json())
        .contains("\"request_id\":\"" + request + "\"");
  }

  @Test
  void timestampsMoveSoTheRunStartsAtTheFixedEpoch() throws Exception {
    long epoch = 1_784_819_288_000L;
    Tape run = scenario("4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27", "/w", epoch);

    Tape normalised = Normaliser.normalise(run, Normaliser.Context.NONE);

    assertThat(normalised.header().vars().epochMs()).hasValue(Normaliser.EPOCH_MS);
    int checked = 0;
    for (int i = 0; i < run.frames().size(); i++) {
      if (!(run.frames().get(i) instanceof Frame.Out before)) {
        continue;
      }
      JsonNode was = JSON.readTree(before.json());
      JsonNode now = JSON.readTree(((Frame.Out) normalised.frames().get(i)).json());
      if (was.has("timestamp_ms")) {
        assertThat(now.get("timestamp_ms").asLong() - Normaliser.EPOCH_MS)
            .isEqualTo(was.get("timestamp_ms").asLong() - epoch);
        checked++;
      }
      JsonNode started = was.path("tool_call").path("startedAtMs");
      if (started.isTextual()) {
        assertThat(now.path("tool_call").path("startedAtMs").asText())
            .isEqualTo(
                Long.toString(Long.parseLong(started.asText()) - epoch + Normaliser.EPOCH_MS));
        checked++;
      }
      JsonNode completed = was.path("tool_call").path("completedAtMs");
      if (completed.isTextual()) {
        assertThat(now.path("tool_call").path("completedAtMs").asText())
            .isEqualTo(
                Long.toString(Long.parseLong(completed.asText()) - epoch + Normaliser.EPOCH_MS));
        checked++;
      }
      assertThat(normalised.frames().get(i).t()).isEqualTo(before.t());
    }
    assertThat(checked).isGreaterThan(10);
  }

  @Test
  void theRecordersStartTimeWinsOverTheTapes() {
    Tape run = scenario("4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27", "/w", 1_784_819_288_000L);

    Tape normalised =
        Normaliser.normalise(run, Normaliser.Context.NONE.epochMs(1_784_819_287_000L));

    // the CLI's clock said 1 s later than the recorder's start: that second stays
    assertThat(((Frame.Out) normalised.frames().get(2)).json())
        .contains("\"timestamp_ms\":" + (Normaliser.EPOCH_MS + 1000 + run.frames().get(2).t()));
  }

  @Test
  void onlyWholeStringsAndPathsUnderTheFoldersChange() {
    String sid = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
    String line =
        "{\"type\":\"tool_call\",\"a\":\""
            + sid
            + "\",\"b\":\"session "
            + sid
            + "\","
            + "\"c\":\"/home/alice/proj\",\"d\":\"/home/alice/proj/src/x.txt\","
            + "\"e\":\"/home/alice/project-old/y\",\"f\":\"cd /home/alice/proj && ls\","
            + "\"g\":\"/home/alice/.cursor/mcp.json\",\"h\":\"/home/alice\","
            + "\"/home/alice/proj/k\":1.50,\"n\":1e3,\"m\":-0.0,\"s\":\"a\\/b\\u00e9\","
            + "\"timestamp_ms\":1784819288500,\"x\":{\"timestamp_ms\":17848192885.5}}";
    Tape tape =
        new Tape(
            Header.builder().vars(Vars.NONE.sessionId(sid)).build(),
            List.of(
                new Frame.Out(0, line),
                Frame.OutBytes.text(1, "/home/alice/proj " + sid + "\n"),
                Frame.Err.text(1, "/home/alice/proj\n"),
                new Frame.Exit(1, 0)));

    Tape normalised =
        Normaliser.normalise(
            tape,
            Normaliser.Context.NONE
                .cwd("/home/alice/proj")
                .home("/home/alice")
                .epochMs(1_784_819_288_000L));

    assertThat(((Frame.Out) normalised.frames().get(0)).json())
        .isEqualTo(
            "{\"type\":\"tool_call\",\"a\":\""
                + Normaliser.SESSION_ID
                + "\",\"b\":\"session "
                + sid
                + "\",\"c\":\"/workspace\",\"d\":\"/workspace/src/x.txt\","
                + "\"e\":\"/home/user/project-old/y\",\"f\":\"cd /home/alice/proj && ls\","
                + "\"g\":\"/home/user/.cursor/mcp.json\",\"h\":\"/home/user\","
                + "\"/workspace/k\":1.50,\"n\":1e3,\"m\":-0.0,\"s\":\"a\\/b\\u00e9\","
                + "\"timestamp_ms\":"
                + (Normaliser.EPOCH_MS + 500)
                + ","
                + "\"x\":{\"timestamp_ms\":17848192885.5}}");
    assertThat(normalised.frames().subList(1, 4)).isEqualTo(tape.frames().subList(1, 4));
  }

  @Test
  void aTapeAlreadyMentioningTheCanonicalFolderKeepsItsOwnCwd() {
    Tape run =
        Script.of("hi")
            .cwd("/srv/app")
            .init()
            .user()
            .tool(ToolCall.read("/workspace/other/notes.txt", "x\n"))
            .result("done")
            .exit(0)
            .build();

    Tape normalised = Normaliser.normalise(run, Normaliser.Context.NONE);

    assertThat(normalised.header().vars().cwd()).contains("/srv/app");
    assertThat(normalised.header().vars().sessionId()).contains(Normaliser.SESSION_ID);
    assertThat(text(normalised)).contains("\"cwd\":\"/srv/app\"", "/workspace/other/notes.txt");
  }

  /**
   * With the cwd and home known before the run, as the recorder knows them, the lines are looked at
   * for the canonical values as they are scanned, and only those that may hold one are gone through
   * again: a mention in the last event, after stderr and many lines without one, still keeps each
   * folder it would not give back.
   */
  @Test
  void aLateMentionOfTheCanonicalFoldersKeepsTheKnownOnesAsRecorded() {
    Script script = Script.of("hi").cwd("/srv/app").init().user().stderr("warming up\n");
    for (int i = 0; i < 20; i++) {
      script.tool(ToolCall.read("/srv/app/src/f" + i + ".txt", "line " + i + "\n"));
    }
    Tape run =
        script
            .stderr("almost\n")
            .tool(ToolCall.read("/home/user/notes.txt", "x\n"))
            .tool(ToolCall.read("/workspace/notes.txt", "y\n"))
            .result("done")
            .exit(0)
            .build();
    Normaliser.Context known = Normaliser.Context.NONE.cwd("/srv/app").home("/home/alice");

    Tape normalised = Normaliser.normalise(run, known);
    Tape withoutTheMention =
        Normaliser.normalise(new Tape(run.header(), without(run.frames(), "/notes.txt")), known);

    assertThat(normalised.header().vars().home()).contains("/home/alice");
    assertThat(normalised.header().vars().cwd()).contains("/srv/app");
    assertThat(text(normalised))
        .contains("\"/srv/app/src/f19.txt\"", "/home/user/notes.txt", "/workspace/notes.txt");
    assertThat(withoutTheMention.header().vars().home()).contains(Normaliser.HOME);
    assertThat(withoutTheMention.header().vars().cwd()).contains(Normaliser.CWD);
    assertThat(text(withoutTheMention)).contains("\"/workspace/src/f19.txt\"");
  }

  /** The frames but those whose JSON mentions {@code text}. */
  private static List<Frame> without(List<Frame> frames, String text) {
    return frames.stream()
        .filter(f -> !(f instanceof Frame.Out o && o.json().contains(text)))
        .toList();
  }

  @Test
  void aTapeAlreadyHoldingTheCanonicalSessionIdKeepsItsOwn() {
    Tape run =
        Script.of("hi")
            .sessionId("3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b")
            .cwd("/srv/app")
            .init()
            .user()
            .tool(ToolCall.read("ids.txt", Normaliser.SESSION_ID))
            .result("done")
            .exit(0)
            .build();

    Tape normalised = Normaliser.normalise(run, Normaliser.Context.NONE);

    assertThat(normalised.header().vars().sessionId())
        .contains("3f1c2a9e-5b7d-4e8f-9a0b-1c2d3e4f5a6b");
    assertThat(normalised.header().vars().cwd()).contains(Normaliser.CWD);
  }

  @Test
  void idsUnderKeysWrittenWithEscapesAreStillNumbered() {
    Tape run =
        new Tape(
            Header.builder().build(),
            List.of(
                new Frame.Out(
                    0, "{\"type\":\"tool_call\",\"call\\u005fid\":\"call_Qx7pT2mZ9kLw\"}"),
                new Frame.Out(1, "{\"type\":\"note\",\"see\":\"call_Qx7pT2mZ9kLw\"}"),
                new Frame.Exit(2, 0)));

    Tape normalised = Normaliser.normalise(run, Normaliser.Context.NONE);

    assertThat(text(normalised))
        .doesNotContain("Qx7pT2mZ9kLw")
        .contains("\"call\\u005fid\":\"call_000000000001\"", "\"see\":\"call_000000000001\"");
  }

  @Test
  void thePromptIsDeclaredAndKeptAsRecorded() {
    Tape run =
        Script.of("/home/alice/proj/README.md")
            .cwd("/home/alice/proj")
            .init()
            .user()
            .result("ok")
            .exit(0)
            .build();

    Tape normalised = Normaliser.normalise(run, Normaliser.Context.NONE);

    assertThat(normalised.header().vars().prompt()).contains("/home/alice/proj/README.md");
    assertThat(((Frame.Out) normalised.frames().get(1)).json())
        .contains("\"text\":\"/home/alice/proj/README.md\"");
    assertThat(((Frame.Out) normalised.frames().get(0)).json()).contains("\"cwd\":\"/workspace\"");
  }

  @Test
  void headerArgvIsRebasedToo() {
    String sid = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
    Tape run =
        Script.of("hi")
            .sessionId(sid)
            .cwd("/home/alice/proj")
            .init()
            .user()
            .result("ok")
            .exit(0)
            .build();
    Tape withArgv =
        new Tape(
            run.header().toBuilder()
                .argv(
                    List.of(
                        "-p",
                        "--resume",
                        sid,
                        "--workspace",
                        "/home/alice/proj",
                        "--add-dir=/home/alice/lib",
                        "hi"))
                .build(),
            run.frames());

    Tape normalised = Normaliser.normalise(withArgv, Normaliser.Context.NONE.home("/home/alice"));

    assertThat(normalised.header().argv())
        .containsExactly(
            "-p",
            "--resume",
            Normaliser.SESSION_ID,
            "--workspace",
            "/workspace",
            "--add-dir=/home/user/lib",
            "hi");
  }

  @Test
  void normalisingTwiceIsNormalisingOnce() {
    Tape run =
        scenario("4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27", "/home/alice/proj", 1_784_819_288_000L);
    Tape once = Normaliser.normalise(run, Normaliser.Context.NONE.home("/home/alice"));

    Tape twice = Normaliser.normalise(once, Normaliser.Context.NONE);

    assertThat(text(twice)).isEqualTo(text(once));
  }

  @Test
  void aTapeWithoutVolatileValuesIsUnchanged() {
    Tape tape =
        new Tape(Header.empty(), List.of(Frame.Err.text(0, "boom\n"), new Frame.Exit(0, 1)));

    assertThat(Normaliser.normalise(tape, Normaliser.Context.NONE)).isEqualTo(tape);
  }

  @Test
  void whatTheRecorderKnowsIsDeclaredEvenWithoutOutput() {
    Tape tape =
        new Tape(
            Header.empty(),
            List.of(Frame.Err.text(0, "Error: not logged in\n"), new Frame.Exit(0, 1)));

    Tape normalised =
        Normaliser.normalise(
            tape,
            Normaliser.Context.NONE
                .cwd("/home/a/p")
                .home("/home/a")
                .prompt("hi")
                .epochMs(1_784_819_288_000L));

    assertThat(normalised.header().vars())
        .isEqualTo(
            Vars.NONE
                .cwd(Normaliser.CWD)
                .home(Normaliser.HOME)
                .prompt("hi")
                .epochMs(Normaliser.EPOCH_MS));
    assertThat(normalised.frames()).isEqualTo(tape.frames());
  }
}
