package dev.agentdouble.junit;

import dev.agentdouble.testing.Output;
import dev.agentdouble.testing.TestProcess;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

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
    TestProcess.Result r =
        start(executable, env, List.of(args)).patience(Duration.ofSeconds(seconds)).run();
    return new Result(r.out(), r.err(), r.exit());
  }

  /** {@code executable ARGS} with {@code env} added, stdin from /dev/null, to start. */
  static TestProcess.Builder start(Path executable, Map<String, String> env, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(args);
    return TestProcess.command(command).withoutEnv("AGENTDOUBLE_").env(env).noStdin();
  }

  /** What {@code in} gives until its end, read on another thread. */
  public static CompletableFuture<String> drain(InputStream in) {
    return new Output(in).ended().thenApply(bytes -> new String(bytes, StandardCharsets.UTF_8));
  }

  /**
   * Makes {@code file} an executable written by a child process (see {@link
   * TestProcess#executable}).
   */
  static Path executable(Path file) {
    return TestProcess.executable(file);
  }
}
