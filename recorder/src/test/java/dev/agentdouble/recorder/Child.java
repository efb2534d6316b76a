package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * A process a test started through real pipes: its stdout and stderr are collected as they come
 * (kept, or only counted and hashed for floods), its stdin stays open until the test closes it.
 * {@link #close} kills it and its descendants, so a failed test leaves nothing running.
 */
final class Child implements AutoCloseable {
  /**
   * How long a test waits for a process to end; generous, the machine is shared (a 100 MB recording
   * takes more than 90 s on 2 cores at load 20).
   */
  static final Duration PATIENCE = Duration.ofSeconds(240);

  private final List<String> command;
  private final Process process;
  private final Stream out;
  private final Stream err;

  private Child(List<String> command, Process process, boolean keep) {
    this.command = command;
    this.process = process;
    this.out = new Stream(process.getInputStream(), keep, "stdout of " + command.get(0));
    this.err = new Stream(process.getErrorStream(), keep, "stderr of " + command.get(0));
  }

  /** Starts {@code command} in {@code dir} with {@code env} added to the test's environment. */
  static Child start(List<String> command, Path dir, Map<String, String> env) {
    return start(command, dir, env, true);
  }

  /** Like {@link #start}, but keeping only the size and SHA-256 of what the process writes. */
  static Child startHashing(List<String> command, Path dir, Map<String, String> env) {
    return start(command, dir, env, false);
  }

  private static Child start(
      List<String> command, Path dir, Map<String, String> env, boolean keep) {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    // the fake's configuration and the real CLI's credentials come from the test, never the JVM
    pb.environment()
        .keySet()
        .removeIf(k -> k.startsWith("AGENTDOUBLE_") || k.startsWith("CURSOR_"));
    // a machine whose workspaces are trusted, as those of the recorded runs were; the trust
    // gate itself is tested in fake-agent
    pb.environment().put("AGENTDOUBLE_TRUST", "trusted");
    pb.environment().putAll(env);
    try {
      return new Child(List.copyOf(command), pb.start(), keep);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code ./agentdouble ARGS}, the project's launcher, run in {@code dir}. A stand-in {@code mvn}
   * that fails comes first on PATH, so stale jars fail the test instead of starting a build.
   */
  static List<String> agentdouble(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Cli.root().resolve("agentdouble").toString());
    command.addAll(List.of(args));
    return command;
  }

  /** The environment every launcher run gets: PATH with a failing {@code mvn} first. */
  static Map<String, String> noBuild(Path dir) {
    Path bin = dir.resolve(".no-build");
    try {
      Files.createDirectories(bin);
      Path mvn =
          Cli.write(
              bin,
              "mvn",
              "#!/bin/sh\necho 'stale jars: the launcher tried to build "
                  + "during a test' >&2\nexit 1\n");
      executable(mvn);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Map.of("PATH", bin + File.pathSeparator + System.getenv("PATH"));
  }

  /** An executable script {@code name} in {@code dir}. */
  static Path script(Path dir, String name, String text) {
    return executable(Cli.write(dir, name, text));
  }

  /**
   * Makes {@code file} an executable written by a child process: a file this JVM wrote may still be
   * open for writing in a process another test's thread forked meanwhile, and running it would then
   * fail with "Text file busy" (ETXTBSY). The copy's only writer was the child.
   */
  static Path executable(Path file) {
    try {
      Process cp =
          new ProcessBuilder(
                  "/bin/sh",
                  "-c",
                  "cp \"$1\" \"$1.x\" && chmod 755 \"$1.x\" && mv \"$1.x\" \"$1\"",
                  "sh",
                  file.toString())
              .redirectErrorStream(true)
              .start();
      String out = new String(cp.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!cp.waitFor(30, TimeUnit.SECONDS) || cp.exitValue() != 0) {
        throw new IllegalStateException("cannot make " + file + " executable: " + out);
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The {@code python3} on PATH; the test is skipped (not failed) without one. */
  static String python3() {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, "python3"))) {
        return Path.of(d, "python3").toString();
      }
    }
    Assumptions.abort("no python3 on PATH");
    return null;
  }

  long pid() {
    return process.pid();
  }

  Process process() {
    return process;
  }

  /**
   * Sends SIGTERM. Not {@link Process#destroy()}: that also closes this side of the pipes, and the
   * test would stop seeing what the process writes afterwards.
   */
  void terminate() {
    process.toHandle().destroy();
  }

  OutputStream stdin() {
    return process.getOutputStream();
  }

  void closeStdin() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until stdout holds {@code text}, at most {@link #PATIENCE}. */
  void awaitOut(String text) {
    Awaitility.await("\"" + text + "\" on the stdout of " + command)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> out().contains(text) || (!process.isAlive() && out.done()));
    assertThat(out()).as("stdout of %s (stderr: %s)", command, err()).contains(text);
  }

  /** Waits until stderr holds {@code text}, at most {@link #PATIENCE}. */
  void awaitErr(String text) {
    Awaitility.await("\"" + text + "\" on the stderr of " + command)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> err().contains(text) || (!process.isAlive() && err.done()));
    assertThat(err()).as("stderr of %s (stdout: %s)", command, out()).contains(text);
  }

  /** Waits until the process has written {@code outBytes} and {@code errBytes} bytes. */
  void awaitBytes(int outBytes, int errBytes) {
    Awaitility.await(
            outBytes + " bytes on the stdout and " + errBytes + " on the stderr of " + command)
        .atMost(PATIENCE)
        .pollInterval(Duration.ofMillis(20))
        .until(
            () ->
                (out.count() >= outBytes && err.count() >= errBytes)
                    || (!process.isAlive() && out.done() && err.done()));
    assertThat(new long[] {out.count(), err.count()})
        .as("bytes on stdout, stderr of %s", command)
        .containsExactly(outBytes, errBytes);
  }

  /**
   * Writes {@code line} and a newline on the process's stdin: to let a script that waits for the
   * test (having seen what it wrote) go on.
   */
  void send(String line) {
    try {
      process.getOutputStream().write((line + "\n").getBytes(StandardCharsets.UTF_8));
      process.getOutputStream().flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits for the process to end and its streams to be read to the end; returns its status. */
  int waitFor() {
    return waitFor(PATIENCE);
  }

  /** {@link #waitFor()}, failing after {@code patience}. */
  int waitFor(Duration patience) {
    closeStdinQuietly();
    try {
      if (!process.waitFor(patience.toSeconds(), TimeUnit.SECONDS)) {
        String state = "stdout so far: " + out.sofar() + "\nstderr so far: " + err.sofar();
        close();
        throw new AssertionError(
            command + " did not end within " + patience.toSeconds() + " s\n" + state);
      }
      out.join();
      err.join();
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private void closeStdinQuietly() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // already closed, or the process is gone
    }
  }

  byte[] stdout() {
    return out.bytes();
  }

  byte[] stderr() {
    return err.bytes();
  }

  String out() {
    return new String(out.bytes(), StandardCharsets.UTF_8);
  }

  String err() {
    return new String(err.bytes(), StandardCharsets.UTF_8);
  }

  /** Size and SHA-256 of stdout: {@code "N bytes, sha256 HEX"}. */
  String outDigest() {
    return out.digest();
  }

  String errDigest() {
    return err.digest();
  }

  @Override
  public void close() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /** {@code "N bytes, sha256 HEX"} of {@code bytes} repeated {@code times} times. */
  static String digest(byte[] bytes, int times) {
    MessageDigest md = sha256();
    for (int i = 0; i < times; i++) {
      md.update(bytes);
    }
    return (long) bytes.length * times + " bytes, sha256 " + HexFormat.of().formatHex(md.digest());
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 2000
        ? s
        : s.substring(0, 1000) + " [...] " + s.substring(s.length() - 1000);
  }

  @Override
  public String toString() {
    return String.join(" ", command);
  }

  /** One of the process's output streams, read to its end on a thread of its own. */
  private static final class Stream {
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private final boolean keep;
    private final MessageDigest md = sha256();
    private long count;
    private final Thread thread;
    private volatile boolean done;
    private String digest;

    Stream(InputStream in, boolean keep, String name) {
      this.keep = keep;
      this.thread =
          new Thread(
              () -> {
                byte[] buf = new byte[65536];
                try (in) {
                  int n;
                  while ((n = in.read(buf)) != -1) {
                    synchronized (this) {
                      count += n;
                      md.update(buf, 0, n);
                      if (keep) {
                        kept.write(buf, 0, n);
                      }
                    }
                  }
                } catch (IOException e) {
                  // the process went away
                } finally {
                  done = true;
                }
              },
              name);
      thread.setDaemon(true);
      thread.start();
    }

    boolean done() {
      return done;
    }

    synchronized long count() {
      return count;
    }

    /** What was read so far, abbreviated; only its size for a stream that is only hashed. */
    synchronized String sofar() {
      if (!keep) {
        return count + " bytes";
      }
      return abbreviate(new String(kept.toByteArray(), StandardCharsets.UTF_8));
    }

    void join() throws InterruptedException {
      thread.join(TimeUnit.SECONDS.toMillis(30));
    }

    synchronized byte[] bytes() {
      if (!keep) {
        throw new IllegalStateException("this stream is only hashed");
      }
      return kept.toByteArray();
    }

    synchronized String digest() {
      if (!done) {
        throw new IllegalStateException("read the stream to its end first (waitFor)");
      }
      if (digest == null) {
        digest = count + " bytes, sha256 " + HexFormat.of().formatHex(md.digest());
      }
      return digest;
    }
  }
}
