package dev.agentdouble.examples;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.testing.TestProcess;
import java.nio.file.Path;

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

  /** The installed {@code claude}, after checking that it runs and says its version. */
  static Path installed() throws Exception {
    Npm.node("a test of the real claude");
    Npm.install(PREFIX, "@anthropic-ai/claude-code", VERSION);
    Path claude = PREFIX.resolve("node_modules/.bin/claude");
    TestProcess.Result version =
        TestProcess.command(claude.toString(), "--version").noStdin().run();
    assumeTrue(
        version.exit() == 0 && version.out().startsWith(VERSION + " "),
        () ->
            "skipped: the claude npm installed does not run here (exit "
                + version.exit()
                + "): "
                + version.out().strip()
                + " "
                + version.err().strip());
    return claude;
  }
}
