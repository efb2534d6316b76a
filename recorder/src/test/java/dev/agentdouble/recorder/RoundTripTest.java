package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recording and replaying undo each other.
 *
 * <p>record(replay(T)) = T: the fake agent replays a tape with its recorded timing and {@code
 * agentdouble record --raw} records it. The frames come back the same, byte for byte, with the same
 * ending, none before its time (the recorder's clock starts before the fake's, which never writes
 * early). What a pipe cannot tell is taken out of the scheduler's hands: the replayed tape has a
 * step gate after each write, which the test releases {@value #PAUSE_MS} ms after it saw the write
 * passed through, so every write is read on its own and every pause is one the recorder sees,
 * however loaded the machine (with a fixed schedule alone, a recorder held up for 100 ms reads two
 * writes as one).
 *
 * <p>replay(record(run)) = run: what a real program wrote on stdout and stderr, and its exit
 * status, come back byte for byte from the fake.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RoundTripTest {
  /** How long the test holds the replay after each write: far above the recorder's 10 ms. */
  static final long PAUSE_MS = 100;

  @TempDir Path dir;

  /**
   * Tapes in the form the recorder writes: one frame per write, a stdout frame holds at most one
   * line, split writes 100 ms apart (far above the 10 ms in which reads are taken to continue a
   * write), and the first frame at 2 s, when the fake is surely up, so no frame is overdue.
   */
  static final Map<String, String> TAPES =
      Map.of(
          "exit",
              """
          {"tape":1,"outputFormat":"stream-json","source":"scripted"}
          {"t":2000,"out":{"type":"system","subtype":"init","model":"Auto"}}
          {"t":2100,"outRaw":"{\\"type\\":\\"assistant\\",\\"mess"}
          {"t":2200,"outRaw":"age\\":\\"hi\\"}\\n"}
          {"t":2300,"err":"warning: café ✓\\n"}
          {"t":2400,"outRaw":"not json: ünïcödé 😀\\n"}
          {"t":2500,"outB64":"//4K"}
          {"t":2600,"err":"partial err"}
          {"t":2700,"errB64":"/wo="}
          {"t":2800,"out":{"type":"result","subtype":"success","result":"done"}}
          {"t":2900,"exit":3}
          """,
          "kill",
              """
          {"tape":1,"outputFormat":"stream-json","source":"scripted"}
          {"t":2000,"out":{"type":"system","subtype":"init","model":"Auto"}}
          {"t":2100,"err":"fatal: connection reset\\n"}
          {"t":2200,"outRaw":"{\\"type\\":\\"tool_call\\",\\"subt"}
          {"t":2300,"kill":"SIGKILL"}
          """);

  @ParameterizedTest(name = "a tape ending with {0}")
  @ValueSource(strings = {"exit", "kill"})
  void recordingAReplayGivesBackTheTape(String name) {
    Path original = Cli.write(dir, name + ".tape.ndjson", TAPES.get(name));
    Tape t = Frames.read(original);
    Path gated = Cli.write(dir, name + ".gated.tape.ndjson", gated(TAPES.get(name)));
    Path gates = dir.resolve("gates");
    Path recorded = dir.resolve("recorded.tape.ndjson");
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("AGENTDOUBLE_TAPE", gated.toString());
    env.put("AGENTDOUBLE_TIMING", "recorded");
    env.put("AGENTDOUBLE_GATES", gates.toString());
    Path fake = Cli.root().resolve("fake-agent/bin/cursor-agent");
    try {
      Files.createDirectories(gates);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }

    Child r =
        Child.start(
            Child.agentdouble(
                "record",
                "--raw",
                "--quiet",
                "--out",
                recorded.toString(),
                "--",
                fake.toString(),
                "-p",
                "--output-format",
                "stream-json",
                "hi"),
            dir,
            env);
    int out = 0;
    int err = 0;
    for (int i = 0; i < t.frames().size() - 1; i++) {
      Tape upTo = new Tape(t.header(), List.of(t.frames().get(i), t.ending()));
      out += Frames.stdout(upTo).length;
      err += Frames.stderr(upTo).length;
      r.awaitBytes(out, err);
      pause();
      Cli.write(gates, "after-" + i + ".release", "");
    }

    int status = r.waitFor();
    assertThat(status).as("%s", r.err()).isEqualTo(name.equals("exit") ? 3 : 137);
    assertThat(r.stdout()).isEqualTo(Frames.stdout(t));
    assertThat(r.stderr()).isEqualTo(Frames.stderr(t));
    Tape back = Frames.read(recorded);
    assertThat(Frames.kinds(back)).isEqualTo(Frames.kinds(t));
    assertThat(back.ending()).isEqualTo(t.ending().at(back.ending().t()));
    List<Long> want = t.frames().stream().map(Frame::t).toList();
    List<Long> got = back.frames().stream().map(Frame::t).toList();
    for (int i = 0; i < want.size(); i++) {
      assertThat(got.get(i))
          .as("t of frame %d in %s (the tape's: %s)", i, got, want)
          .isGreaterThanOrEqualTo(want.get(i));
      if (i > 0) {
        // the test held the replay that long after it saw frame i - 1, which the recorder had
        // timed before passing it on (times in whole milliseconds, each rounded down)
        assertThat(got.get(i))
            .as("t of frame %d in %s", i, got)
            .isGreaterThanOrEqualTo(got.get(i - 1) + PAUSE_MS - 1);
      }
    }
    assertThat(back.header().cli()).contains("cursor-agent");
    assertThat(back.header().argv()).containsExactly("-p", "--output-format", "stream-json", "hi");
  }

  /** {@code tape} with a gate {@code after-I} after each frame I but the last, at its time. */
  private static String gated(String tape) {
    List<String> lines = tape.lines().toList();
    StringBuilder gated = new StringBuilder(lines.get(0)).append('\n');
    for (int i = 1; i < lines.size(); i++) {
      gated.append(lines.get(i)).append('\n');
      if (i < lines.size() - 1) {
        String t = lines.get(i).replaceAll("^\\{\"t\":(\\d+),.*", "$1");
        gated
            .append("{\"t\":")
            .append(t)
            .append(",\"gate\":\"after-")
            .append(i - 1)
            .append("\"}\n");
      }
    }
    return gated.toString();
  }

  /**
   * A pause in the replay, which the recorder is to see (not a wait for something to happen: the
   * test waited for the write before it).
   */
  private static void pause() {
    try {
      Thread.sleep(PAUSE_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static final Map<String, String> RUNS =
      Map.of(
          "exit.py",
              """
          import os, sys, time
          def w(fd, b):
              os.write(fd, b)
              time.sleep(0.05)
          w(1, b'{"type":"system","subtype":"init"}\\n')
          w(1, b'{"type":"assistant",')
          w(1, b'"text":"caf\\xc3')
          w(1, b'\\xa9"}\\n')
          w(2, b'warning: \\xff is not UTF-8\\n')
          w(1, b'plain text, not JSON\\n')
          w(1, b'\\xfe\\xff\\n')
          w(1, b'{ "spaced" : true }\\n')
          w(2, b'no newline on stderr')
          w(1, b'last line without newline')
          sys.exit(3)
          """,
          "kill.py",
              """
          import os, signal, time
          os.write(1, b'{"type":"system","subtype":"init"}\\n')
          time.sleep(0.05)
          os.write(2, b'dying\\n')
          time.sleep(0.05)
          os.write(1, b'{"type":"tool_call","subt')
          os.kill(os.getpid(), signal.SIGKILL)
          """);

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"exit.py", "kill.py"})
  void replayingARecordingReproducesTheRun(String name) {
    Path script = Child.script(dir, name, RUNS.get(name));
    Path tape = dir.resolve("run.tape.ndjson");
    Child run =
        Child.start(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                tape.toString(),
                "--",
                Child.python3(),
                script.toString()),
            dir,
            Child.noBuild(dir));
    int status = run.waitFor();
    assertThat(status).as("%s", run.err()).isEqualTo(name.equals("exit.py") ? 3 : 137);

    Child replay =
        Child.start(
            Child.agentdouble("replay", "--timing", "fast", tape.toString()),
            dir,
            Child.noBuild(dir));

    assertThat(replay.waitFor()).as("%s", replay.err()).isEqualTo(status);
    assertThat(replay.stdout()).isEqualTo(run.stdout());
    assertThat(replay.stderr()).isEqualTo(run.stderr());
  }
}
