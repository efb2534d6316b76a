package dev.agentdouble.examples;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * One process of the CLI: stdin closed, stdout read line by line, stderr drained all the time (so a
 * chatty CLI never blocks on a full pipe), and a deadline after which the whole process tree is
 * killed.
 */
final class CliProcess {
  static final int STDERR_LIMIT = 64 * 1024;

  /** How long a CLI may linger after its output is complete before it is stopped. */
  private static final Duration LINGER = Duration.ofSeconds(2);

  /** How a process ended. {@code lingered}: its output was complete, the client stopped it. */
  record Outcome(int exitCode, boolean timedOut, boolean lingered, String stderr) {}

  private final Process process;
  private final long deadline;
  private final Thread stdout;
  private final Thread stderr;
  private final ByteArrayOutputStream stderrTail = new ByteArrayOutputStream();
  private boolean stderrCut;
  private Outcome outcome;

  private CliProcess(Process process, Duration timeout, Consumer<String> lines) {
    this.process = process;
    this.deadline = System.nanoTime() + timeout.toNanos();
    this.stdout = daemon("cursor-agent-stdout-" + process.pid(), () -> readLines(lines));
    this.stderr = daemon("cursor-agent-stderr-" + process.pid(), this::drainStderr);
  }

  static CliProcess start(
      List<String> command,
      Map<String, String> environment,
      Duration timeout,
      Consumer<String> lines)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    Process process = builder.start();
    // the CLI reads stdin to its end before it starts: give it an empty one
    process.getOutputStream().close();
    CliProcess cli = new CliProcess(process, timeout, lines);
    cli.stdout.start();
    cli.stderr.start();
    return cli;
  }

  long pid() {
    return process.pid();
  }

  /**
   * Waits until the process has ended, at most until the deadline; then kills it. {@code complete}
   * says whether the output read so far is whole, so that a CLI lingering after it may be stopped.
   */
  synchronized Outcome await(BooleanSupplier complete) throws InterruptedException {
    if (outcome != null) {
      return outcome;
    }
    boolean timedOut = false;
    boolean lingered = false;
    stdout.join(Math.max(1, remainingMillis()));
    if (stdout.isAlive()) {
      timedOut = true;
    } else if (!process.waitFor(
        Math.min(LINGER.toMillis(), remainingMillis()), TimeUnit.MILLISECONDS)) {
      if (complete.getAsBoolean()) {
        lingered = true;
      } else if (!process.waitFor(remainingMillis(), TimeUnit.MILLISECONDS)) {
        timedOut = true;
      }
    }
    if (timedOut || lingered) {
      kill();
    }
    process.waitFor(10, TimeUnit.SECONDS);
    stdout.join(5_000);
    stderr.join(5_000);
    outcome =
        new Outcome(process.isAlive() ? -1 : process.exitValue(), timedOut, lingered, stderrText());
    return outcome;
  }

  /** Kills the process and whatever it started. */
  void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  private long remainingMillis() {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
  }

  private void readLines(Consumer<String> lines) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.accept(line);
      }
    } catch (IOException e) {
      // the pipe broke because the process was killed: the output ends here
    }
  }

  private void drainStderr() {
    byte[] buffer = new byte[8192];
    try (InputStream in = process.getErrorStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        synchronized (stderrTail) {
          stderrTail.write(buffer, 0, n);
          if (stderrTail.size() > 2 * STDERR_LIMIT) {
            byte[] all = stderrTail.toByteArray();
            stderrTail.reset();
            stderrTail.write(all, all.length - STDERR_LIMIT, STDERR_LIMIT);
            stderrCut = true;
          }
        }
      }
    } catch (IOException e) {
      // as for stdout
    }
  }

  private String stderrText() {
    synchronized (stderrTail) {
      byte[] all = stderrTail.toByteArray();
      int from = Math.max(0, all.length - STDERR_LIMIT);
      if (stderrCut || from > 0) {
        // start at a whole line
        while (from < all.length && all[from++] != '\n') {
          // skip the cut line
        }
      }
      return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }
}
