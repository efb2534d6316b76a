package dev.agentdouble.junit;

import java.io.ByteArrayOutputStream;
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

/** Runs an executable as the code under test would, with a bounded wait. */
final class Runs {
  record Result(String out, String err, int exit) {}

  private Runs() {}

  static Result run(Path executable, String... args) {
    return run(executable, Map.of(), args);
  }

  static Result run(Path executable, Map<String, String> env, String... args) {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(List.of(args));
    try {
      ProcessBuilder pb = new ProcessBuilder(command);
      pb.environment().putAll(env);
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      Process p = pb.start();
      CompletableFuture<String> out = drain(p.getInputStream());
      CompletableFuture<String> err = drain(p.getErrorStream());
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("no exit within 30s: " + command);
      }
      return new Result(out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS), p.exitValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static CompletableFuture<String> drain(InputStream in) {
    return CompletableFuture.supplyAsync(() -> {
      try (in) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }
}
