package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/**
 * A normalised tape replayed by the real fake agent ({@code fake-agent/bin/cursor-agent}, through
 * real pipes) with live values gives what the recorded tape gives with those values: the fake's
 * substitution undoes the normalisation. Request, model-call and tool-call ids are canonical in the
 * normalised tape (the fake has no variables for them), so they are masked before comparing.
 */
@Timeout(120)
class NormalisedReplayTest {
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
  static final String CWD = "/home/alice/proj";
  static final String HOME = "/home/alice";
  static final String PROMPT = "Count the lines in notes.txt";
  static final long EPOCH = 1_784_819_288_000L;

  @TempDir Path dir;

  /** What a run is given from outside: the live values of the variables. */
  record Live(String sessionId, String cwd, String home, String prompt, long epochMs) {}

  static final Live RECORDED = new Live(SID, CWD, HOME, PROMPT, EPOCH);
  static final Live ELSEWHERE =
      new Live(
          "0f6fa7cf-4483-4a6d-ab20-21fb703f6e97",
          "/srv/ci/checkout",
          "/home/ci",
          "Count the lines, please",
          1_800_000_000_000L);

  /** A recording as the recorder would declare it: its home too. */
  static Tape recorded() {
    Tape run =
        Script.of(PROMPT)
            .sessionId(SID)
            .cwd(CWD)
            .epochMs(EPOCH)
            .init()
            .user()
            .thinking("Reading notes.txt.")
            .assistant("I'll read the file.")
            .tool(ToolCall.read("notes.txt", "alpha\nbeta\n"))
            .tool(ToolCall.read(HOME + "/.cursor/rules.md", "be brief\n"))
            .tool(ToolCall.shell("wc -l notes.txt", 0, "2 notes.txt\n", ""))
            .assistant("It has 2 lines.")
            .result()
            .exit(0)
            .build();
    return new Tape(
        run.header().toBuilder().vars(run.header().vars().home(HOME)).build(), run.frames());
  }

  /** The ids the fake has no variable for, masked: they are canonical after normalising. */
  static String maskIds(byte[] stdout) {
    return new String(stdout, StandardCharsets.UTF_8)
        .replaceAll(
            "\"(request_id|model_call_id|call_id|toolCallId)\":\"(?:[^\"\\\\]|\\\\.)*\"",
            "\"$1\":\"#\"");
  }

  record Result(byte[] stdout, String err, int exit) {}

  Result replay(Tape tape, Live live) throws IOException {
    Path file = Files.createTempFile(dir, "tape", ".tape.ndjson");
    tape.write(file);
    List<String> command =
        new ArrayList<>(
            List.of(
                Cli.root().resolve("fake-agent/bin/cursor-agent").toString(),
                "-p",
                "--output-format",
                "stream-json",
                "--resume",
                live.sessionId(),
                "--workspace",
                live.cwd(),
                live.prompt()));
    Child c =
        Child.start(
            command,
            dir,
            Map.of(
                "AGENTDOUBLE_TAPE",
                file.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_EPOCH_MS",
                Long.toString(live.epochMs()),
                "HOME",
                live.home()));
    int exit = c.waitFor(Duration.ofSeconds(60));
    return new Result(c.stdout(), c.err(), exit);
  }

  static Tape normalised() {
    return Normaliser.normalise(
        recorded(), Normaliser.Context.NONE.cwd(CWD).home(HOME).prompt(PROMPT).epochMs(EPOCH));
  }

  @Test
  void replayWithTheRecordedValuesGivesTheRecordedOutput() throws Exception {
    Result original = replay(recorded(), RECORDED);
    Result replayed = replay(normalised(), RECORDED);

    assertThat(original.exit()).as(original.err()).isZero();
    assertThat(replayed.exit()).as(replayed.err()).isZero();
    // the recorded tape replays byte for byte; so does the normalised one, but for its ids
    StringBuilder written = new StringBuilder();
    for (Frame f : recorded().frames()) {
      if (f instanceof Frame.Out out) {
        written.append(out.json()).append('\n');
      }
    }
    assertThat(new String(original.stdout(), StandardCharsets.UTF_8)).isEqualTo(written.toString());
    assertThat(maskIds(replayed.stdout())).isEqualTo(maskIds(original.stdout()));
    assertThat(new String(replayed.stdout(), StandardCharsets.UTF_8))
        .contains(
            SID, CWD + "/notes.txt", HOME + "/.cursor/rules.md", "\"timestamp_ms\":" + (EPOCH + 10))
        .doesNotContain(Normaliser.SESSION_ID, Normaliser.CWD, Normaliser.HOME);
  }

  @Test
  void replayWithOtherLiveValuesGivesWhatTheRecordedTapeGivesWithThem() throws Exception {
    Result original = replay(recorded(), ELSEWHERE);
    Result replayed = replay(normalised(), ELSEWHERE);

    assertThat(replayed.exit()).as(replayed.err()).isZero();
    assertThat(maskIds(replayed.stdout())).isEqualTo(maskIds(original.stdout()));
    assertThat(new String(replayed.stdout(), StandardCharsets.UTF_8))
        .contains(
            ELSEWHERE.sessionId(),
            "/srv/ci/checkout/notes.txt",
            "/home/ci/.cursor/rules.md",
            "\"text\":\"Count the lines, please\"",
            "\"timestamp_ms\":1800000000010");
  }

  @Test
  void aRealCaptureNormalisedReplaysAsCaptured() throws Exception {
    ConformanceTest.Case c =
        ConformanceTest.cases().stream()
            .filter(k -> k.name().equals("multica-read-shell-edit"))
            .findFirst()
            .orElseThrow(
                () -> new TestAbortedException("multica-read-shell-edit not in the corpus"));
    byte[] stdout = Files.readAllBytes(c.stdout());
    Tape imported =
        Importer.importRun(Capture.exited(stdout, new byte[0], 0), ImportOptions.builder().build());
    var vars = imported.header().vars();
    Live asCaptured =
        new Live(
            vars.sessionId().orElseThrow(),
            vars.cwd().orElseThrow(),
            HOME,
            vars.prompt().orElseThrow(),
            vars.epochMs().orElseThrow());

    Result replayed = replay(Normaliser.normalise(imported, Normaliser.Context.NONE), asCaptured);

    assertThat(replayed.exit()).as(replayed.err()).isZero();
    assertThat(maskIds(replayed.stdout())).isEqualTo(maskIds(stdout));
  }
}
