package dev.agentdouble.junit;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs an executable as the code under test would, stdin from /dev/null, with a bounded wait. Used
 * by the tests of this package and of {@code internal}.
 */
public final class Runs {
  /** What the run wrote and how it ended. */
  public record Result(String out, String err, int exit) {}

  private Runs() {}

  static Result run(Path executable, String... args) {
    return run(executable, Map.of(), args);
  }

  static Result run(Path executable, Map<String, String> env, String... args) {
    return run(executable, env, 30, args);
  }

  /**
   * Runs {@code executable} with {@code env} added to the test's environment; variables the test
   * JVM may have inherited that configure the fake ({@code AGENTDOUBLE_*}) are removed first.
   */
  public static Result run(Path executable, Map<String, String> env, int seconds, String... args) {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(List.of(args));
    try {
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_"));
      pb.environment().putAll(env);
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Process p = pb.start();
      CompletableFuture<String> out = drain(p.getInputStream());
      CompletableFuture<String> err = drain(p.getErrorStream());
      if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("no exit within " + seconds + "s: " + command);
      }
      return new Result(
          out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS), p.exitValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** What {@code in} gives until its end, read on another thread. */
  public static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toString(StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
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
}
