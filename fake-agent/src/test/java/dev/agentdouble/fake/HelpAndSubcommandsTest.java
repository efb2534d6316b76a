package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.run;
import static dev.agentdouble.fake.FakeProcess.write;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.cursor.CursorMessages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Help and the subcommands through the real launcher, with {@code AGENTDOUBLE_PROFILE} always set:
 * the 2026.10 surface against the real CLI's captured help, the documented surface against its own.
 */
@Timeout(120)
class HelpAndSubcommandsTest {
  static final Map<String, String> CLI_2026_10 = env("AGENTDOUBLE_PROFILE", "2026.10");
  static final Map<String, String> DOCUMENTED = env("AGENTDOUBLE_PROFILE", "documented");

  @TempDir Path dir;

  /** The real 2026.10.01 help, byte for byte; the test is skipped where ../shared is absent. */
  static byte[] referenceHelp() throws IOException {
    Path reference = FakeProcess.shared().resolve("reference/help-2026.10.01.txt");
    Assumptions.assumeTrue(
        Files.isRegularFile(reference),
        "the 2026.10.01 help is compared"
            + " where ../shared is beside the project (as in CI); "
            + reference
            + " is absent");
    return Files.readAllBytes(reference);
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h", "help"})
  void the2026HelpIsTheRealHelpByteForByte(String ask) throws IOException {
    byte[] expected = referenceHelp();

    FakeProcess.Result r = run(CLI_2026_10, ask);

    assertThat(r.stdout()).isEqualTo(expected);
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
  }

  @Test
  void theHelpStatesTheDefaultOutputFormatARunActuallyUses() throws IOException {
    Path profile = dir.resolve("json-by-default.json");
    Files.writeString(profile, "{\"defaultOutputFormat\":\"json\"}");

    String byDefault = run(env(), "--help").out();
    String changed = run(env("AGENTDOUBLE_PROFILE", profile.toString()), "--help").out();

    assertThat(byDefault).contains("json | stream-json (default: \"text\")");
    assertThat(changed)
        .contains("json | stream-json (default: \"json\")")
        .doesNotContain("(default: \"text\")");
  }

  @Test
  void theHelpSaysAgentWhateverNameTheLauncherIsInvokedBy() throws IOException {
    byte[] expected = referenceHelp();
    Path other = dir.resolve("my-cursor");
    Files.createSymbolicLink(other, FakeProcess.launcher());

    FakeProcess.Result r = run(other, CLI_2026_10, new byte[0], "--help");
    Files.delete(other); // JUnit warns about links it deletes

    assertThat(r.stdout()).isEqualTo(expected);
    assertThat(r.exit()).isZero();
  }

  @Test
  void theDocumentedHelpStatesItsOwnDefaultAndHasNoNewCommands() {
    FakeProcess.Result r = run(DOCUMENTED, "--help");

    assertThat(r.out())
        .startsWith("Usage: agent [options] [command] [prompt...]\n")
        .contains("json | stream-json (default: \"stream-json\")\n")
        .doesNotContain("  persist ", "  worker ", "generate-rule");
    assertThat(r.exit()).isZero();
  }

  @Test
  void aNewCommandsHelpIsCommanders() {
    FakeProcess.Result r = run(CLI_2026_10, "rule", "--help");

    assertThat(r.out())
        .isEqualTo(
            "Usage: agent generate-rule|rule [options]\n\n"
                + "Generate a new Cursor rule with interactive prompts\n\n"
                + "Options:\n"
                + "  -h, --help  Display help for command\n");
    assertThat(r.exit()).isZero();
  }

  /**
   * {@code agent acp --help}: the hidden command's own help, as 2026.08.11 and 2026.09.18 print it
   * (docs/cli.md, sources), not the root's; under both surfaces, as both run ACP.
   */
  @ParameterizedTest
  @ValueSource(strings = {"2026.10", "documented"})
  void acpHelpIsTheHiddenCommandsOwnHelp(String profile) {
    FakeProcess.Result r = run(env("AGENTDOUBLE_PROFILE", profile), "acp", "--help");

    assertThat(r.out())
        .isEqualTo(
            "Usage: agent acp [options]\n\n"
                + "Start the Cursor Agent as an ACP (Agent Client Protocol) server\n\n"
                + "Options:\n"
                + "  -h, --help  Display help for command\n");
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
  }

  @Test
  void statusAsJsonIsPrettyIn2026AndCompactInTheDocumentedSurface() {
    FakeProcess.Result pretty = run(CLI_2026_10, "status", "--format", "json");
    FakeProcess.Result compact = run(DOCUMENTED, "status", "--format", "json");

    assertThat(pretty.out())
        .startsWith("{\n  \"status\": \"authenticated\",\n")
        .contains("\n  \"userInfo\": {\n    \"email\": \"dev@example.com\",\n")
        .endsWith("\n  }\n}\n");
    assertThat(compact.out()).startsWith("{\"status\":\"authenticated\",").hasLineCount(1);
    assertThat(pretty.exit()).isZero();
    assertThat(compact.exit()).isZero();
  }

  @Test
  void statusWithoutAnAccountSaysNotLoggedInAndExitsZero() {
    Path profile = write(dir, "out.json", "{\"base\": \"2026.10\", \"loggedIn\": false}");

    FakeProcess.Result r = run(env("AGENTDOUBLE_PROFILE", profile.toString()), "status");

    assertThat(r.out()).isEqualTo("Not logged in\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void modelsRefusesAFormatAsCommanderDoes() {
    FakeProcess.Result r = run(CLI_2026_10, "models", "--format", "json");

    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(CursorMessages.unknownOption("--format", "--force"));
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void modelsWithoutAnAccountFailsWithThe2026Wording() {
    Path profile = write(dir, "out.json", "{\"base\": \"2026.10\", \"loggedIn\": false}");

    FakeProcess.Result r = run(env("AGENTDOUBLE_PROFILE", profile.toString()), "--list-models");

    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "Error: Authentication required. Run 'agent login', pass"
                + " --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN.\n");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void aboutAsJsonIsPrettyWithTheLatestVersion() {
    FakeProcess.Result r = run(CLI_2026_10, "about", "--format", "json");

    assertThat(r.out())
        .startsWith(
            "{\n  \"cliVersion\": \"2026.10.01-e373342\",\n"
                + "  \"latestStatus\": \"up_to_date\",\n"
                + "  \"latestVersion\": \"2026.10.01-e373342\",\n")
        .endsWith("  \"lastRequestId\": null\n}\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void createChatPrintsAUuid() {
    FakeProcess.Result r = run(CLI_2026_10, "create-chat");

    assertThat(UUID.fromString(r.out().strip()).version()).isEqualTo(4);
    assertThat(r.exit()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ls", "persist", "team", "generate-rule"})
  void theInteractiveCommandsCrashWithoutATerminal(String command) {
    FakeProcess.Result r = run(CLI_2026_10, command);

    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "Error: Raw mode is not supported on the current"
                + " process.stdin, which Ink uses as input stream by default.\n");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void everyHiddenOptionIsAcceptedWithItsArity() {
    FakeProcess.Result r =
        run(
            CLI_2026_10,
            "status",
            "--single-turn",
            "--printenv",
            "--background-shell-timeout",
            "5",
            "--conversation-history-file",
            "h.json",
            "--system-prompt",
            "s.md",
            "--exclude-workspace-context",
            "--allowed-tools",
            "a,b",
            "--allowed-tools",
            "c",
            "--exclude-tools",
            "d",
            "--show-thinking",
            "--new-session-id",
            "5f0c3c3e-3c43-4a8e-9f55-1f8f3b8d0c11",
            "--auth-token",
            "t");

    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo("✓ Logged in as dev@example.com\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void aNewCommandIsAPromptWordInTheDocumentedSurface() {
    Map<String, String> documented =
        env(
            "AGENTDOUBLE_PROFILE",
            "documented",
            "AGENTDOUBLE_TAPE",
            "builtin:documented-minimal",
            "AGENTDOUBLE_TIMING",
            "fast");

    FakeProcess.Result run = run(documented, "-p", "persist");

    assertThat(run.out()).isNotEmpty();
    assertThat(run.exit()).isZero();
    assertThat(run(CLI_2026_10, "-p", "persist").exit()).isEqualTo(1);
  }
}
