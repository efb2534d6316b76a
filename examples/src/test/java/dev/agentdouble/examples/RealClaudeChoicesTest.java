package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * value it refuses. The real {@code claude} (npm, installed into {@code target/}; skipped with a
 * message without node and npm) runs offline with a home of its own and no key: its argv checks
 * come first, then it says it is not logged in. The fake replays {@code
 * builtin:claude-not-logged-in}, that run's tape. Stdout, stderr and exit must be identical
 * (docs/claude.md, "Argument checks").
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

  private static TestProcess.Result fake(List<String> option, Path folder) throws Exception {
    List<String> command = new ArrayList<>(List.of(FAKE.toString()));
    command.addAll(argv(option));
    return run(command, folder.resolve("fake"));
  }

  private static TestProcess.Result run(List<String> command, Path folder) throws Exception {
    Path cwd = Files.createDirectories(folder.resolve("work"));
    Path home = Files.createDirectories(folder.resolve("home"));
    return TestProcess.command(command)
        .directory(cwd)
        .withoutEnv("ANTHROPIC_", "CLAUDE_", "AGENTDOUBLE_")
        .env("HOME", home.toString())
        .env("TMPDIR", home.toString())
        .env("AGENTDOUBLE_TAPE", "builtin:claude-not-logged-in")
        .env("AGENTDOUBLE_TIMING", "fast")
        .noStdin()
        .run();
  }
}
