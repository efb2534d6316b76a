package dev.agentdouble.examples;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The real Claude Code, at the version the catalog's Claude tapes were recorded from, installed by
 * npm ({@code @anthropic-ai/claude-code}) into {@code target/claude-code}; a test that needs it is
 * skipped, with a message saying why, where it cannot be installed or does not run.
 */
final class RealClaude {
  /** The CLI version the catalog's Claude tapes were recorded from. */
  static final String VERSION = Catalog.CLAUDE_CLI_VERSION;

  private static final Path PREFIX = Path.of("target", "claude-code").toAbsolutePath();

  private RealClaude() {}

  /**
   * Where the real CLI puts its messaging socket when {@code $TMPDIR/cc-socks/<pid>.sock} would be
   * over 103 bytes (docs/claude-2.1.328-runs.md, part n): a checkout deep enough makes the runs'
   * temp folders so, and the CLI leaves this folder behind, empty.
   */
  private static final Path SOCKETS = Path.of("/tmp", "cc-socks-" + PrivateFolder.user().orElse(0));

  private static boolean sweeping;

  /** The installed {@code claude}, after checking that it runs and says its version. */
  static Path installed() throws Exception {
    return installed(VERSION);
  }

  /**
   * The real {@code claude} of {@code version} (the catalog's into {@code target/claude-code},
   * another into {@code target/claude-code-VERSION}), after checking that it runs and says its
   * version.
   */
  static Path installed(String version) throws Exception {
    sweepTheSocketFolderAtExit();
    Npm.node("a test of the real claude");
    Path prefix =
        version.equals(VERSION) ? PREFIX : PREFIX.resolveSibling("claude-code-" + version);
    Npm.install(prefix, "@anthropic-ai/claude-code", version);
    Path claude = prefix.resolve("node_modules/.bin/claude");
    TestProcess.Result ran = TestProcess.command(claude.toString(), "--version").noStdin().run();
    assumeTrue(
        ran.exit() == 0 && ran.out().startsWith(version + " "),
        () ->
            "skipped: the claude npm installed does not run here (exit "
                + ran.exit()
                + "): "
                + ran.out().strip()
                + " "
                + ran.err().strip());
    return claude;
  }

  /**
   * {@code command} (the real {@code claude} or the fake's, and its argv) as a run offline: in a
   * working folder and a home of its own under {@code folder} (its {@code TMPDIR} too), without the
   * caller's {@code ANTHROPIC_*}, {@code CLAUDE_*} and {@code AGENTDOUBLE_*} variables, stdin
   * empty; the fake replaying {@code builtin:claude-not-logged-in} at once; {@code env} added.
   */
  static TestProcess.Result offline(List<String> command, Path folder, Map<String, String> env)
      throws Exception {
    Path cwd = Files.createDirectories(folder.resolve("work"));
    Path home = Files.createDirectories(folder.resolve("home"));
    TestProcess.Builder builder =
        TestProcess.command(command)
            .directory(cwd)
            .withoutEnv("ANTHROPIC_", "CLAUDE_", "AGENTDOUBLE_")
            .env("HOME", home.toString())
            .env("TMPDIR", home.toString())
            .env("AGENTDOUBLE_TAPE", "builtin:claude-not-logged-in")
            .env("AGENTDOUBLE_TIMING", "fast")
            .noStdin();
    for (Map.Entry<String, String> e : env.entrySet()) {
      builder = builder.env(e.getKey(), e.getValue());
    }
    return builder.run();
  }

  /**
   * Takes {@link #SOCKETS} away as this JVM ends, with the runs of the real CLI all over, where the
   * runs made it: when it was not there before and is empty then.
   */
  private static synchronized void sweepTheSocketFolderAtExit() {
    if (sweeping || Files.exists(SOCKETS, LinkOption.NOFOLLOW_LINKS)) {
      sweeping = true;
      return;
    }
    sweeping = true;
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    Files.deleteIfExists(SOCKETS); // only an empty folder: a live socket stays
                  } catch (IOException e) {
                    // not empty, or not ours to take: left as it is
                  }
                },
                "sweep " + SOCKETS));
  }
}
