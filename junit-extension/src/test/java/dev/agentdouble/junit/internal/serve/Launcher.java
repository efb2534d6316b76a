package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./agentdouble} as a user starts it, in a folder of the test's, with a stand-in {@code mvn}
 * that fails first on PATH: a launcher that finds the build stale fails the test instead of
 * building. Runs after {@code package} (the launcher needs {@code
 * junit-extension/target/classpath.txt}).
 */
final class Launcher {
  private final Path dir;
  private final Path bin;

  private Launcher(Path dir, Path bin) {
    this.dir = dir;
    this.bin = bin;
  }

  /** A launcher working in {@code dir}, with its stand-in {@code mvn} in {@code dir/bin}. */
  static Launcher in(Path dir) throws IOException {
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path mvn = bin.resolve("mvn");
    Files.writeString(
        mvn,
        "#!/bin/sh\necho 'stale build: the launcher tried to build during a "
            + "test' >&2\nexit 1\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    return new Launcher(dir, bin);
  }

  /** {@code ./agentdouble ARGS}, ready to start, without the caller's AGENTDOUBLE_ variables. */
  ProcessBuilder agentdouble(String... args) {
    List<String> command = new ArrayList<>();
    command.add(ServeTest.root().resolve("agentdouble").toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_"));
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    return pb;
  }

  /** The next two lines of {@code out}, read within 60 s (null for each it did not have). */
  static String[] twoLines(BufferedReader out) throws Exception {
    return CompletableFuture.supplyAsync(
            () -> {
              try {
                return new String[] {out.readLine(), out.readLine()};
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            })
        .get(60, TimeUnit.SECONDS);
  }

  /** What a command killed with its parent printed on stderr, and that parent's pid. */
  record Orphaned(long parent, String err) {}

  /**
   * Starts {@code ./agentdouble ARGS} in the background of a shell that waits for it, waits until
   * the command's first stdout line starts with {@code ready}, kills the shell outright (SIGKILL),
   * and returns, once the command has ended (within 30 s, else the test fails), its stderr.
   */
  Orphaned killTheParentOf(String ready, String... args) throws Exception {
    Path err = dir.resolve("orphan.err");
    ProcessBuilder pb = agentdouble(args);
    List<String> command =
        new ArrayList<>(
            List.of("sh", "-c", "\"$0\" \"$@\" 2>'" + err + "' </dev/null & echo $!; wait"));
    command.addAll(pb.command());
    Process parent = pb.command(command).start();
    long child = -1;
    try {
      String[] lines =
          twoLines(
              new BufferedReader(
                  new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8)));
      child = Long.parseLong(lines[0].strip());
      assertThat(lines[1]).startsWith(ready);
      ProcessHandle handle = ProcessHandle.of(child).orElseThrow();

      Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(parent.pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();

      assertThat(handle.onExit().get(30, TimeUnit.SECONDS).isAlive()).isFalse();
      return new Orphaned(parent.pid(), Files.readString(err));
    } finally {
      parent.destroyForcibly();
      if (child > 0) {
        ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /**
   * Starts {@code ./agentdouble ARGS} as a background job of a non-interactive shell ({@code sh -c
   * 'agentdouble ARGS & wait'}), which starts it with SIGINT ignored; waits until the command's
   * first stdout line starts with {@code ready}, sends it SIGINT, and returns its exit status as
   * the shell's {@code wait} tells it, once it has ended (within 30 s, else the test fails).
   */
  int interruptInTheBackground(String ready, String... args) throws Exception {
    ProcessBuilder pb = agentdouble(args);
    List<String> command =
        new ArrayList<>(
            List.of(
                "sh", "-c", "\"$0\" \"$@\" 2>/dev/null & echo $! >&2; wait $!; echo \"exit $?\""));
    command.addAll(pb.command());
    Process shell = pb.command(command).start();
    shell.getOutputStream().close();
    long child = -1;
    try {
      BufferedReader err =
          new BufferedReader(new InputStreamReader(shell.getErrorStream(), StandardCharsets.UTF_8));
      BufferedReader out =
          new BufferedReader(new InputStreamReader(shell.getInputStream(), StandardCharsets.UTF_8));
      child =
          Long.parseLong(
              CompletableFuture.supplyAsync(() -> line(err)).get(60, TimeUnit.SECONDS).strip());
      String first = CompletableFuture.supplyAsync(() -> line(out)).get(60, TimeUnit.SECONDS);
      assertThat(first).startsWith(ready);

      Process kill = new ProcessBuilder("kill", "-INT", Long.toString(child)).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();

      assertThat(shell.waitFor(30, TimeUnit.SECONDS))
          .as("%s ended within 30 s of SIGINT", String.join(" ", args))
          .isTrue();
      String last = null;
      for (String line = line(out); line != null; line = line(out)) {
        last = line;
      }
      assertThat(last).startsWith("exit ");
      return Integer.parseInt(last.substring("exit ".length()));
    } finally {
      shell.destroyForcibly();
      if (child > 0) {
        ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  private static String line(BufferedReader in) {
    try {
      return in.readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
