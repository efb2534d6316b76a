package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentdouble.script.Script;
import java.io.BufferedReader;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A run never outlives whom it runs for: when the process that started it dies (SIGKILL, so it can
 * clean nothing up), or the owner named in {@code AGENTDOUBLE_OWNER_PID}, a run still waiting — in
 * a hang, at a gate, in a long pause, lingering after its result, reading stdin — ends by SIGHUP,
 * within 2 s by design (the time each took is printed; no test asserts a wall-clock figure).
 * Through the real launcher, with real processes and signals.
 */
@Timeout(120)
class LifetimeTest {
  /** How long a test waits for an orphan to end: far more than the 2 s the design gives it. */
  static final Duration BOUND = Duration.ofSeconds(20);

  @TempDir Path dir;

  /** What the run is doing when its parent or owner dies, and how a test knows it got there. */
  enum Wait {
    HANG,
    GATE,
    PAUSE,
    LINGER,
    STDIN;

    Script script() {
      Script s = Script.of("say hi").init();
      return switch (this) {
        case HANG -> s.hang();
        case GATE -> s.gate("held").result("Hi!").exit(0);
        case PAUSE -> s.pause(600_000).result("Hi!").exit(0);
        case LINGER -> s.result("Hi!").exit(0);
        case STDIN -> s.result("Hi!").exit(0);
      };
    }

    /** STDIN reads its prompt from stdin, which stays open; the others have it in argv. */
    List<String> args() {
      return this == STDIN
          ? List.of("-p", "--output-format", "stream-json")
          : List.of("-p", "--output-format", "stream-json", "say hi");
    }

    /** Whether stdin stays an open pipe (else /dev/null). */
    boolean stdinOpen() {
      return this == LINGER || this == STDIN;
    }
  }

  private Map<String, String> fakeEnv(Wait wait) throws IOException {
    Path tape = dir.resolve(wait + ".tape.ndjson");
    wait.script().build().write(tape);
    Path gates = Files.createDirectories(dir.resolve("gates"));
    return env(
        "AGENTDOUBLE_TAPE",
        tape.toString(),
        "AGENTDOUBLE_TIMING",
        wait == Wait.PAUSE ? "recorded" : "fast",
        "AGENTDOUBLE_GATES",
        gates.toString());
  }

