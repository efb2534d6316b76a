package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.script.ClaudeScript;
import dev.agentdouble.script.Script;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Signals sent to the fake in the middle of a run, through the real launcher, as the 2026.10 CLI
 * takes them: SIGINT aborts (stderr {@code Aborting operation...}, exit 130), SIGTERM kills
 * silently (143); and a tape's own {@code kill} ending, a real death by its signal.
 *
 * <p>How the process ended is told by a perl parent ({@code $?}: the signal that killed the child,
 * or its exit status), since Java reports both as one number. The parent also gives SIGINT back its
 * default action first: a process started with SIGINT ignored (a background job of a
 * non-interactive shell) keeps it ignored in a JVM, and the test must not depend on how the build
 * was started.
 */
@Timeout(120)
class SignalsTest {
  /** Runs its arguments with SIGINT at its default action; writes "SIGNAL STATUS" to a file. */
  // SIGINT and SIGHUP back to their defaults for the fake: a build started in the background (no
  // job control: SIGINT ignored) or under nohup (SIGHUP ignored) passes an ignored signal on, and a
  // process that starts with a signal ignored cannot die by it
  static final String PERL_PARENT =
      "$SIG{INT} = 'DEFAULT'; $SIG{HUP} = 'DEFAULT'; my $file = shift;"
          + " system(@ARGV); open(my $o, '>', $file) or die; print $o ($? & 127), ' ', ($? >> 8);"
          + " close($o);";

  @TempDir Path dir;

  /** A run that writes its init event, then nothing for a minute: held mid-stream. */
  private Path heldMidStream() throws IOException {
    Path tape = dir.resolve("held.tape.ndjson");
    Script.of("say hi").init().pause(60_000).result("Hi!").exit(0).build().write(tape);
    return tape;
  }

  /** A run that writes its init event and hangs. */
  private Path hanging() throws IOException {
    Path tape = dir.resolve("hang.tape.ndjson");
    Script.of("say hi").init().hang().build().write(tape);
    return tape;
  }

  @Test
  void sigintMidStreamCutsTheStreamSaysAbortingAndExits130() throws Exception {
    Watched run = Watched.start(dir, heldMidStream());

    assertAbortedMidStreamBySigint(run);
  }

  @Test
  void theFakeClaudeTakesSigintMidStreamAsTheFirstCliDoes() throws Exception {
    // not Claude Code's answer (it writes the run's interruption and exits 0): docs/claude.md, "Not
    // modelled"; what the handler says is asked of the program's CLI before argv is read
    Path tape = dir.resolve("claude-held.tape.ndjson");
    ClaudeScript.of("say hi").init().pause(60_000).text("Hi!").result().exit(0).build().write(tape);
    Watched run =
        Watched.start(
            dir,
            FakeProcess.root().resolve("fake-agent/bin/claude"),
            tape,
            List.of("-p", "--output-format", "stream-json", "--verbose", "say hi"),
            PERL_PARENT);

    assertAbortedMidStreamBySigint(run);
  }

  /** SIGINT once the init line is out: the stream cut there, the CLI's words, exit 130. */
  private static void assertAbortedMidStreamBySigint(Watched run) throws Exception {
    String first = run.awaitFirstLine();
    run.signal("INT");

    assertThat(first).contains("\"subtype\":\"init\"");
    assertThat(run.stdout()).as("stdout after SIGINT").isEqualTo(first);
    assertThat(run.stderr()).isEqualTo("Aborting operation...\n");
    assertThat(run.ending()).as("no signal, exit status 130").isEqualTo("0 130");
  }

  @Test
  void sigintAbortsARunStartedWithSigintIgnoredAsTheCliOnNodeDoes() throws Exception {
    // a background job of a non-interactive shell starts so; Node resets it, so must the fake
    Watched run =
        Watched.start(
            dir,
            heldMidStream(),
            PERL_PARENT.replace("$SIG{INT} = 'DEFAULT'", "$SIG{INT} = 'IGNORE'"));

    String first = run.awaitFirstLine();
    run.signal("INT");

    assertThat(first).contains("\"subtype\":\"init\"");
    assertThat(run.stderr()).isEqualTo("Aborting operation...\n");
    assertThat(run.ending()).as("no signal, exit status 130").isEqualTo("0 130");
  }

