package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recording and replaying undo each other.
 *
 * <p>record(replay(T)) = T: the fake agent replays a tape with its recorded timing and {@code
 * agentdouble record --raw} records it. The frames come back the same, byte for byte, with the
 * same ending, each at its time within {@value #TOLERANCE_MS} ms + {@value #TOLERANCE_PERCENT}%
 * of it: the recorder's clock starts a spawn earlier than the fake's, whose own start is read from
 * /proc in 10 ms steps, and the rest is a shared machine's scheduling. A {@code kill} ending may
 * come up to {@value #KILL_LATENCY_MS} ms later still: the fake dies by starting {@code kill(1)}
 * on itself ({@code sun.misc.Signal.raise} refuses signals the JVM has no handler for).
 *
 * <p>replay(record(run)) = run: what a real program wrote on stdout and stderr, and its exit
 * status, come back byte for byte from the fake.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RoundTripTest {
  static final long TOLERANCE_MS = 50;
  static final long TOLERANCE_PERCENT = 10;
  static final long KILL_LATENCY_MS = 1000;

  @TempDir Path dir;

  /**
   * Tapes in the form the recorder writes: one frame per write, a stdout frame holds at most one
   * line, split writes 100 ms apart (far above the 10 ms in which reads are taken to continue a
   * write), and the first frame at 2 s, when the fake is surely up, so no frame is overdue.
   */
  static final Map<String, String> TAPES = Map.of(
      "exit", """
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
      "kill", """
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
    Path recorded = dir.resolve("recorded.tape.ndjson");
    Map<String, String> env = new java.util.HashMap<>(Child.noBuild(dir));
    env.put("AGENTDOUBLE_TAPE", original.toString());
    env.put("AGENTDOUBLE_TIMING", "recorded");
    Path fake = Cli.root().resolve("fake-agent/bin/cursor-agent");

    Child r = Child.start(Child.agentdouble("record", "--raw", "--quiet", "--out",
        recorded.toString(), "--", fake.toString(), "-p", "--output-format", "stream-json",
        "hi"), dir, env);

    Tape t = Frames.read(original);
    int status = r.waitFor();
    assertThat(status).as("%s", r.err()).isEqualTo(name.equals("exit") ? 3 : 137);
    assertThat(r.stdout()).isEqualTo(Frames.stdout(t));
    assertThat(r.stderr()).isEqualTo(Frames.stderr(t));
    Tape back = Frames.read(recorded);
    assertThat(Frames.kinds(back)).isEqualTo(Frames.kinds(t));
    assertThat(back.ending()).isEqualTo(t.ending().at(back.ending().t()));
    SoftAssertions times = new SoftAssertions();
    List<Frame> want = t.frames();
    List<Frame> got = back.frames();
    for (int i = 0; i < want.size(); i++) {
      long expected = want.get(i).t();
      long tolerance = TOLERANCE_MS + expected * TOLERANCE_PERCENT / 100;
      // the ending is when the recorder sees the process gone: after a JVM's exit or a death by
      // signal, which on a loaded machine can come a good while after the last write
      long late = want.get(i).terminal() ? KILL_LATENCY_MS : 0;
      times.assertThat(got.get(i).t()).as("t of frame %d (%s)", i, Frames.kind(want.get(i)))
          .isBetween(expected - tolerance, expected + tolerance + late);
    }
    times.assertAll();
    assertThat(back.header().cli()).contains("cursor-agent");
    assertThat(back.header().argv()).containsExactly("-p", "--output-format", "stream-json", "hi");
  }

  static final Map<String, String> RUNS = Map.of(
      "exit.py", """
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
      "kill.py", """
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
    Child run = Child.start(Child.agentdouble("record", "--quiet", "--out", tape.toString(), "--",
        Child.python3(), script.toString()), dir, Child.noBuild(dir));
    int status = run.waitFor();
    assertThat(status).as("%s", run.err()).isEqualTo(name.equals("exit.py") ? 3 : 137);

    Child replay = Child.start(Child.agentdouble("replay", "--timing", "fast", tape.toString()),
        dir, Child.noBuild(dir));

    assertThat(replay.waitFor()).as("%s", replay.err()).isEqualTo(status);
    assertThat(replay.stdout()).isEqualTo(run.stdout());
    assertThat(replay.stderr()).isEqualTo(run.stderr());
  }
}
