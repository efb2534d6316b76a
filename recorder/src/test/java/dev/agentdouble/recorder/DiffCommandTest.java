package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffCommandTest {
  @TempDir Path dir;

  static Tape run(String answer, long spacing) {
    return Script.of("hi")
        .spacing(spacing)
        .init()
        .user()
        .thinking("Thinking.")
        .assistant(answer)
        .result()
        .exit(0)
        .build();
  }

  Path write(String name, Tape tape) throws IOException {
    Path file = dir.resolve(name);
    tape.write(file);
    return file;
  }

  static Tape withFrames(Tape tape, List<Frame> frames) {
    return new Tape(tape.header(), frames);
  }

  @Test
  void twoEqualTapesAreTheSame() throws IOException {
    Path a = write("a.tape.ndjson", run("hello", 5));
    Path b = write("b.tape.ndjson", run("hello", 5));

    Cli.Result r = Cli.run("diff", a.toString(), b.toString());

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("agentdouble: " + a + " and " + b + " are the same (timing ignored)\n");
  }

  @Test
  void aChangedEventFieldShowsItsPathWithOldAndNewValues() throws IOException {
    Path a = write("a.tape.ndjson", run("hi", 5));
    Path b = write("b.tape.ndjson", run("hello", 5));

    Cli.Result r = Cli.run("diff", a.toString(), b.toString());

    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out())
        .isEqualTo(
            String.join(
                    "\n",
                    "--- A " + a,
                    "+++ B " + b,
                    "~ frame 4 (A:6, B:6) out assistant",
                    "    message.content[0].text: \"hi\" -> \"hello\"",
                    "~ frame 5 (A:7, B:7) out result/success",
                    "    result: \"hi\" -> \"hello\"")
                + "\n");
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + a
                + " and "
                + b
                + " differ (timing ignored): "
                + "0 header fields, 2 frames changed, 0 removed, 0 added\n");
  }

  @Test
  void anAddedAndARemovedFrameShowAsSuch() throws IOException {
    Tape base = run("hello", 5);
    List<Frame> more = new ArrayList<>(base.frames());
    more.add(more.size() - 1, Frame.Err.text(30, "warning: slow network\n"));
    List<Frame> fewer = new ArrayList<>(base.frames());
    fewer.remove(2); // the thinking delta
    Path a = write("a.tape.ndjson", base);
    Path b = write("b.tape.ndjson", withFrames(base, more));
    Path c = write("c.tape.ndjson", withFrames(base, fewer));

    Cli.Result added = Cli.run("diff", a.toString(), b.toString());
    Cli.Result removed = Cli.run("diff", a.toString(), c.toString());

    assertThat(added.exit()).isEqualTo(1);
    assertThat(added.out()).endsWith("+ frame 6 (B:8) err: \"warning: slow network\\n\"\n");
    assertThat(added.err()).endsWith("0 frames changed, 0 removed, 1 added\n");
    assertThat(removed.exit()).isEqualTo(1);
    assertThat(removed.out())
        .contains("- frame 2 (A:4) out thinking/delta: {\"type\":\"thinking\"")
        .doesNotContain("~ frame");
    assertThat(removed.err()).endsWith("0 frames changed, 1 removed, 0 added\n");
  }

  @Test
  void timingIsIgnoredUnlessAskedFor() throws IOException {
    // the same run at another pace: frame times, timestamps and durations all differ
    Path fast = write("fast.tape.ndjson", run("hello", 5));
    Path slow = write("slow.tape.ndjson", run("hello", 7));

    Cli.Result ignored = Cli.run("diff", fast.toString(), slow.toString());
    Cli.Result timed = Cli.run("diff", "--timing", fast.toString(), slow.toString());

    assertThat(ignored.exit()).as(ignored.toString()).isZero();
    assertThat(timed.exit()).isEqualTo(1);
    assertThat(timed.out())
        .contains(
            "~ frame 2 (A:4, B:4) out thinking/delta\n    t: 10 -> 14\n    timestamp_ms: "
                + (Script.DEFAULT_EPOCH_MS + 10)
                + " -> "
                + (Script.DEFAULT_EPOCH_MS + 14)
                + "\n",
            "    duration_ms: 25 -> 35\n");
    assertThat(timed.err()).contains("differ: ");
  }

  @Test
  void headerFieldsAreComparedOneByOne() throws IOException {
    Tape base = run("hello", 5);
    Tape other =
        new Tape(
            base.header().toBuilder()
                .cliVersion("2026.10.01-e373342")
                .recordedAt("2026-11-01T10:00:00Z")
                .build(),
            base.frames());
    Path a = write("a.tape.ndjson", base);
    Path b = write("b.tape.ndjson", other);

    Cli.Result r = Cli.run("diff", a.toString(), b.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).endsWith("header\n  cliVersion: (absent) -> \"2026.10.01-e373342\"\n");
    assertThat(r.err()).contains("1 header field, 0 frames changed");
  }

  @Test
  void twoNormalisedRecordingsOfOneScenarioAreTheSame() throws IOException {
    Tape one =
        Script.of("hi")
            .sessionId("4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27")
            .cwd("/home/a/p")
            .epochMs(1_784_000_000_000L)
            .init()
            .user()
            .tool(ToolCall.read("notes.txt", "x\n"))
            .result("ok")
            .exit(0)
            .build();
    Tape two =
        Script.of("hi")
            .sessionId("9e3a7c1d-1111-4222-8333-000000000042")
            .cwd("/tmp/q")
            .epochMs(1_790_000_000_000L)
            .spacing(9)
            .init()
            .user()
            .tool(ToolCall.read("notes.txt", "x\n"))
            .result("ok")
            .exit(0)
            .build();
    Path a = write("a.tape.ndjson", Normaliser.normalise(one, Normaliser.Context.NONE));
    Path b = write("b.tape.ndjson", Normaliser.normalise(two, Normaliser.Context.NONE));
    Path rawA = write("raw-a.tape.ndjson", one);
    Path rawB = write("raw-b.tape.ndjson", two);

    assertThat(Cli.run("diff", a.toString(), b.toString()).exit()).isZero();
    assertThat(Cli.run("diff", "--timing", a.toString(), b.toString()).exit()).isEqualTo(1);
    Cli.Result raw = Cli.run("diff", rawA.toString(), rawB.toString());
    assertThat(raw.exit()).isEqualTo(1);
    assertThat(raw.out())
        .contains(
            "  vars.sessionId: \"4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27\" -> "
                + "\"9e3a7c1d-1111-4222-8333-000000000042\"",
            "    cwd: \"/home/a/p\" -> \"/tmp/q\"");
  }

  @Test
  void aLongTextIsCutToWhereItDiffers() throws IOException {
    String before = "x".repeat(200) + "the old ending";
    String after = "x".repeat(200) + "the new ending";
    Path a = write("a.tape.ndjson", run(before, 5));
    Path b = write("b.tape.ndjson", run(after, 5));

    Cli.Result r = Cli.run("diff", a.toString(), b.toString());

    assertThat(r.out())
        .contains(
            "    message.content[0].text: ...xxxxxxxxxxxxxxxxthe old "
                + "ending\" -> ...xxxxxxxxxxxxxxxxthe new ending\"\n");
  }

  @Test
  void usageErrorsAndUnreadableTapesExit2() throws IOException {
    Path a = write("a.tape.ndjson", run("hello", 5));
    Path notATape = Cli.write(dir, "notes.txt", "hello\n");

    Cli.Result one = Cli.run("diff", a.toString());
    Cli.Result missing = Cli.run("diff", a.toString(), dir.resolve("nope.tape.ndjson").toString());
    Cli.Result bad = Cli.run("diff", notATape.toString(), a.toString());
    Cli.Result unknown = Cli.run("diff", "--time", a.toString(), a.toString());

    assertThat(one.exit()).isEqualTo(2);
    assertThat(one.err())
        .isEqualTo(
            "agentdouble: diff takes two tapes, A and B; was given 1\n"
                + "Run 'agentdouble diff --help' for usage.\n");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err())
        .isEqualTo("agentdouble: " + dir.resolve("nope.tape.ndjson") + ": no such file\n");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).startsWith("agentdouble: " + notATape + ":1: header is not valid JSON");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).startsWith("agentdouble: unknown option '--time'");
    assertThat(List.of(one, missing, bad, unknown))
        .allSatisfy(
            r -> {
              assertThat(r.out()).isEmpty();
              assertThat(r.err()).doesNotContain("Exception", "\tat ");
            });
  }

  @Test
  void comparesBuiltInTapes() {
    Cli.Result same = Cli.run("diff", "builtin:tool-shell", "builtin:tool-shell");
    Cli.Result other = Cli.run("diff", "builtin:tool-shell", "builtin:tool-read");

    assertThat(same.exit()).as("%s", same).isZero();
    assertThat(other.exit()).as("%s", other).isEqualTo(1);
  }

  @Test
  void comparesWhatTheFakeReplaysHugeDeepOrWithAKeyTwice() {
    String[] events = ShowCommandTest.hostileEvents();
    String header = "{\"tape\":1}\n";
    Path a = Cli.write(dir, "a.tape.ndjson", header + String.join("\n", events) + "\n");
    Path same = Cli.write(dir, "same.tape.ndjson", header + String.join("\n", events) + "\n");
    events[1] = events[1].replace("xxx\"", "xxy\"");
    events[2] = events[2].replaceFirst("\\[]", "[1]").replace("a.txt", "b.txt");
    events[3] = events[3].replace("\"one\"", "\"uno\"");
    Path b = Cli.write(dir, "b.tape.ndjson", header + String.join("\n", events) + "\n");

    Cli.Result equal = Cli.run("diff", a.toString(), same.toString());
    Cli.Result differ = Cli.run("diff", a.toString(), b.toString());

    assertThat(equal.exit()).as("%s", equal.err()).isZero();
    assertThat(differ.exit()).as("%s", differ.err()).isEqualTo(1);
    assertThat(differ.err())
        .endsWith(
            "differ (timing ignored): 0 header fields, 3 frames changed, "
                + "0 removed, 0 added\n");
    List<String> lines = differ.out().lines().toList();
    assertThat(lines)
        .contains(
            "~ frame 1 (A:3, B:3) out user",
            "    message.content[0].text: ..."
                + "x".repeat(21)
                + "\" -> ..."
                + "x".repeat(20)
                + "y\"",
            "~ frame 2 (A:4, B:4) out tool_call/completed",
            "    tool_call.readToolCall.args.path: \"a.txt\" -> \"b.txt\"",
            "~ frame 3 (A:5, B:5) out assistant",
            "    message.content[0].text: \"one\" -> \"uno\"");
    // followed to a depth of 64, then shown whole
    assertThat(lines)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith(
                        "    tool_call.readToolCall.args.deep" + "[0]".repeat(60) + ": ...[[[[")
                    .contains("[1]"));
    assertThat(differ.err()).doesNotContain("Exception", "\tat ");
  }
}