  @Test
  void sigintOnAHangingRunAbortsItToo() throws Exception {
    Watched run = Watched.start(dir, hanging());

    run.awaitFirstLine();
    run.signal("INT");

    assertThat(run.stderr()).isEqualTo("Aborting operation...\n");
    assertThat(run.ending()).isEqualTo("0 130");
  }

  @Test
  void sigtermMidStreamCutsTheStreamSilentlyAndDiesBySigterm() throws Exception {
    Watched run = Watched.start(dir, heldMidStream());

    String first = run.awaitFirstLine();
    run.signal("TERM");

    assertThat(run.stdout()).as("stdout after SIGTERM").isEqualTo(first);
    assertThat(run.stderr()).isEmpty();
    assertThat(run.ending()).as("killed by signal 15").isEqualTo("15 0");
  }

  @Test
  void sigtermOnAHangingRunKillsIt() throws Exception {
    Watched run = Watched.start(dir, hanging());

    run.awaitFirstLine();
    run.signal("TERM");

    assertThat(run.stderr()).isEmpty();
    assertThat(run.ending()).isEqualTo("15 0");
  }

  @Test
  void sigquitKeepsStdoutDataOnly() throws Exception {
    // the JVM keeps SIGQUIT and answers it with a thread dump; the launcher sends that to stderr
    Watched run = Watched.start(dir, heldMidStream());

    String first = run.awaitFirstLine();
    run.signal("QUIT");
    run.err.awaitText("Full thread dump");
    run.signal("TERM");

    assertThat(run.stdout()).isEqualTo(first);
    assertThat(run.ending()).isEqualTo("15 0");
  }

  @Test
  void javaSeesExitValue143AfterSigtermMidStream() throws Exception {
    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env(
                    "AGENTDOUBLE_TAPE",
                    heldMidStream().toString(),
                    "AGENTDOUBLE_TIMING",
                    "recorded"),
                List.of("-p", "--output-format", "stream-json", "say hi"))
            .start();
    try {
      p.getOutputStream().close();
      Lines out = new Lines(p.getInputStream());
      CompletableFuture<byte[]> err = FakeProcess.drain(p.getErrorStream());
      String first = out.awaitFirstLine();

      // kill(1), not Process.destroy(): destroy also closes our ends of the pipes
      Process kill = new ProcessBuilder("kill", "-s", "TERM", Long.toString(p.pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();

      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("ended after SIGTERM").isTrue();
      assertThat(p.exitValue()).isEqualTo(143);
      assertThat(out.all()).isEqualTo(first);
      assertThat(err.get(10, TimeUnit.SECONDS)).isEmpty();
    } finally {
      FakeProcess.kill(p);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "SIGINT, 2 0",
    "SIGTERM, 15 0",
    "SIGHUP, 1 0",
    "SIGPIPE, 13 0",
    "SIGKILL, 9 0",
    "SIGQUIT, 0 131"
  })
  void aTapesKillEndingDiesByItsSignal(String signal, String ending) throws Exception {
    Path tape = dir.resolve("kill.tape.ndjson");
    Script.of("say hi").init().kill(signal).build().write(tape);
    Path status = dir.resolve("status");
    ProcessBuilder pb =
        FakeProcess.builder(
            FakeProcess.launcher(),
            env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
            List.of("-p", "--output-format", "stream-json", "say hi"));
    pb.command().addAll(0, List.of("perl", "-e", PERL_PARENT, status.toString()));

    Process p = pb.start();
    p.getOutputStream().close();
    CompletableFuture<byte[]> out = FakeProcess.drain(p.getInputStream());
    CompletableFuture<byte[]> err = FakeProcess.drain(p.getErrorStream());
    try {
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("ended").isTrue();
    } finally {
      FakeProcess.kill(p);
    }

    assertThat(err.get(10, TimeUnit.SECONDS)).as("stderr").isEmpty();
    assertThat(new String(out.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8))
        .contains("\"subtype\":\"init\"");
    // SIGQUIT is the JVM's: the fake exits with the status a shell would show for the death
    assertThat(Files.readString(status)).as("signal and exit status").isEqualTo(ending);
  }

  /** The fake under a perl parent, its stdout read line by line as it comes. */
  private record Watched(Process perl, Lines out, Lines err, Path status) {
    static Watched start(Path dir, Path tape) throws IOException {
      return start(dir, tape, PERL_PARENT);
    }

    static Watched start(Path dir, Path tape, String parent) throws IOException {
      return start(
          dir,
          FakeProcess.launcher(),
          tape,
          List.of("-p", "--output-format", "stream-json", "say hi"),
          parent);
    }

    static Watched start(Path dir, Path launcher, Path tape, List<String> args, String parent)
        throws IOException {
      Path status = dir.resolve("status");
      ProcessBuilder pb =
          FakeProcess.builder(
              launcher,
              env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "recorded"),
              args);
      pb.command().addAll(0, List.of("perl", "-e", parent, status.toString()));
      Process perl = pb.start();
      perl.getOutputStream().close();
      return new Watched(
          perl, new Lines(perl.getInputStream()), new Lines(perl.getErrorStream()), status);
    }

    String awaitFirstLine() throws InterruptedException {
      try {
        return out.awaitFirstLine();
      } catch (AssertionError e) {
        FakeProcess.kill(perl);
        throw e;
      }
    }

    /** Sends {@code SIG<name>} to the fake (perl's child: the launcher execs the JVM). */
    void signal(String name) throws Exception {
      List<ProcessHandle> children = perl.children().toList();
      assertThat(children).as("the fake under perl").hasSize(1);
      Process kill =
          new ProcessBuilder("kill", "-s", name, Long.toString(children.get(0).pid()))
              .inheritIO()
              .start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(kill.exitValue()).as("kill -s %s", name).isZero();
    }

    String stdout() throws Exception {
      awaitEnd();
      return out.all();
    }

    String stderr() throws Exception {
      awaitEnd();
      return err.all();
    }

    /** How the fake ended: "SIGNAL STATUS", as perl's {@code $?} tells. */
    String ending() throws Exception {
      awaitEnd();
      return Files.readString(status);
    }

    private void awaitEnd() throws InterruptedException {
      if (!perl.waitFor(30, TimeUnit.SECONDS)) {
        FakeProcess.kill(perl);
        throw new AssertionError("the fake did not end within 30 s of the signal");
      }
    }
  }

