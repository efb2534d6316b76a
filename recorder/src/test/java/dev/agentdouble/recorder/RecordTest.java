package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble record} on real programs: small sh and python3 scripts that write partial
 * lines, split characters, interleave stderr, flood both streams, die by signal, ignore SIGTERM
 * or read stdin. The recorder runs as a process through the project's launcher ({@code
 * ./agentdouble}) wherever signals or the caller's own stdin are involved, in-process otherwise.
 * Every run is checked twice: what the caller saw (the passthrough) and what the tape says.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RecordTest {
  @TempDir Path dir;

  private Child record(String... args) {
    return Child.start(Child.agentdouble(args), dir, Child.noBuild(dir));
  }

  private Path tape() {
    return dir.resolve("run.tape.ndjson");
  }

  @Test
  void passesPartialLinesThroughAndRecordsEachWriteThatEndsMidLine() {
    Path script = Child.script(dir, "partial.sh", """
        #!/bin/sh
        printf '{"type":"a",'
        sleep 0.3
        printf '"b":1}\\n{"type":"c"}\\n'
        sleep 0.3
        printf 'no newline at the end'
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.out()).isEqualTo("{\"type\":\"a\",\"b\":1}\n{\"type\":\"c\"}\nno newline at the end");
    assertThat(r.err()).isEmpty();
    assertThat(Frames.kinds(Frames.read(tape()))).containsExactly(
        "outRaw {\"type\":\"a\",",
        "outRaw \"b\":1}\n",
        "out {\"type\":\"c\"}",
        "outRaw no newline at the end",
        "exit 0");
  }

  @Test
  void reassemblesCharactersSplitAcrossWritesWithoutReplacingABit() {
    Path script = Child.script(dir, "split.py", """
        import os, time
        def w(fd, b):
            os.write(fd, b)
            time.sleep(0.3)
        w(1, b"caf\\xc3")
        w(1, b"\\xa9 \\xe2\\x9c")
        w(1, b"\\x93\\n\\xf0\\x9f")
        w(2, b"warn \\xf0")
        w(1, b"\\x98\\x80 end\\n")
        w(2, b"\\x9f\\x98\\x80\\n")
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", Child.python3(),
        script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.stdout()).isEqualTo("café ✓\n😀 end\n".getBytes(StandardCharsets.UTF_8));
    assertThat(r.stderr()).isEqualTo("warn 😀\n".getBytes(StandardCharsets.UTF_8));
    Tape tape = Frames.read(tape());
    // every frame holds whole characters: the incomplete tail of a read waits for the next one
    assertThat(Frames.kinds(tape)).containsExactly(
        "outRaw caf",
        "outRaw é ",
        "outRaw ✓\n",
        "err warn ",
        "outRaw 😀 end\n",
        "err 😀\n",
        "exit 0");
    assertThat(Cli.read(tape())).doesNotContain("\uFFFD", "outB64", "errB64");
    assertThat(Frames.stdout(tape)).isEqualTo(r.stdout());
    assertThat(Frames.stderr(tape)).isEqualTo(r.stderr());
  }

  @Test
  void keepsTheOrderOfWritesAcrossStdoutAndStderr() {
    Path script = Child.script(dir, "interleave.py", """
        import sys, time
        for i in range(3):
            sys.stdout.write('{"n":%d}\\n' % i)
            sys.stdout.flush()
            time.sleep(0.15)
            sys.stderr.write("err %d\\n" % i)
            sys.stderr.flush()
            time.sleep(0.15)
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", Child.python3(),
        script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.out()).isEqualTo("{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n");
    assertThat(r.err()).isEqualTo("err 0\nerr 1\nerr 2\n");
    Tape tape = Frames.read(tape());
    assertThat(Frames.kinds(tape)).containsExactly(
        "out {\"n\":0}", "err err 0\n",
        "out {\"n\":1}", "err err 1\n",
        "out {\"n\":2}", "err err 2\n",
        "exit 0");
    // 150 ms between writes: times grow with them (the tape's t is in milliseconds)
    List<Long> t = tape.frames().stream().map(Frame::t).toList();
    for (int i = 1; i < 6; i++) {
      assertThat(t.get(i)).as("t of frame %d in %s", i, t).isGreaterThan(t.get(i - 1) + 50);
    }
  }

  @Test
  void exitsWithTheChildsStatusAndSaysWhatItRecorded() {
    Path script = Child.script(dir, "fail.sh", """
        #!/bin/sh
        echo '{"type":"system","subtype":"init"}'
        sleep 0.2
        echo 'oops' >&2
        exit 3
        """);

    Child r = record("record", "--out", tape().toString(), "--", script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(3);
    assertThat(r.out()).isEqualTo("{\"type\":\"system\",\"subtype\":\"init\"}\n");
    assertThat(r.err()).startsWith("oops\nagentdouble: recorded 1 event, 0 tool calls, ")
        .endsWith(" -> " + tape() + "\n");
    Tape tape = Frames.read(tape());
    assertThat(Frames.kinds(tape)).containsExactly(
        "out {\"type\":\"system\",\"subtype\":\"init\"}", "err oops\n", "exit 3");
    assertThat(tape.header().cli()).contains("fail.sh");
    assertThat(tape.header().extras()).doesNotContainKey("interrupted");
  }

  @Test
  void aChildKilledMidLineEndsTheTapeWithItsSignalAndKeepsTheLastBytes() {
    Path script = Child.script(dir, "killed.sh", """
        #!/bin/sh
        printf 'line one\\n'
        printf '{"type":"tool_call","subt'
        kill -KILL $$
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(137);
    assertThat(r.out()).isEqualTo("line one\n{\"type\":\"tool_call\",\"subt");
    assertThat(Frames.kinds(Frames.read(tape()))).containsExactly(
        "outRaw line one\n",
        "outRaw {\"type\":\"tool_call\",\"subt",
        "kill SIGKILL");
  }

  /**
   * 50 MiB on stdout and 50 MiB on stderr at the same time, in writes of ~100 KB that split lines
   * and characters at every read boundary: no deadlock, every byte passed through and recorded.
   */
  @Test
  void floodsOnBothStreamsAtOnceArePassedThroughAndRecordedByteForByte() throws IOException {
    byte[] outBlock = block("{\"type\":\"assistant\",\"n\":%d,\"text\":\"ünïcödé ✓ 😀 %s\"}\n", 1);
    byte[] errBlock = block("warning %d: ünïcödé ✓ 😀 %s\n", 2);
    int times = (50 << 20) / Math.min(outBlock.length, errBlock.length) + 1;
    Cli.write(dir, "out.block", outBlock);
    Cli.write(dir, "err.block", errBlock);
    Path script = Child.script(dir, "flood.py", """
        import os, sys, threading
        times = int(sys.argv[1])
        def pump(fd, name):
            with open(name, "rb") as f:
                block = f.read()
            for _ in range(times):
                view = memoryview(block)
                while view:
                    view = view[os.write(fd, view):]
        t = threading.Thread(target=pump, args=(2, "err.block"))
        t.start()
        pump(1, "out.block")
        t.join()
        """);

    Child r = Child.startHashing(Child.agentdouble("record", "--quiet", "--out",
        tape().toString(), "--", Child.python3(), script.toString(), Integer.toString(times)),
        dir, Child.noBuild(dir));

    assertThat(r.waitFor()).isZero();
    String out = Child.digest(outBlock, times);
    String err = Child.digest(errBlock, times);
    assertThat(r.outDigest()).isEqualTo(out);
    assertThat(r.errDigest()).isEqualTo(err);
    Tape tape = Frames.read(tape());
    assertThat(Frames.digest(tape, true)).isEqualTo(out);
    assertThat(Frames.digest(tape, false)).isEqualTo(err);
    assertThat(tape.ending()).isInstanceOf(Frame.Exit.class);
  }

  /**
   * The recorder keeps what it captures on disk, not in memory: a run of 96 MiB of stream-json
   * (tool calls with ids to normalise, a secret to redact) is recorded whole by a recorder whose
   * heap may not exceed 32 MiB.
   */
  @Test
  void recordsARunThreeTimesLargerThanItsHeap() throws IOException {
    byte[] block = block("{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":"
        + "\"call_%08d\",\"session_id\":\"9b2f3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d\",\"text\":"
        + "\"sk-live-0123456789 %s\",\"timestamp_ms\":1784819288214}\n", 3);
    int times = (96 << 20) / block.length + 1;
    Cli.write(dir, "out.block", block);
    Path script = Child.script(dir, "big.py", """
        import os, sys
        with open("out.block", "rb") as f:
            block = f.read()
        for _ in range(int(sys.argv[1])):
            view = memoryview(block)
            while view:
                view = view[os.write(1, view):]
        """);
    java.util.Map<String, String> env = new java.util.HashMap<>(Child.noBuild(dir));
    env.put("JDK_JAVA_OPTIONS", "-Xmx32m");
    env.put("LIVE_API_KEY", "sk-live-0123456789");

    Child r = Child.startHashing(Child.agentdouble("record", "--quiet", "--out",
        tape().toString(), "--", Child.python3(), script.toString(), Integer.toString(times)),
        dir, env);

    assertThat(r.waitFor()).isZero();
    assertThat(r.outDigest()).isEqualTo(Child.digest(block, times));
    long lines = 0;
    long secrets = 0;
    try (var in = Files.newBufferedReader(tape(), StandardCharsets.UTF_8)) {
      String line;
      while ((line = in.readLine()) != null) {
        lines++;
        secrets += line.contains("sk-live-0123456789") ? 1 : 0;
      }
    }
    long perBlock = new String(block, StandardCharsets.UTF_8).lines().count();
    assertThat(lines).as("header, one out frame per line, ending").isEqualTo(perBlock * times + 2);
    assertThat(secrets).isZero();
  }

  /** About 100 KB of lines of {@code format} (a number and padding), not a multiple of 4096. */
  private static byte[] block(String format, long seed) {
    Random random = new Random(seed);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int n = 0; bytes.size() < 100_000; n++) {
      String pad = "x".repeat(random.nextInt(120));
      bytes.writeBytes(String.format(format, n, pad).getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }

  @Test
  void theCallersStdinReachesTheChild() throws IOException {
    Path script = Child.script(dir, "echo.sh", """
        #!/bin/sh
        read line
        echo "got: $line"
        cat
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", script.toString());
    r.stdin().write("hello\nthe rest of stdin\n".getBytes(StandardCharsets.UTF_8));
    r.closeStdin();

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.out()).isEqualTo("got: hello\nthe rest of stdin\n");
    assertThat(Frames.stdout(Frames.read(tape())))
        .isEqualTo("got: hello\nthe rest of stdin\n".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void stdinGivenToRunReachesTheChild() {
    byte[] input = block("line %d of stdin %s\n", 3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int status = Agentdouble.run(new ByteArrayInputStream(input), new PrintStream(out, true),
        new PrintStream(err, true), "record", "--quiet", "--out", tape().toString(), "--", "cat");

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toByteArray()).isEqualTo(input);
    assertThat(Frames.stdout(Frames.read(tape()))).isEqualTo(input);
  }

  /** A file where the tape's folder should be. */
  private Path blocker() {
    return Cli.write(dir, "blocker", "a file where the tape's folder should be");
  }

  /** A command that writes a line on each stream and exits 3. */
  private Path talker() {
    return Child.script(dir, "talk.sh", """
        #!/bin/sh
        echo 'all of stdout'
        echo 'and stderr' >&2
        exit 3
        """);
  }

  @Test
  void aTapeThatCannotBeWrittenExits125AfterPassingAllOutputThrough() {
    Path blocker = blocker();
    Path script = talker();
    Path target = blocker.resolve("run.tape.ndjson");

    Cli.Result r = Cli.run("record", "--out", target.toString(), "--", script.toString());

    assertThat(r.exit()).as("%s", r).isEqualTo(125);
    assertThat(r.out()).isEqualTo("all of stdout\n");
    assertThat(r.err()).startsWith("and stderr\nagentdouble: record: cannot write " + target + ": ")
        .endsWith("(the run's output was shown above)\n");
    assertThat(blocker).isRegularFile();
  }

  /** With nowhere to keep the capture at all, the run still reaches the caller whole. */
  @Test
  void withNowhereToKeepTheCaptureTheRunStillPassesThroughAndExits125() {
    Path blocker = blocker();
    Path script = talker();
    Path target = blocker.resolve("run.tape.ndjson");
    java.util.Map<String, String> env = new java.util.HashMap<>(Child.noBuild(dir));
    env.put("JDK_JAVA_OPTIONS", "-Djava.io.tmpdir=" + blocker.resolve("tmp"));

    Child r = Child.start(Child.agentdouble("record", "--out", target.toString(), "--",
        script.toString()), dir, env);

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(125);
    assertThat(r.out()).isEqualTo("all of stdout\n");
    assertThat(r.err()).contains("and stderr\nagentdouble: record: cannot write " + target + ": ")
        .endsWith("(the run's output was shown above)\n");
  }

  @Test
  void aCommandThatIsNotFoundExits127() {
    Cli.Result r = Cli.run("record", "--out", tape().toString(), "--",
        dir.resolve("no-such-cli").toString(), "-p", "hi");

    assertThat(r.exit()).isEqualTo(127);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: record: cannot run " + dir.resolve("no-such-cli")
        + ": not found\n");
    assertThat(tape()).doesNotExist();
  }

  @Test
  void aCommandThatIsNotExecutableExits126() {
    Path notExecutable = Cli.write(dir, "not-executable.sh", "#!/bin/sh\necho hi\n");

    Cli.Result r = Cli.run("record", "--out", tape().toString(), "--", notExecutable.toString());

    assertThat(r.exit()).isEqualTo(126);
    assertThat(r.err()).isEqualTo("agentdouble: record: cannot run " + notExecutable
        + ": not executable\n");
    assertThat(tape()).doesNotExist();
  }

  @Test
  void sigtermIsForwardedToTheChildAndTheTapeIsWrittenMarkedInterrupted() throws Exception {
    Path script = Child.script(dir, "stubborn.py", """
        import os, signal, time
        def on_term(sig, frame):
            os.write(1, b"got SIGTERM, carrying on\\n")
        signal.signal(signal.SIGTERM, on_term)
        time.sleep(0.5)
        os.write(1, b"ready %d\\n" % os.getpid())
        while True:
            time.sleep(0.05)
        """);

    try (Child r = record("record", "--quiet", "--out", tape().toString(), "--",
        Child.python3(), script.toString())) {
      r.awaitOut("ready ");
      long childPid = Long.parseLong(r.out().strip().substring("ready ".length()));
      assertThat(ProcessHandle.of(childPid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
          .as("the script runs as the recorder's child").contains(r.pid());

      r.terminate();
      r.awaitOut("got SIGTERM, carrying on\n");
      assertThat(r.process().isAlive()).as("the recorder waits for its child").isTrue();
      ProcessHandle.of(childPid).ifPresent(ProcessHandle::destroyForcibly);

      assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(137);
      Tape tape = Frames.read(tape());
      assertThat(tape.header().extras()).containsEntry("interrupted", "true");
      assertThat(Frames.kinds(tape)).containsExactly(
          "outRaw ready " + childPid + "\n",
          "outRaw got SIGTERM, carrying on\n",
          "kill SIGKILL");
    }
  }

  @Test
  void sigintIsForwardedAndAChildThatDiesOfItEndsTheTapeWithIt() throws Exception {
    assumeFalse(ignored(2), "SIGINT is ignored in this test's process group (started with & "
        + "without job control?): the recorder would inherit that");
    Path script = Child.script(dir, "interrupted.py", """
        import os, signal, time
        def on_int(sig, frame):
            os.write(1, b"got SIGINT, dying of it\\n")
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        signal.signal(signal.SIGINT, on_int)
        time.sleep(0.5)
        os.write(1, b"ready\\n")
        while True:
            time.sleep(0.05)
        """);

    try (Child r = record("record", "--quiet", "--out", tape().toString(), "--",
        Child.python3(), script.toString())) {
      r.awaitOut("ready\n");

      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(r.pid())).start();
      assertThat(kill.waitFor()).isZero();

      assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(130);
      assertThat(r.out()).isEqualTo("ready\ngot SIGINT, dying of it\n");
      Tape tape = Frames.read(tape());
      assertThat(tape.header().extras()).containsEntry("interrupted", "true");
      assertThat(Frames.kinds(tape)).containsExactly(
          "outRaw ready\n", "outRaw got SIGINT, dying of it\n", "kill SIGINT");
    }
  }

  /**
   * A signal that comes after the child ended, while the recorder turns a long run into a tape,
   * neither kills the recorder (the run would be lost) nor marks the run interrupted.
   */
  @Test
  void aSignalWhileTheTapeIsWrittenNeitherLosesItNorMarksItInterrupted() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    Path script = Child.script(dir, "long.py", """
        import os, sys
        with open(sys.argv[1], "w") as f:
            f.write("%d\\n" % os.getpid())
        block = b'{"type":"assistant","message":{"role":"assistant","content":"a line"}}\\n' * 1000
        for _ in range(500):
            view = memoryview(block)
            while view:
                view = view[os.write(1, view):]
        """);

    try (Child r = Child.startHashing(Child.agentdouble("record", "--quiet", "--out",
        tape().toString(), "--", Child.python3(), script.toString(), pidFile.toString()), dir,
        Child.noBuild(dir))) {
      org.awaitility.Awaitility.await("the child's pid in " + pidFile).atMost(Child.PATIENCE)
          .until(() -> Files.exists(pidFile) && Cli.read(pidFile).endsWith("\n"));
      long pid = Long.parseLong(Cli.read(pidFile).strip());
      ProcessHandle.of(pid).ifPresent(child -> child.onExit().join());
      // the recorder has reaped it: it is past waiting for the child, into writing the tape
      org.awaitility.Awaitility.await("the recorder reaping its child").atMost(Child.PATIENCE)
          .pollInterval(java.time.Duration.ofMillis(5))
          .until(() -> r.process().descendants().findAny().isEmpty());
      org.junit.jupiter.api.Assumptions.assumeTrue(r.process().isAlive(),
          "the recorder had written the tape before the signal: nothing to see this time");

      r.terminate();

      assertThat(r.waitFor()).isZero();
      Tape tape = Frames.read(tape());
      assertThat(tape.header().extras()).doesNotContainKey("interrupted");
      assertThat(Frames.digest(tape, true)).isEqualTo(r.outDigest());
    }
  }

  /** Whether signal {@code n} is ignored by this JVM (and so by the processes it starts). */
  private static boolean ignored(int n) throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        long mask = Long.parseUnsignedLong(line.substring(7).strip(), 16);
        return (mask & (1L << (n - 1))) != 0;
      }
    }
    return false;
  }

  /**
   * A stdout line longer than one read of the pipe (64 KiB), written with one write, is one
   * {@code out} frame: the reads it took are not partial writes.
   */
  @Test
  void aJsonLineLongerThanOneReadIsOneOutFrame() {
    Path script = Child.script(dir, "big.py", """
        import json, os
        event = {"type": "tool_call", "subtype": "completed",
                 "content": "".join("line %d of the file: ünïcödé ✓ 😀\\n" % i for i in range(30000))}
        line = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode() + b"\\n"
        view = memoryview(line)
        while view:
            view = view[os.write(1, view):]
        """);

    Child r = Child.startHashing(Child.agentdouble("record", "--quiet", "--out",
        tape().toString(), "--", Child.python3(), script.toString()), dir, Child.noBuild(dir));

    assertThat(r.waitFor()).isZero();
    Tape tape = Frames.read(tape());
    List<String> shapes = new ArrayList<>();
    for (Frame f : tape.frames()) {
      shapes.add(f.getClass().getSimpleName() + (f instanceof Frame.OutBytes o
          ? "(" + o.bytes().length + " bytes)" : ""));
    }
    assertThat(shapes).containsExactly("Out", "Exit");
    assertThat(Frames.digest(tape, true)).isEqualTo(r.outDigest());
    assertThat(((Frame.Out) tape.frames().get(0)).json().length()).isGreaterThan(1_000_000);
  }
}
