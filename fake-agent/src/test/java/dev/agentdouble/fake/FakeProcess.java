package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the real launcher through real pipes, with a bounded wait. */
final class FakeProcess {
  static final Duration TIMEOUT = Duration.ofSeconds(30);

  record Result(byte[] stdout, byte[] stderr, int exit) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }

    String err() {
      return new String(stderr, StandardCharsets.UTF_8);
    }
  }

  private FakeProcess() {}

  static Path root() {
    return Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();
  }

  static Path launcher() {
    return root().resolve("fake-agent/bin/cursor-agent");
  }

  /** Shared conformance corpus, if present beside the project. */
  static Path shared() {
    return Path.of(System.getProperty("agentdouble.shared", root().resolve("../shared").toString()))
        .toAbsolutePath()
        .normalize();
  }

  /** Builds a process running the launcher with a clean AGENTDOUBLE_* environment. */
  static ProcessBuilder builder(Path launcher, Map<String, String> env, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment()
        .keySet()
        .removeIf(k -> k.startsWith("AGENTDOUBLE_") || k.startsWith("CURSOR_"));
    pb.environment().putAll(env);
    return pb;
  }

  static Result run(Map<String, String> env, String... args) {
    return run(launcher(), env, new byte[0], args);
  }

  /** Runs to the end with {@code stdin} written then closed. */
  static Result run(Path launcher, Map<String, String> env, byte[] stdin, String... args) {
    return run(builder(launcher, env, List.of(args)), stdin, args);
  }

  /** Runs to the end in the working folder {@code cwd}, with stdin closed at once. */
  static Result runIn(Path cwd, Map<String, String> env, String... args) {
    return run(builder(launcher(), env, List.of(args)).directory(cwd.toFile()), new byte[0], args);
  }

  private static Result run(ProcessBuilder builder, byte[] stdin, String... args) {
    try {
      Process p = builder.start();
      CompletableFuture<byte[]> out = drain(p.getInputStream());
      CompletableFuture<byte[]> err = drain(p.getErrorStream());
      try (OutputStream in = p.getOutputStream()) {
        in.write(stdin);
      } catch (IOException e) {
        // the fake may not read stdin at all
      }
      if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        kill(p);
        throw new AssertionError(
            "fake agent did not end within " + TIMEOUT + ": " + String.join(" ", args));
      }
      return new Result(
          out.get(10, TimeUnit.SECONDS), err.get(10, TimeUnit.SECONDS), p.exitValue());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  static CompletableFuture<byte[]> drain(InputStream in) {
    return CompletableFuture.supplyAsync(
        () -> {
          try (in) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            in.transferTo(bytes);
            return bytes.toByteArray();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        },
        command -> {
          Thread t = new Thread(command, "drain");
          t.setDaemon(true);
          t.start();
        });
  }

  static void kill(Process p) {
    p.descendants().forEach(ProcessHandle::destroyForcibly);
    p.destroyForcibly();
    try {
      p.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * An environment of {@code kv} pairs, on a machine whose workspaces are trusted: these tests
   * replay runs that were recorded in trusted workspaces. Tests of the trust gate set {@code
   * AGENTDOUBLE_TRUST=untrusted}.
   */
  static Map<String, String> env(String... kv) {
    Map<String, String> env = new HashMap<>();
    env.put("AGENTDOUBLE_TRUST", "trusted");
    for (int i = 0; i < kv.length; i += 2) {
      env.put(kv[i], kv[i + 1]);
    }
    return env;
  }

  static Path write(Path dir, String name, String text) {
    try {
      Path file = dir.resolve(name);
      Files.writeString(file, text, StandardCharsets.UTF_8);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads a stream on its own thread; what has arrived so far can be looked at any time. */
  static final class Drain {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final Thread thread;

    Drain(InputStream in) {
      thread =
          new Thread(
              () -> {
                byte[] buf = new byte[1 << 16];
                try (in) {
                  int n;
                  while ((n = in.read(buf)) > 0) {
                    synchronized (bytes) {
                      bytes.write(buf, 0, n);
                    }
                  }
                } catch (IOException e) {
                  // the process was killed
                }
              },
              "drain");
      thread.setDaemon(true);
      thread.start();
    }

    byte[] bytes() {
      synchronized (bytes) {
        return bytes.toByteArray();
      }
    }

    void awaitSize(int size) {
      await()
          .atMost(FakeProcess.TIMEOUT)
          .until(
              () -> {
                synchronized (bytes) {
                  return bytes.size() >= size;
                }
              });
    }

    /** Everything, once the stream has ended. */
    byte[] awaitEnd() throws InterruptedException {
      thread.join(FakeProcess.TIMEOUT.toMillis());
      assertThat(thread.isAlive()).as("stream still open after " + FakeProcess.TIMEOUT).isFalse();
      return bytes();
    }
  }
}