  /** Waits until the run is where {@code wait} says (so it has read its parent at start). */
  private void awaitWaiting(Wait wait, long pid, Path out) {
    await()
        .atMost(FakeProcess.TIMEOUT)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () ->
                switch (wait) {
                  case HANG, PAUSE -> lines(out) >= 1;
                  case LINGER ->
                      Files.exists(out) && Files.readString(out).contains("\"type\":\"result\"");
                  case GATE -> Files.exists(dir.resolve("gates/held.reached"));
                  case STDIN -> readingAPipe(pid);
                });
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Wait.class)
  void aRunWhoseParentIsKilledEnds(Wait wait) throws Exception {
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    // stdin: a FIFO this test holds open (a pipe from this JVM would be closed by the JVM as soon
    // as the parent it started exits), or /dev/null
    Path stdin = Path.of("/dev/null");
    if (wait.stdinOpen()) {
      stdin = dir.resolve("stdin");
      assertThat(new ProcessBuilder("mkfifo", stdin.toString()).start().waitFor()).isZero();
    }
    // the parent: a shell that starts the fake in the background and waits for it
    List<String> command =
        new ArrayList<>(
            List.of(
                "sh",
                "-c",
                "\"$0\" \"$@\" <'" + stdin + "' >'" + out + "' 2>'" + err + "' & echo $!; wait",
                FakeProcess.launcher().toString()));
    command.addAll(wait.args());
    ProcessBuilder pb = FakeProcess.builder(FakeProcess.launcher(), fakeEnv(wait), List.of());
    pb.command(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process parent = pb.start();
    // opening a FIFO waits for its reader: the fake, whose stdin stays open as long as this
    OutputStream writer =
        wait.stdinOpen() ? new FileOutputStream(stdin.toFile()) : OutputStream.nullOutputStream();
    long pid = -1;
    try {
      pid = Long.parseLong(firstLine(parent));
      awaitWaiting(wait, pid, out);
      String start = startTime(pid);

      sigkill(parent.pid()); // the parent cleans nothing up
      assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
      long killed = System.nanoTime();
      long fake = pid;
      await().atMost(BOUND).pollInterval(Duration.ofMillis(10)).until(() -> ended(fake, start));
      long ms = (System.nanoTime() - killed) / 1_000_000;
      System.out.println("orphan exit (" + wait + ", parent killed): " + ms + " ms");

      assertThat(Files.readString(err))
          .isEqualTo(
              "agentdouble: the process that started this run ("
                  + parent.pid()
                  + ") has ended: ending the run by SIGHUP\n");
    } finally {
      writer.close();
      FakeProcess.kill(parent);
      if (pid > 0) {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Wait.class)
  void aRunWhoseOwnerIsKilledEndsBySighupThoughItsParentLives(Wait wait) throws Exception {
    Process owner = new ProcessBuilder("sleep", "600").start();
    Map<String, String> env = fakeEnv(wait);
    env.put("AGENTDOUBLE_OWNER_PID", Long.toString(owner.pid()));
    Path out = dir.resolve("out");
    ProcessBuilder pb =
        FakeProcess.builder(FakeProcess.launcher(), env, wait.args()).redirectOutput(out.toFile());
    if (!wait.stdinOpen()) {
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    }
    Process fake = pb.start();
    try {
      var stderr = FakeProcess.drain(fake.getErrorStream());
      awaitWaiting(wait, fake.pid(), out);

      sigkill(owner.pid());
      long killed = System.nanoTime();
      assertThat(fake.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("ended").isTrue();
      long ms = (System.nanoTime() - killed) / 1_000_000;
      System.out.println("orphan exit (" + wait + ", owner killed): " + ms + " ms");

      assertThat(fake.exitValue()).as("death by SIGHUP").isEqualTo(129);
      assertThat(new String(stderr.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8))
          .isEqualTo(
              "agentdouble: the owner of this run (AGENTDOUBLE_OWNER_PID="
                  + owner.pid()
                  + ") has ended: ending the run by SIGHUP\n");
    } finally {
      fake.getOutputStream().close();
      FakeProcess.kill(fake);
      owner.destroyForcibly();
    }
  }

  /**
   * A claude {@code --input-format stream-json} session waits on stdin between turns, as an ACP
   * agent does: its owner's death ends it too, by SIGHUP.
   */
  @Test
  void aClaudeStdinSessionWhoseOwnerIsKilledEndsBySighup() throws Exception {
    Process owner = new ProcessBuilder("sleep", "600").start();
    Map<String, String> env =
        env(
            "AGENTDOUBLE_TAPE",
            "builtin:claude-answer",
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_OWNER_PID",
            Long.toString(owner.pid()));
    ProcessBuilder pb =
        FakeProcess.builder(
            ClaudeArgvTest.claude(),
            env,
            List.of(
                "--output-format", "stream-json", "--verbose", "--input-format", "stream-json"));
    Process fake = pb.start();
    try {
      var stderr = FakeProcess.drain(fake.getErrorStream());
      FakeProcess.drain(fake.getInputStream());
      await()
          .atMost(FakeProcess.TIMEOUT)
          .pollInterval(Duration.ofMillis(20))
          .until(() -> readingAPipe(fake.pid()));

      sigkill(owner.pid());
      assertThat(fake.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)).as("ended").isTrue();

      assertThat(fake.exitValue()).as("death by SIGHUP").isEqualTo(129);
      assertThat(new String(stderr.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8))
          .isEqualTo(
              "agentdouble: the owner of this run (AGENTDOUBLE_OWNER_PID="
                  + owner.pid()
                  + ") has ended: ending the run by SIGHUP\n");
    } finally {
      fake.getOutputStream().close();
      FakeProcess.kill(fake);
      owner.destroyForcibly();
    }
  }

  @Test
  void anOwnerThatIsNotAProcessIdIsAnError() {
    FakeProcess.Result r =
        FakeProcess.run(
            env(
                "AGENTDOUBLE_TAPE",
                "builtin:documented-minimal",
                "AGENTDOUBLE_OWNER_PID",
                "the test"),
            "-p",
            "say hi");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: AGENTDOUBLE_OWNER_PID=the test: use the process id "
                + "of the process the run belongs to, e.g. 4242\n");
  }

  /**
   * Sends SIGKILL through kill(1): {@link Process#destroyForcibly()} would also close this side's
   * ends of the pipes, and a run reading stdin would end by that instead.
   */
  static void sigkill(long pid) throws IOException, InterruptedException {
    Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(pid)).start();
    assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  private static String firstLine(Process p) throws IOException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII));
    String line = reader.readLine();
    assertThat(line).as("the background job's pid").isNotNull();
    return line.strip();
  }

  private static long lines(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    }
  }

  /** Whether a thread of {@code pid} is blocked reading a pipe: stdin, the fake has no other. */
  private static boolean readingAPipe(long pid) throws IOException {
    try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
      return tasks.anyMatch(
          task -> {
            try {
              return Files.readString(task.resolve("wchan")).contains("pipe_read");
            } catch (IOException e) {
              return false;
            }
          });
    }
  }

  /** Field 22 of {@code /proc/PID/stat}: tells this process from a later one with its id. */
  private static String startTime(long pid) {
    return stat(pid)[19];
  }

  /** The fields after the command, or an empty array when the process is gone. */
  private static String[] stat(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    } catch (NoSuchFileException e) {
      return new String[0];
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Gone, a zombie nobody has reaped yet, or its id taken by another process. */
  private static boolean ended(long pid, String start) {
    String[] stat = stat(pid);
    return stat.length == 0 || stat[0].equals("Z") || !stat[19].equals(start);
  }
}