  /**
   * A stream read on its own thread; the first line, or some text, can be awaited, and the whole at
   * its end.
   */
  private static final class Lines {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final CountDownLatch firstLine = new CountDownLatch(1);
    private final CompletableFuture<String> all = new CompletableFuture<>();
    private boolean ended;

    Lines(InputStream in) {
      Thread thread = new Thread(() -> read(in), "stdout");
      thread.setDaemon(true);
      thread.start();
    }

    private void read(InputStream in) {
      byte[] buf = new byte[8192];
      try (in) {
        int n;
        while ((n = in.read(buf)) > 0) {
          synchronized (bytes) {
            bytes.write(buf, 0, n);
            bytes.notifyAll();
          }
          for (int i = 0; i < n; i++) {
            if (buf[i] == '\n') {
              firstLine.countDown();
            }
          }
        }
        firstLine.countDown();
        all.complete(text());
      } catch (IOException e) {
        firstLine.countDown();
        all.completeExceptionally(new UncheckedIOException(e));
      } finally {
        synchronized (bytes) {
          ended = true;
          bytes.notifyAll();
        }
      }
    }

    /** Waits until {@code text} has arrived (within 30 s), or fails saying what did. */
    void awaitText(String text) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      synchronized (bytes) {
        while (!bytes.toString(StandardCharsets.UTF_8).contains(text)) {
          long left = deadline - System.nanoTime();
          if (ended || left <= 0) {
            throw new AssertionError(
                "no \""
                    + text
                    + "\" within 30 s; so far: "
                    + bytes.toString(StandardCharsets.UTF_8));
          }
          TimeUnit.NANOSECONDS.timedWait(bytes, left);
        }
      }
    }

    private String text() {
      synchronized (bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
      }
    }

    /** The first line with its newline, once it has arrived (within 30 s). */
    String awaitFirstLine() throws InterruptedException {
      if (!firstLine.await(30, TimeUnit.SECONDS)) {
        throw new AssertionError("no stdout line within 30 s; so far: " + text());
      }
      String text = text();
      int end = text.indexOf('\n');
      if (end < 0) {
        throw new AssertionError("stdout ended without a line: " + text);
      }
      return text.substring(0, end + 1);
    }

    /** Everything, once the stream has ended (within 30 s). */
    String all() throws Exception {
      return all.get(30, TimeUnit.SECONDS);
    }
  }
}
