package dev.agentdouble.examples;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.testing.TestProcess;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * npm packages the examples run (Anthropic's SDK, the real Claude Code), installed at a pinned
 * version into {@code target/}; where node or npm is missing or the registry cannot be reached, the
 * test that needs one is skipped with a message saying so.
 */
final class Npm {
  private Npm() {}

  /**
   * {@code node} on PATH, else the calling test is skipped, saying that {@code what} needs node and
   * npm.
   */
  static Path node(String what) {
    Optional<Path> node = onPath("node");
    Optional<Path> npm = onPath("npm");
    assumeTrue(
        node.isPresent() && npm.isPresent(),
        "skipped: "
            + what
            + " needs node (18 or newer) and npm on PATH; "
            + (node.isEmpty() ? "node" : "npm")
            + " is missing");
    return node.get();
  }

  /**
   * The folder of {@code name}@{@code version} under {@code prefix}{@code /node_modules}, installed
   * there unless it already is; else the calling test is skipped, saying why. One install at a time
   * (the classes of this module run side by side): two classes that asked for the real CLI at once
   * on a fresh clone both installed it, and one ran the binary the other's npm was still writing
   * ({@code error=26, Text file busy}); npm writes {@code package.json} before that binary, so the
   * version is read only once no install is under way. Each install is bounded by its patience.
   */
  static synchronized Path install(Path prefix, String name, String version, String... npmOptions)
      throws Exception {
    Path npm = onPath("npm").orElseThrow();
    Path installed = prefix.resolve("node_modules").resolve(name);
    if (version(installed).equals(Optional.of(version))) {
      return installed;
    }
    List<String> command =
        new ArrayList<>(
            List.of(
                npm.toString(),
                "install",
                "--prefix",
                prefix.toString(),
                name + "@" + version,
                "--no-audit",
                "--no-fund"));
    command.addAll(List.of(npmOptions));
    TestProcess.Result install =
        TestProcess.command(command).noStdin().patience(Duration.ofMinutes(8)).run();
    assumeTrue(
        install.exit() == 0 && version(installed).equals(Optional.of(version)),
        () ->
            "skipped: npm could not install "
                + name
                + "@"
                + version
                + " into "
                + prefix
                + " (is the registry reachable?); npm exited "
                + install.exit()
                + ": "
                + install.err().strip());
    return installed;
  }

  private static Optional<String> version(Path installed) throws Exception {
    Path manifest = installed.resolve("package.json");
    if (!Files.isRegularFile(manifest)) {
      return Optional.empty();
    }
    return Optional.of(new ObjectMapper().readTree(manifest.toFile()).path("version").asText());
  }

  static Optional<Path> onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
      if (Files.isExecutable(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
