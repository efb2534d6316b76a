package dev.agentdouble.junit.internal.process;

import dev.agentdouble.contract.Launch;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes the fakes' shim scripts through one child {@code sh}, started on first use and kept until
 * {@link #close()} (or the JVM's end: its stdin closes, and it exits), so a test pays a few writes
 * to a pipe, not a process.
 *
 * <p>A script is never written through a file descriptor of this JVM: a process another thread
 * forks while this JVM holds a script open for writing inherits that descriptor until it execs, and
 * executing the script meanwhile fails with "Text file busy" (ETXTBSY). Tests run in parallel start
 * processes all the time. The {@code sh} writes with its {@code printf} builtin (it forks nothing,
 * so no other process ever holds the file open) and says {@code ok} when the files are closed; its
 * files are the owner's only from the start ({@code umask 077}). Thread-safe: one write at a time.
 */
public final class ShimWriter implements AutoCloseable {
  /** The longest a write may take before the {@code sh} is taken for stuck, and ended. */
  static final long TIMEOUT_MS = 30_000;

  private static final String OK = "agentdouble-shim-writer: ok";
  private static final String FAILED = "agentdouble-shim-writer: failed";

  // guarded by this
  private Process sh;
  private boolean closed;

  /** Writes {@code script} into each of {@code files}, created or replaced, mode rw-------. */
  public synchronized void write(List<Path> files, String script) throws IOException {
    if (closed) {
      throw new IOException("the shim writer is closed: the tests' JVM is ending");
    }
    StringBuilder command = new StringBuilder("{ :");
    for (Path file : files) {
      command
          .append(" && printf '%s' ")
          .append(Launch.quote(script))
          .append(" > ")
          .append(Launch.quote(file.toString()));
    }
    command.append("; } && echo '").append(OK).append("' || echo '").append(FAILED).append("'\n");
    byte[] bytes = command.toString().getBytes(StandardCharsets.UTF_8);
    try {
      send(bytes);
    } catch (IOException e) {
      // the sh ended (killed, or a write of its own broke it): one more, new
      stop();
      send(bytes);
    }
  }

  /** Sends {@code command} to the {@code sh} (started when there is none) and awaits its answer. */
  private void send(byte[] command) throws IOException {
    if (sh == null || !sh.isAlive()) {
      sh = start();
    }
    OutputStream in = sh.getOutputStream();
    in.write(command);
    in.flush();
    String said = answer(sh.getInputStream());
    if (!said.endsWith(OK)) {
      String why =
          said.endsWith(FAILED) ? said.substring(0, said.length() - FAILED.length()) : said;
      throw new IOException(
          "cannot write the shim scripts"
              + (why.isBlank() ? "" : ": " + why.strip())
              + "; is the fake's folder writable, the disk not full?");
    }
  }

  private static Process start() throws IOException {
    Process sh = new ProcessBuilder("/bin/sh").redirectErrorStream(true).start();
    sh.getOutputStream().write("umask 077\n".getBytes(StandardCharsets.US_ASCII));
    return sh;
  }

  /**
   * What the {@code sh} says up to its answer line, within {@link #TIMEOUT_MS}: the bytes are taken
   * as they are there, so a stuck {@code sh} never blocks the test; it is ended instead.
   */
  private String answer(InputStream out) throws IOException {
    ByteArrayOutputStream said = new ByteArrayOutputStream();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
    long pause = 10_000; // ns: the answer comes in well under a millisecond
    while (true) {
      int n = out.available();
      if (n > 0) {
        byte[] buf = new byte[n];
        int got = out.read(buf);
        said.write(buf, 0, Math.max(got, 0));
        String text = said.toString(StandardCharsets.UTF_8);
        if (text.endsWith(OK + "\n") || text.endsWith(FAILED + "\n")) {
          return text.substring(0, text.length() - 1);
        }
        continue;
      }
      if (!sh.isAlive()) {
        throw new IOException("the shim writer's sh ended (exit " + sh.exitValue() + ")");
      }
      if (System.nanoTime() - deadline > 0) {
        sh.destroyForcibly();
        throw new IOException("writing the shims took over " + TIMEOUT_MS / 1000 + " s");
      }
      LockSupport.parkNanos(pause);
      pause = Math.min(pause * 2, 1_000_000);
    }
  }

  /** The pid of the {@code sh} writing now, if one runs (for tests). */
  synchronized OptionalLong pid() {
    return sh != null && sh.isAlive() ? OptionalLong.of(sh.pid()) : OptionalLong.empty();
  }

  private void stop() {
    if (sh != null) {
      try {
        sh.getOutputStream().close(); // its stdin ends: it exits
      } catch (IOException e) {
        // gone already
      }
      try {
        if (!sh.waitFor(1, TimeUnit.SECONDS)) {
          sh.destroyForcibly();
        }
      } catch (InterruptedException e) {
        sh.destroyForcibly();
        Thread.currentThread().interrupt();
      }
      sh = null;
    }
  }

  /** Ends the {@code sh}; later writes fail. */
  @Override
  public synchronized void close() {
    closed = true;
    stop();
  }
}
