package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble record} on real programs: small sh and python3 scripts that write partial
 * lines, split characters, interleave stderr, flood both streams, die by signal, ignore SIGTERM or
 * read stdin. The recorder runs as a process through the project's launcher ({@code ./agentdouble})
 * wherever signals or the caller's own stdin are involved, in-process otherwise. Every run is
 * checked twice: what the caller saw (the passthrough) and what the tape says.
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

  /**
   * A write that ends mid-line is told from a long line by the pause after it: the script pauses
   * 300 ms, and only once the test has seen the write passed through, so the recorder has read it
   * before the pause starts, however the machine schedules it.
   */
  @Test
  void passesPartialLinesThroughAndRecordsEachWriteThatEndsMidLine() {
    Path script =
        Child.script(
            dir,
            "partial.sh",
            """
        #!/bin/sh
        printf '{"type":"a",'
        read seen
        sleep 0.3
        printf '"b":1}\\n{"type":"c"}\\n'
        read seen
        sleep 0.3
        printf 'no newline at the end'
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", script.toString());
    r.awaitOut("{\"type\":\"a\",");
    r.send("seen");
    r.awaitOut("{\"type\":\"c\"}\n");
    r.send("seen");

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.out())
        .isEqualTo("{\"type\":\"a\",\"b\":1}\n{\"type\":\"c\"}\nno newline at the end");
    assertThat(r.err()).isEmpty();
    assertThat(Frames.kinds(Frames.read(tape())))
        .containsExactly(
            "outRaw {\"type\":\"a\",",
            "outRaw \"b\":1}\n",
            "out {\"type\":\"c\"}",
            "outRaw no newline at the end",
            "exit 0");
  }

  @Test
  void reassemblesCharactersSplitAcrossWritesWithoutReplacingABit() {
    Path script =
        Child.script(
            dir,
            "split.py",
            """
        import os, sys, time
        def w(fd, b):
            os.write(fd, b)
            sys.stdin.readline()  # the test has seen it passed through
            time.sleep(0.3)
        w(1, b"caf\\xc3")
        w(1, b"\\xa9 \\xe2\\x9c")
        w(1, b"\\x93\\n\\xf0\\x9f")
        w(2, b"warn \\xf0")
        w(1, b"\\x98\\x80 end\\n")
        w(2, b"\\x9f\\x98\\x80\\n")
        """);

    Child r =
        record(
            "record",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            Child.python3(),
            script.toString());
    // bytes written on stdout and stderr after each write of the script
    int[][] after = {{4, 0}, {8, 0}, {12, 0}, {12, 6}, {19, 6}, {19, 10}};
    for (int[] written : after) {
      r.awaitBytes(written[0], written[1]);
      r.send("seen");
    }

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.stdout()).isEqualTo("café ✓\n😀 end\n".getBytes(StandardCharsets.UTF_8));
    assertThat(r.stderr()).isEqualTo("warn 😀\n".getBytes(StandardCharsets.UTF_8));
    Tape tape = Frames.read(tape());
    // every frame holds whole characters: the incomplete tail of a read waits for the next one
    assertThat(Frames.kinds(tape))
        .containsExactly(
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
    // each write waits until the test has seen the one before passed through, then 150 ms: its
    // order and its distance to the one before are the recorder's to keep, whatever the load
    Path script =
        Child.script(
            dir,
            "interleave.py",
            """
        import sys, time
        def seen():
            sys.stdin.readline()
            time.sleep(0.15)
        for i in range(3):
            sys.stdout.write('{"n":%d}\\n' % i)
            sys.stdout.flush()
            seen()
            sys.stderr.write("err %d\\n" % i)
            sys.stderr.flush()
            seen()
        """);

    Child r =
        record(
            "record",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            Child.python3(),
            script.toString());
    for (int i = 0; i < 3; i++) {
      r.awaitOut("{\"n\":" + i + "}\n");
      r.send("seen");
      r.awaitErr("err " + i + "\n");
      r.send("seen");
    }

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.out()).isEqualTo("{\"n\":0}\n{\"n\":1}\n{\"n\":2}\n");
    assertThat(r.err()).isEqualTo("err 0\nerr 1\nerr 2\n");
    Tape tape = Frames.read(tape());
    assertThat(Frames.kinds(tape))
        .containsExactly(
            "out {\"n\":0}",
            "err err 0\n",
            "out {\"n\":1}",
            "err err 1\n",
            "out {\"n\":2}",
            "err err 2\n",
            "exit 0");
    // a write comes 150 ms or more after the recorder read the one before: so do their times
    // (in whole milliseconds, each rounded down)
    List<Long> t = tape.frames().stream().map(Frame::t).toList();
    for (int i = 1; i < 6; i++) {
      assertThat(t.get(i))
          .as("t of frame %d in %s", i, t)
          .isGreaterThanOrEqualTo(t.get(i - 1) + 149);
    }
  }

  /**
   * The script writes on stderr once the test has seen its stdout line passed through: then the
   * line comes first in the tape, as it was read first. (A fixed pause between the two writes is
   * not enough: on a loaded machine the recorder may not read either before both are written, and
   * two pipes say nothing about which was written first.)
   */
  @Test
  void exitsWithTheChildsStatusAndSaysWhatItRecorded() {
    Path script =
        Child.script(
            dir,
            "fail.sh",
            """
        #!/bin/sh
        echo '{"type":"system","subtype":"init"}'
        read seen
        echo 'oops' >&2
        exit 3
        """);

    Child r = record("record", "--out", tape().toString(), "--", script.toString());
    r.awaitOut("{\"type\":\"system\",\"subtype\":\"init\"}\n");
    r.send("seen");

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(3);
    assertThat(r.out()).isEqualTo("{\"type\":\"system\",\"subtype\":\"init\"}\n");
    assertThat(r.err())
        .startsWith("oops\nagentdouble: recorded 1 event, 0 tool calls, ")
        .endsWith(" -> " + tape() + "\n");
    Tape tape = Frames.read(tape());
    assertThat(Frames.kinds(tape))
        .containsExactly("out {\"type\":\"system\",\"subtype\":\"init\"}", "err oops\n", "exit 3");
    assertThat(tape.header().cli()).contains("fail.sh");
    assertThat(tape.header().extras()).doesNotContainKey("interrupted");
  }

  @Test
  void aChildKilledMidLineEndsTheTapeWithItsSignalAndKeepsTheLastBytes() {
    Path script =
        Child.script(
            dir,
            "killed.sh",
            """
        #!/bin/sh
        printf 'line one\\n'
        printf '{"type":"tool_call","subt'
        kill -KILL $$
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(137);
    assertThat(r.out()).isEqualTo("line one\n{\"type\":\"tool_call\",\"subt");
    assertThat(Frames.kinds(Frames.read(tape())))
        .containsExactly(
            "outRaw line one\n", "outRaw {\"type\":\"tool_call\",\"subt", "kill SIGKILL");
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
    Path script =
        Child.script(
            dir,
            "flood.py",
            """
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

    Child r =
        Child.startHashing(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                tape().toString(),
                "--",
                Child.python3(),
                script.toString(),
                Integer.toString(times)),
            dir,
            Child.noBuild(dir));

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
    byte[] block =
        block(
            "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":"
                + "\"call_%08d\",\"session_id\":\"9b2f3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d\",\"text\":"
                + "\"sk-live-0123456789 %s\",\"timestamp_ms\":1784819288214}\n",
            3);
    int times = (96 << 20) / block.length + 1;
    Cli.write(dir, "out.block", block);
    Path script =
        Child.script(
            dir,
            "big.py",
            """
        import os, sys
        with open("out.block", "rb") as f:
            block = f.read()
        for _ in range(int(sys.argv[1])):
            view = memoryview(block)
            while view:
                view = view[os.write(1, view):]
        """);
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("JDK_JAVA_OPTIONS", "-Xmx32m");
    env.put("LIVE_API_KEY", "sk-live-0123456789");

    Child r =
        Child.startHashing(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                tape().toString(),
                "--",
                Child.python3(),
                script.toString(),
                Integer.toString(times)),
            dir,
            env);

    assertThat(r.waitFor()).isZero();
    assertThat(r.outDigest()).isEqualTo(Child.digest(block, times));
    long perBlock = new String(block, StandardCharsets.UTF_8).lines().count();
    long lines = 0;
    long secrets = 0;
    ObjectMapper json = new ObjectMapper();
    try (var in = Files.newBufferedReader(tape(), StandardCharsets.UTF_8)) {
      in.readLine(); // the header
      String line;
      while ((line = in.readLine()) != null) {
        secrets += line.contains("sk-live-0123456789") ? 1 : 0;
        JsonNode frame = json.readTree(line);
        if (frame.has("out")) {
          lines++;
        } else if (frame.has("outRaw")) {
          lines += frame.get("outRaw").asText().chars().filter(c -> c == '\n').count();
        }
      }
    }
    // every line is in the tape: as an out frame, or across outRaw frames when the writer paused
    // in the middle of it long enough to be a write of its own (a loaded machine makes it do so)
    assertThat(lines).as("lines of stdout in the tape").isEqualTo(perBlock * times);
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
    Path script =
        Child.script(
            dir,
            "echo.sh",
            """
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

    int status =
        AgentDoubleCommand.run(
            new ByteArrayInputStream(input),
            new PrintStream(out, true),
            new PrintStream(err, true),
            "record",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            "cat");

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(out.toByteArray()).isEqualTo(input);
    assertThat(Frames.stdout(Frames.read(tape()))).isEqualTo(input);
  }

  /** A file where the tape's folder should be. */
  private Path blocker() {
    return Cli.write(dir, "blocker", "a file where the tape's folder should be");
  }

  /** A command that would leave {@code marker} behind if it were run, and talk. */
  private Path paidRun(Path marker) {
    return Child.script(
        dir,
        "paid.sh",
        "#!/bin/sh\necho ran > '"
            + marker
            + "'\n"
            + "echo 'all of stdout'\necho 'and stderr' >&2\nexit 3\n");
  }

  /** A tape that could not be written is found out before the command runs: nothing is paid for. */
  @Test
  void aTapeWhoseFolderIsAFileExits125AtOnceWithoutRunningTheCommand() {
    Path blocker = blocker();
    Path marker = dir.resolve("ran");
    Path target = blocker.resolve("run.tape.ndjson");

    Child r = record("record", "--out", target.toString(), "--", paidRun(marker).toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(125);
    assertThat(marker).as("the command's marker").doesNotExist();
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: record: cannot write "
                + target
                + ": "
                + blocker
                + ": not a folder; "
                + dir.resolve("paid.sh")
                + " was not run\n");
    assertThat(blocker).isRegularFile();
  }

  @Test
  void aTapeThatIsAFolderExits125AtOnceWithoutRunningTheCommand() throws IOException {
    Path marker = dir.resolve("ran");
    Path target = Files.createDirectory(dir.resolve("tapes"));

    Child r = record("record", "--out", target.toString(), "--", paidRun(marker).toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(125);
    assertThat(marker).as("the command's marker").doesNotExist();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: record: cannot write "
                + target
                + ": is a "
                + "folder; --out names the tape's file (--into DIR names a folder); "
                + dir.resolve("paid.sh")
                + " was not run\n");
    assertThat(target).isEmptyDirectory();
  }

  @Test
  void aTapeInAFolderThatCannotBeWrittenExits125AtOnceWithoutRunningTheCommand()
      throws IOException {
    Path marker = dir.resolve("ran");
    Path folder = Files.createDirectory(dir.resolve("read-only"));
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeFalse(Files.isWritable(folder), "this user writes into read-only folders (root)");
      Path target = folder.resolve("run.tape.ndjson");

      Child r = record("record", "--out", target.toString(), "--", paidRun(marker).toString());

      assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(125);
      assertThat(marker).as("the command's marker").doesNotExist();
      assertThat(r.err())
          .startsWith("agentdouble: record: cannot write " + target + ": ")
          .contains("permission denied")
          .endsWith(" was not run\n");
      assertThat(folder).isEmptyDirectory();
    } finally {
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void aMissingFolderIsMadeBeforeTheCommandRuns() {
    Path marker = dir.resolve("ran");
    Path target = dir.resolve("new/sub/run.tape.ndjson");

    Child r =
        record("record", "--quiet", "--out", target.toString(), "--", paidRun(marker).toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(3);
    assertThat(marker).exists();
    assertThat(Frames.kinds(Frames.read(target))).contains("exit 3");
  }

  /**
   * A tape that can no longer be written when the run is over (its folder gone meanwhile): the run
   * was shown whole, and the recorder says it could not keep it.
   */
  @Test
  void aTapeThatCannotBeWrittenAfterTheRunExits125AfterPassingAllOutputThrough()
      throws IOException {
    Path folder = Files.createDirectory(dir.resolve("tapes"));
    Path target = folder.resolve("run.tape.ndjson");
    Path script =
        Child.script(
            dir,
            "talk.sh",
            """
        #!/bin/sh
        echo 'all of stdout'
        rm -r tapes && echo 'a file where the folder was' > tapes
        echo 'and stderr' >&2
        exit 3
        """);

    Child r = record("record", "--out", target.toString(), "--", script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(125);
    assertThat(r.out()).isEqualTo("all of stdout\n");
    assertThat(r.err())
        .startsWith("and stderr\nagentdouble: record: cannot write " + target + ": ")
        .endsWith("(the run's output was shown above)\n");
    assertThat(folder).isRegularFile();
  }

  @Test
  void aCommandThatIsNotFoundExits127() {
    Cli.Result r =
        Cli.run(
            "record",
            "--out",
            tape().toString(),
            "--",
            dir.resolve("no-such-cli").toString(),
            "-p",
            "hi");

    assertThat(r.exit()).isEqualTo(127);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: record: cannot run " + dir.resolve("no-such-cli") + ": not found\n");
    assertThat(tape()).doesNotExist();
  }

  @Test
  void aCommandThatIsNotExecutableExits126() {
    Path notExecutable = Cli.write(dir, "not-executable.sh", "#!/bin/sh\necho hi\n");

    Cli.Result r = Cli.run("record", "--out", tape().toString(), "--", notExecutable.toString());

    assertThat(r.exit()).isEqualTo(126);
    assertThat(r.err())
        .isEqualTo("agentdouble: record: cannot run " + notExecutable + ": not executable\n");
    assertThat(tape()).doesNotExist();
  }

  @Test
  void sigtermIsForwardedToTheChildAndTheTapeIsWrittenMarkedInterrupted() throws Exception {
    Path script =
        Child.script(
            dir,
            "stubborn.py",
            """
        import os, signal, time
        def on_term(sig, frame):
            os.write(1, b"got SIGTERM, carrying on\\n")
        signal.signal(signal.SIGTERM, on_term)
        time.sleep(0.5)
        os.write(1, b"ready %d\\n" % os.getpid())
        while True:
            time.sleep(0.05)
        """);

    try (Child r =
        record(
            "record",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            Child.python3(),
            script.toString())) {
      r.awaitOut("ready ");
      long childPid = Long.parseLong(r.out().strip().substring("ready ".length()));
      assertThat(ProcessHandle.of(childPid).flatMap(ProcessHandle::parent).map(ProcessHandle::pid))
          .as("the script runs as the recorder's child")
          .contains(r.pid());

      r.terminate();
      r.awaitOut("got SIGTERM, carrying on\n");
      assertThat(r.process().isAlive()).as("the recorder waits for its child").isTrue();
      ProcessHandle.of(childPid).ifPresent(ProcessHandle::destroyForcibly);

      assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(137);
      Tape tape = Frames.read(tape());
      assertThat(tape.header().extras()).containsEntry("interrupted", "true");
      // a JSON boolean in the header line, as docs/cli.md shows it
      assertThat(Files.readAllLines(tape()).get(0)).contains("\"interrupted\":true");
      assertThat(Frames.kinds(tape))
          .containsExactly(
              "outRaw ready " + childPid + "\n",
              "outRaw got SIGTERM, carrying on\n",
              "kill SIGKILL");
    }
  }

  @Test
  void sigintIsForwardedAndAChildThatDiesOfItEndsTheTapeWithIt() throws Exception {
    // the launcher gives SIGINT back its default action when this test's process group ignores it
    // (a build started with & without job control): no run of this test is skipped for it
    Path script =
        Child.script(
            dir,
            "interrupted.py",
            """
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

    try (Child r =
        record(
            "record",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            Child.python3(),
            script.toString())) {
      r.awaitOut("ready\n");

      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(r.pid())).start();
      assertThat(kill.waitFor()).isZero();

      assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(130);
      assertThat(r.out()).isEqualTo("ready\ngot SIGINT, dying of it\n");
      Tape tape = Frames.read(tape());
      assertThat(tape.header().extras()).containsEntry("interrupted", "true");
      assertThat(Frames.kinds(tape))
          .containsExactly("outRaw ready\n", "outRaw got SIGINT, dying of it\n", "kill SIGINT");
    }
  }

  /**
   * A signal that comes after the child ended, while the recorder turns a long run into a tape,
   * neither kills the recorder (the run would be lost) nor marks the run interrupted.
   */
  @Test
  void aSignalWhileTheTapeIsWrittenNeitherLosesItNorMarksItInterrupted() throws Exception {
    Path pidFile = dir.resolve("child.pid");
    Path script =
        Child.script(
            dir,
            "long.py",
            """
        import os, sys
        with open(sys.argv[1], "w") as f:
            f.write("%d\\n" % os.getpid())
        block = b'{"type":"assistant","message":{"role":"assistant","content":"a line"}}\\n' * 1000
        for _ in range(500):
            view = memoryview(block)
            while view:
                view = view[os.write(1, view):]
        """);

    try (Child r =
        Child.startHashing(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                tape().toString(),
                "--",
                Child.python3(),
                script.toString(),
                pidFile.toString()),
            dir,
            Child.noBuild(dir))) {
      Awaitility.await("the child's pid in " + pidFile)
          .atMost(Child.PATIENCE)
          .until(() -> Files.exists(pidFile) && Cli.read(pidFile).endsWith("\n"));
      long pid = Long.parseLong(Cli.read(pidFile).strip());
      ProcessHandle.of(pid).ifPresent(child -> child.onExit().join());
      // the recorder has reaped it: it is past waiting for the child, into writing the tape
      Awaitility.await("the recorder reaping its child")
          .atMost(Child.PATIENCE)
          .pollInterval(Duration.ofMillis(5))
          .until(() -> r.process().descendants().findAny().isEmpty());
      Assumptions.assumeTrue(
          r.process().isAlive(),
          "the recorder had written the tape before the signal: nothing to see this time");

      r.terminate();

      assertThat(r.waitFor()).isZero();
      Tape tape = Frames.read(tape());
      assertThat(tape.header().extras()).doesNotContainKey("interrupted");
      assertThat(Frames.digest(tape, true)).isEqualTo(r.outDigest());
    }
  }

  /**
   * A stdout line longer than one read of the pipe (64 KiB), written with one write, is one {@code
   * out} frame: the reads it took are not partial writes.
   */
  @Test
  void aJsonLineLongerThanOneReadIsOneOutFrame() {
    Path script =
        Child.script(
            dir,
            "big.py",
            """
        import json, os
        event = {"type": "tool_call", "subtype": "completed",
                 "content": "".join("line %d of the file: ünïcödé ✓ 😀\\n" % i for i in range(30000))}
        line = json.dumps(event, separators=(",", ":"), ensure_ascii=False).encode() + b"\\n"
        view = memoryview(line)
        while view:
            view = view[os.write(1, view):]
        """);

    Child r =
        Child.startHashing(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                tape().toString(),
                "--",
                Child.python3(),
                script.toString()),
            dir,
            Child.noBuild(dir));

    assertThat(r.waitFor()).isZero();
    Tape tape = Frames.read(tape());
    List<String> shapes = new ArrayList<>();
    for (Frame f : tape.frames()) {
      shapes.add(
          f.getClass().getSimpleName()
              + (f instanceof Frame.OutBytes o ? "(" + o.bytes().length + " bytes)" : ""));
    }
    assertThat(shapes).containsExactly("Out", "Exit");
    assertThat(Frames.digest(tape, true)).isEqualTo(r.outDigest());
    assertThat(((Frame.Out) tape.frames().get(0)).json().length()).isGreaterThan(1_000_000);
  }

  /**
   * What a process the command started writes after the command exited is passed through and
   * recorded until it closes the pipe; that process is not killed by a pipe closed under it. The
   * background part of the script waits until the command has exited and been reaped (a zombie
   * still answers {@code kill -0}), then writes twice and leaves a marker.
   */
  @Test
  void outputWrittenAfterTheCommandExitedByAProcessItStartedIsPassedThroughAndRecorded() {
    Path marker = dir.resolve("wrote-all");
    Path script =
        Child.script(
            dir,
            "late.sh",
            """
        #!/bin/sh
        (
          while kill -0 $$ 2>/dev/null; do sleep 0.01; done
          echo 'late'
          echo 'late on stderr' >&2
          sleep 0.2
          echo 'later'
          echo done > wrote-all
        ) &
        echo 'first'
        exit 0
        """);

    Child r = record("record", "--quiet", "--out", tape().toString(), "--", script.toString());

    assertThat(r.waitFor()).as("%s", r.err()).isZero();
    assertThat(r.out()).isEqualTo("first\nlate\nlater\n");
    assertThat(r.err()).isEqualTo("late on stderr\n");
    assertThat(marker).as("the marker written after the last line").exists();
    Tape tape = Frames.read(tape());
    // (stdout and stderr are two pipes: nothing tells which of "late" and its stderr line came
    // first)
    assertThat(Frames.kinds(tape).stream().filter(k -> !k.startsWith("err")))
        .containsExactly("outRaw first\n", "outRaw late\n", "outRaw later\n", "exit 0");
    assertThat(Frames.kinds(tape)).contains("err late on stderr\n");
    assertThat(tape.ending().t()).isGreaterThanOrEqualTo(tape.frames().get(3).t());
  }

  /**
   * A process the command started that keeps its stdout open for good does not keep the recorder:
   * it stops reading once the grace after the command's exit is over, says so, and writes the tape
   * with the command's status.
   */
  @Test
  void aProcessThatKeepsTheOutputOpenDoesNotHoldTheRecorderPastTheGrace() throws IOException {
    Path pidFile = dir.resolve("holder.pid");
    Path script =
        Child.script(
            dir,
            "holder.sh",
            """
        #!/bin/sh
        sleep 3600 &
        echo $! > holder.pid
        echo 'first'
        exit 4
        """);

    try (Child r =
        record(
            "record",
            "--grace",
            "200",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            script.toString())) {
      assertThat(r.waitFor()).as("%s", r.err()).isEqualTo(4);
      assertThat(r.out()).isEqualTo("first\n");
      assertThat(r.err())
          .isEqualTo(
              "agentdouble: record: stopped reading stdout and stderr 200 ms "
                  + "after "
                  + script
                  + " exited: a process it started still holds them open (--grace MS "
                  + "to wait longer)\n");
      assertThat(Frames.kinds(Frames.read(tape()))).containsExactly("outRaw first\n", "exit 4");
    } finally {
      if (Files.exists(pidFile)) {
        ProcessHandle.of(Long.parseLong(Cli.read(pidFile).strip()))
            .ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @Test
  void aGraceThatIsNotANumberOfMillisecondsIsAUsageError() {
    Cli.Result r = Cli.run("record", "--grace", "3s", "--out", tape().toString(), "--", "true");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "agentdouble: --grace must be a number of milliseconds from 0 "
                + "to 86400000, was '3s'\n");
    assertThat(tape()).doesNotExist();
  }

  /**
   * A recorder killed (SIGKILL) while it writes the tape cannot remove its temp file; the next
   * recording in that folder does, and leaves those of recorders still running.
   */
  @Test
  void theTempFileOfAKilledRecorderIsRemovedByTheNextRecordingInItsFolder() throws IOException {
    Path folder = Files.createDirectory(dir.resolve("tapes"));
    Path target = folder.resolve("big.tape.ndjson");
    Path script =
        Child.script(
            dir,
            "many.py",
            """
        import os
        block = b'{"type":"assistant","message":{"role":"assistant","content":"a line"}}\\n' * 1000
        for _ in range(600):
            view = memoryview(block)
            while view:
                view = view[os.write(1, view):]
        """);
    ProcessHandle parent = ProcessHandle.current().parent().orElseThrow();
    // the temp file of a recorder that is running (this JVM's parent stands in for it)
    Path running =
        Cli.write(
            folder,
            ".other.tape.ndjson.agentdouble-"
                + parent.pid()
                + "-"
                + Long.toHexString(parent.info().startInstant().orElseThrow().toEpochMilli())
                + "-1.tmp",
            "being written");
    Path temp;
    try (Child killed =
        Child.startHashing(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                target.toString(),
                "--",
                Child.python3(),
                script.toString()),
            dir,
            Child.noBuild(dir))) {
      Awaitility.await("the recorder's temp file in " + folder)
          .atMost(Child.PATIENCE)
          .pollInterval(Duration.ofMillis(2))
          .until(() -> tempFiles(folder, "big.tape.ndjson").size() == 1);
      temp = tempFiles(folder, "big.tape.ndjson").get(0);
      killed.process().destroyForcibly(); // SIGKILL
      assertThat(killed.waitFor()).isEqualTo(137);
    }
    assertThat(temp).as("what SIGKILL left").exists();
    assertThat(target).doesNotExist();

    Child next =
        record(
            "record",
            "--quiet",
            "--out",
            folder.resolve("next.tape.ndjson").toString(),
            "--",
            "echo",
            "next");

    assertThat(next.waitFor()).as("%s", next.err()).isZero();
    assertThat(temp).doesNotExist();
    assertThat(running).exists();
    assertThat(tempFiles(folder, "")).containsExactly(running);
  }

  /** The temp files in {@code folder} of tapes whose names start with {@code tape}. */
  private static List<Path> tempFiles(Path folder, String tape) throws IOException {
    try (var files = Files.list(folder)) {
      return files
          .filter(
              p ->
                  p.getFileName().toString().startsWith("." + tape)
                      && p.getFileName().toString().endsWith(".tmp"))
          .toList();
    }
  }

  /**
   * A read is kept, with its time, before it is passed on: a caller slow to take stdout (here, one
   * that takes it only once stderr has shown what the command wrote after that stdout was read)
   * cannot move it behind what came later. The command writes on stderr after the recorder has read
   * its stdout line (it waits for its stdin, which the caller gives once stdout is in).
   */
  @Test
  void aReadIsKeptInTheOrderOfReadingWhateverThePassthroughWaitsFor() throws Exception {
    CountDownLatch stdoutRead = new CountDownLatch(1);
    CountDownLatch stderrShown = new CountDownLatch(1);
    // the command's stdin: "go" once the recorder has its stdout line
    InputStream stdin =
        new InputStream() {
          private final byte[] go = "go\n".getBytes(StandardCharsets.UTF_8);
          private int at;

          @Override
          public int read() throws IOException {
            await(stdoutRead);
            return at < go.length ? go[at++] : -1;
          }
        };
    // the caller's stdout takes the line only once stderr was shown
    OutputStream slowStdout =
        new OutputStream() {
          @Override
          public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
          }

          @Override
          public void write(byte[] b, int off, int len) throws IOException {
            stdoutRead.countDown();
            await(stderrShown);
          }
        };
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    OutputStream stderr =
        new OutputStream() {
          @Override
          public void write(int b) {
            errBytes.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            errBytes.write(b, off, len);
            stderrShown.countDown();
          }
        };
    Path script =
        Child.script(
            dir,
            "answer.sh",
            """
        #!/bin/sh
        echo '{"type":"system","subtype":"init"}'
        read go
        echo 'after the init line' >&2
        """);

    int status =
        AgentDoubleCommand.run(
            stdin,
            new PrintStream(slowStdout, true),
            new PrintStream(stderr, true),
            "record",
            "--quiet",
            "--out",
            tape().toString(),
            "--",
            script.toString());

    assertThat(status).as(errBytes.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(Frames.kinds(Frames.read(tape())))
        .containsExactly(
            "out {\"type\":\"system\",\"subtype\":\"init\"}",
            "err after the init line\n",
            "exit 0");
  }

  private static void await(CountDownLatch latch) throws IOException {
    try {
      if (!latch.await(60, TimeUnit.SECONDS)) {
        throw new IOException("not in 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }
}
