package dev.agentdouble.fake;

import dev.agentdouble.testing.Output;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.io.InputStream;
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
    return run(builder(launcher, env, List.of(args)), stdin);
  }

  /** Runs to the end in the working folder {@code cwd}, with stdin closed at once. */
  static Result runIn(Path cwd, Map<String, String> env, String... args) {
    return run(builder(launcher(), env, List.of(args)).directory(cwd.toFile()), new byte[0]);
  }

  /** Runs {@code launcher} to the end in the working folder {@code cwd}, stdin closed at once. */
  static Result runIn(Path launcher, Path cwd, Map<String, String> env, List<String> args) {
    return run(builder(launcher, env, args).directory(cwd.toFile()), new byte[0]);
  }

  private static Result run(ProcessBuilder builder, byte[] stdin) {
    TestProcess.Result r = TestProcess.of(builder).stdin(stdin).patience(TIMEOUT).run();
    return new Result(r.stdout(), r.stderr(), r.exit());
  }

  /** Everything {@code in} gives, once it has ended. */
  static CompletableFuture<byte[]> drain(InputStream in) {
    return new Output(in).ended();
  }

  /** Kills {@code p} and its descendants. */
  static void kill(Process p) {
    TestProcess.kill(p);
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
  static final class Drain extends Output {
    Drain(InputStream in) {
      super(in);
    }

    void awaitSize(int size) {
      awaitSize(size, TIMEOUT);
    }

    /** Everything, once the stream has ended. */
    byte[] awaitEnd() {
      return awaitEnd(TIMEOUT);
    }
  }
}
