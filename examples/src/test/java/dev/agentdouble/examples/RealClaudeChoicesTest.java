package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every option of Claude Code 2.1.328 that has choices takes the same values in the real CLI and in
 * the fake: the values it accepts without listing them ({@code --permission-mode default}, which
 * the Agent SDK passes; {@code --prompt-suggestions} in any case, blanks around) and, per option, a
 * value it refuses; and the values the CLI checks itself, outside commander's choices ({@code
 * --prompt-suggestions true} outside stream-json, {@code --effort}, {@code --setting-sources},
 * {@code --autocompact}), with where each check stands among the others. The real {@code claude}
 * (npm, installed into {@code target/}; skipped with a message without node and npm) runs offline
 * with a home of its own and no key: its argv checks come first, then it says it is not logged in.
 * The fake replays {@code builtin:claude-not-logged-in}, that run's tape. Stdout, stderr and exit
 * must be identical (docs/claude.md, "Argument checks").
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RealClaudeChoicesTest {
  private static final String NOT_LOGGED_IN = "Not logged in · Please run /login\n";

  private static final Path FAKE =
      Path.of(System.getProperty("agentdouble.root", ".."), "fake-agent/bin/claude")
          .toAbsolutePath()
          .normalize();

  private static Path claude;

  @BeforeAll
  static void installTheCli() throws Exception {
    claude = RealClaude.installed();
  }

  /** A value the real CLI takes beyond the choices it lists: the run goes on to the login. */
  static Stream<Arguments> unlisted() {
    return Stream.of(
        Arguments.of(List.of("--permission-mode", "default")),
        Arguments.of(List.of("--inherit-permission-mode", "default")),
        Arguments.of(List.of("--prompt-suggestions=FALSE")),
        Arguments.of(List.of("--prompt-suggestions=Off")),
        Arguments.of(List.of("--prompt-suggestions", " no ")),
        Arguments.of(List.of("--prompt-suggestions", "0\t")));
  }

  /** Per option with choices, one value it lists (that the fake knows them at all) and one bad. */
  static Stream<Arguments> listedAndRefused() {
    return Stream.of(
        Arguments.of(List.of("--permission-mode", "manual")),
        Arguments.of(List.of("--permission-mode", "Default")),
        Arguments.of(List.of("--inherit-permission-mode", "bogus")),
        Arguments.of(List.of("--output-format", "JSON")),
        Arguments.of(List.of("--input-format", "JSON")),
        Arguments.of(List.of("--permission-prompts", "none")),
        Arguments.of(List.of("--permission-prompts", "HOST")),
        Arguments.of(List.of("--prompt-suggestions=y")),
        Arguments.of(List.of("--system-prompt-snapshot", "off")),
        Arguments.of(List.of("--system-prompt-snapshot", "ON")),
        Arguments.of(List.of("--thinking", "adaptive")),
        Arguments.of(List.of("--thinking", "Enabled")),
        Arguments.of(List.of("--thinking-display", "omitted")),
        Arguments.of(List.of("--thinking-display", "bogus")),
        Arguments.of(List.of("--teammate-mode", "tmux")),
        Arguments.of(List.of("--teammate-mode", "bogus")),
        Arguments.of(List.of("--proactivity", "ask")),
        Arguments.of(List.of("--proactivity", "bogus")),
        Arguments.of(List.of("--forward-home-settings", "bogus")));
  }

  private static final String U = "11111111-2222-4333-8444-555555555555";

  /**
   * Command lines (after {@code -p}) where the real CLI checks a value itself, beyond commander's
   * choices (docs/claude-2.1.328-runs.md part p, each run there): {@code --prompt-suggestions} true
   * outside stream-json and where that check stands among the others; {@code --effort}'s warning;
   * {@code --setting-sources}, checked before anything; {@code --autocompact}.
   */
  static Stream<Arguments> ownChecks() {
    return Stream.of(
            // p.1 --prompt-suggestions
            List.of("--prompt-suggestions", "true", "hi"),
            List.of("--prompt-suggestions=ON", "hi"),
            List.of("--prompt-suggestions", "false", "hi"),
            List.of("--prompt-suggestions", "hi"),
            List.of("--prompt-suggestions", "true"),
            List.of("--prompt-suggestions", "true", "--output-format", "json", "hi"),
            List.of("--prompt-suggestions", "true", "--output-format", "stream-json", "hi"),
            List.of("--prompt-suggestions", "true", "--session-id", "x", "hi"),
            List.of("--prompt-suggestions", "true", "--session-id", U, "--continue", "hi"),
            List.of("--prompt-suggestions", "true", "--input-format", "stream-json", "hi"),
            List.of("--prompt-suggestions", "true", "--include-partial-messages", "hi"),
            List.of("--prompt-suggestions", "true", "--dangerously-skip-permissions", "hi"),
            List.of("--prompt-suggestions", "true", "--permission-mode", "bypassPermissions", "hi"),
            List.of("--prompt-suggestions", "true", "--resume", U, "hi"),
            List.of("--prompt-suggestions", "true", "--resume", "hi"),
            List.of("--prompt-suggestions", "true", "--resume", "foo", "hi"),
            List.of("--input-format", "stream-json", "--dangerously-skip-permissions", "hi"),
            List.of("--include-partial-messages", "--dangerously-skip-permissions", "hi"),
            // p.2 --effort
            List.of("--effort", "bogus", "hi"),
            List.of("--effort", "med", "hi"),
            List.of("--effort", "ULTRACODE", "hi"),
            List.of("--effort", " max", "hi"),
            List.of("--effort", "HIGH", "hi"),
            List.of("--effort", "", "hi"),
            List.of("--effort", "3", "hi"),
            List.of("--effort", "xhigh", "hi"),
            List.of("--effort", "Med ", "hi"),
            List.of("--effort", "ultra", "hi"),
            List.of("--effort=bogus", "hi"),
            List.of("--effort", "bogus", "--output-format", "bogus", "hi"),
            List.of("--output-format", "bogus", "--effort", "bogus", "hi"),
            List.of("--effort", "bogus", "--effort", "x", "hi"),
            List.of("--effort", "bogus", "--session-id", "x", "hi"),
            List.of("--effort", "bogus", "--bogus-flag", "hi"),
            List.of("--effort", "bogus"),
            List.of("--effort", "bogus", "-v"),
            List.of("--effort", "bogus", "--setting-sources", "user", "-v"),
            // p.3 --setting-sources
            List.of("--setting-sources", "bogus", "hi"),
            List.of("--setting-sources", "USER", "hi"),
            List.of("--setting-sources", "user", "hi"),
            List.of("--setting-sources", "user,project", "hi"),
            List.of("--setting-sources", "", "hi"),
            List.of("--setting-sources", "user,", "hi"),
            List.of("--setting-sources", " user , local ", "hi"),
            List.of("--setting-sources", "user,,local", "hi"),
            List.of("--setting-sources", "project,project", "hi"),
            List.of("--setting-sources", "policy", "hi"),
            List.of("--setting-sources", "local,bogus,x", "hi"),
            List.of("--setting-sources=bogus", "hi"),
            List.of("--setting-sources", "bogus", "--setting-sources", "user", "hi"),
            List.of("--setting-sources", "user", "--setting-sources", "bogus", "hi"),
            List.of("--setting-sources", "bogus", "--output-format", "bogus", "hi"),
            List.of("--output-format", "bogus", "--setting-sources", "bogus", "hi"),
            List.of("--setting-sources", "bogus", "--bogus-flag", "hi"),
            List.of("--setting-sources", "bogus", "--session-id", "x", "hi"),
            List.of("--setting-sources", "bogus", "--session-id", U, "--continue", "hi"),
            List.of("--setting-sources", "bogus", "--input-format", "stream-json", "hi"),
            List.of("--setting-sources", "bogus", "--include-partial-messages", "hi"),
            List.of("--setting-sources", "bogus", "--dangerously-skip-permissions", "hi"),
            List.of("--setting-sources", "bogus", "--effort", "bogus", "hi"),
            List.of("--setting-sources", "bogus"),
            List.of("--setting-sources", "bogus", "--output-format", "stream-json", "hi"),
            List.of("--setting-sources", "bogus", "--resume", U, "hi"),
            List.of("--setting-sources", "bogus", "--prompt-suggestions", "true", "hi"),
            List.of("--setting-sources", "bogus", "--autocompact", "bogus", "hi"),
            List.of("--setting-sources", "bogus", "-v"),
            List.of("--setting-sources", "bogus", "--", "--setting-sources", "user"),
            // p.4 --autocompact
            List.of("--autocompact", "bogus", "--output-format", "bogus", "hi"),
            List.of("--output-format", "bogus", "--autocompact", "bogus", "hi"),
            List.of("--autocompact", "bogus", "--bogus-flag", "hi"),
            List.of("--autocompact=bogus", "hi"))
        .map(Arguments::of);
  }

  /** {@code --autocompact}'s values, each run as {@code -p --autocompact VALUE hi} (part p.4). */
  static Stream<Arguments> autocompact() {
    return Stream.of(
            "auto",
            "Auto",
            " AUTO ",
            "",
            "200",
            "99",
            "100",
            "1000",
            "1001",
            "99999",
            "100000",
            "100k",
            "99k",
            "99.9k",
            "0.5m",
            "1.5M",
            "2m",
            " 200k ",
            "200000abc",
            "1e6",
            "100kk",
            "0x186a0",
            "-200",
            "200.5",
            "Infinity",
            "9007199254740993",
            "100K",
            "1,000,000",
            "1_000_000",
            "1.5e5",
            "2.5e-1",
            "150",
            "100.4",
            "99.9",
            "1000.9",
            " 1e6",
            "0.1m",
            "1.5e2",
            "1e2",
            "200 000",
            "1234567890123456789012345678901234")
        .map(v -> Arguments.of(List.of("--autocompact", v, "hi")));
  }

  /**
   * Runs whose stdout holds a session's own ids (json, stream-json): stderr and exit must be the
   * same; stdout is the tape's (part p.1, p.2).
   */
  static Stream<Arguments> ownChecksInJson() {
    return Stream.of(
            List.of("--effort", "bogus", "--output-format", "json", "hi"),
            List.of("--effort", "bogus", "--output-format", "stream-json", "--verbose", "hi"),
            List.of(
                "--prompt-suggestions",
                "true",
                "--output-format",
                "stream-json",
                "--verbose",
                "hi"))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "-p {0}")
  @MethodSource({"ownChecks", "autocompact"})
  void whatTheRealCliChecksOfAValueItselfTheFakeChecks(List<String> argv, @TempDir Path folder)
      throws Exception {
    assertAlike(fakeRun(argv, folder), realRun(argv, folder));
  }

  @ParameterizedTest(name = "-p {0}")
  @MethodSource("ownChecksInJson")
  void whatTheRealCliSaysOnStderrInJsonTheFakeSays(List<String> argv, @TempDir Path folder)
      throws Exception {
    TestProcess.Result real = realRun(argv, folder);
    TestProcess.Result fake = fakeRun(argv, folder);

    assertThat(fake.err()).as("stderr").isEqualTo(real.err());
    assertThat(fake.exit()).as("exit").isEqualTo(real.exit());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("unlisted")
  void aValueTheRealCliTakesUnlistedTheFakeTakes(List<String> option, @TempDir Path folder)
      throws Exception {
    TestProcess.Result real = real(option, folder);

    assertThat(real.err()).as("the real CLI's stderr: the value is accepted").isEmpty();
    assertThat(real.out()).as("the real CLI's stdout").isEqualTo(NOT_LOGGED_IN);
    assertAlike(fake(option, folder), real);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("listedAndRefused")
  void theFakeTakesAndRefusesWhatTheRealCliDoes(List<String> option, @TempDir Path folder)
      throws Exception {
    assertAlike(fake(option, folder), real(option, folder));
  }

  private static void assertAlike(TestProcess.Result fake, TestProcess.Result real) {
    assertThat(fake.err()).as("stderr").isEqualTo(real.err());
    assertThat(fake.out()).as("stdout").isEqualTo(real.out());
    assertThat(fake.exit()).as("exit").isEqualTo(real.exit());
  }

  private static List<String> argv(List<String> option) {
    List<String> argv = new ArrayList<>(List.of("-p"));
    argv.addAll(option);
    argv.add("hi");
    return argv;
  }

  /** The real CLI in a working folder and home of its own, with no key, stdin empty. */
  private static TestProcess.Result real(List<String> option, Path folder) throws Exception {
    List<String> command = new ArrayList<>(List.of(claude.toString()));
    command.addAll(argv(option));
    return run(command, folder.resolve("real"));
  }

  /** {@code claude -p ARGV} through the real CLI, {@code argv} whole (no prompt added). */
  private static TestProcess.Result realRun(List<String> argv, Path folder) throws Exception {
    List<String> command = new ArrayList<>(List.of(claude.toString(), "-p"));
    command.addAll(argv);
    return run(command, folder.resolve("real"));
  }

  private static TestProcess.Result fakeRun(List<String> argv, Path folder) throws Exception {
    List<String> command = new ArrayList<>(List.of(FAKE.toString(), "-p"));
    command.addAll(argv);
    return run(command, folder.resolve("fake"));
  }

  private static TestProcess.Result fake(List<String> option, Path folder) throws Exception {
    List<String> command = new ArrayList<>(List.of(FAKE.toString()));
    command.addAll(argv(option));
    return run(command, folder.resolve("fake"));
  }

  private static TestProcess.Result run(List<String> command, Path folder) throws Exception {
    return RealClaude.offline(command, folder, Map.of());
  }
}
