package dev.agentdouble.recorder;

import dev.agentdouble.testing.TestProcess;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;

/**
 * A process a recorder test started through real pipes ({@link TestProcess}): with the fake's
 * configuration and the real CLI's credentials taken from the test only, on a machine whose
 * workspaces are trusted, and waited for with the recorder's patience.
 */
final class Child extends TestProcess {
  /**
   * How long a test waits for a process to end; generous, the machine is shared (a 100 MB recording
   * takes more than 90 s on 2 cores at load 20).
   */
  static final Duration PATIENCE = Duration.ofSeconds(240);

  private Child(Builder builder) {
    super(builder);
  }

  /** Starts {@code command} in {@code dir} with {@code env} added to the test's environment. */
  static Child start(List<String> command, Path dir, Map<String, String> env) {
    return new Child(builder(command, dir, env));
  }

  /** Like {@link #start}, with stdin from {@code /dev/null}, as {@code claude -p} wants it. */
  static Child startWithoutStdin(List<String> command, Path dir, Map<String, String> env) {
    return new Child(builder(command, dir, env).noStdin());
  }

  /** Like {@link #start}, but keeping only the size and SHA-256 of what the process writes. */
  static Child startHashing(List<String> command, Path dir, Map<String, String> env) {
    return new Child(builder(command, dir, env).hashing());
  }

  private static Builder builder(List<String> command, Path dir, Map<String, String> env) {
    return TestProcess.command(command)
        .directory(dir)
        // the fake's configuration and the real CLIs' credentials come from the test, never the
        // JVM
        .withoutEnv("AGENTDOUBLE_", "CURSOR_", "ANTHROPIC_", "CLAUDE_")
        // a machine whose workspaces are trusted, as those of the recorded runs were; the trust
        // gate itself is tested in fake-agent
        .env("AGENTDOUBLE_TRUST", "trusted")
        .env(env)
        .patience(PATIENCE);
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
}
