package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The catalog's {@code claude-not-logged-in} is the real run of the catalog's Claude version with
 * no key, in stream-json as in the other formats, with {@code --include-partial-messages} too (the
 * real CLI then writes a {@code system/status} "requesting" line after its init; the fake once
 * refused the run, exit 70, the tape recorded without the flag). The real CLI from npm, offline (a
 * fresh home, no key, no network, the two variables that keep its tools as a model API's run has
 * them); stdout, stderr and exit identical once ids, times and paths are normalised ({@link
 * RealClaudeDifferenceTest#normalised}).
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RealClaudeNotLoggedInTest {
  private static final Path FAKE =
      Path.of(System.getProperty("agentdouble.root", ".."), "fake-agent/bin/claude")
          .toAbsolutePath()
          .normalize();

  @ParameterizedTest(name = "claude -p --output-format stream-json --verbose {0} hi")
  @ValueSource(strings = {"", "--include-partial-messages"})
  void theFakeNotLoggedInPrintsWhatTheRealCliPrints(String flag, @TempDir Path folder)
      throws Exception {
    Path claude = RealClaude.installed();
    List<String> argv =
        new ArrayList<>(List.of("-p", "--output-format", "stream-json", "--verbose"));
    if (!flag.isEmpty()) {
      argv.add(flag);
    }
    argv.add("hi");

    String[] real = run(claude, argv, folder.resolve("real"));
    String[] fake = run(FAKE, argv, folder.resolve("fake"));

    assertThat(fake[0]).as("stdout, normalised").isEqualTo(real[0]);
    assertThat(fake[1]).as("stderr, normalised").isEqualTo(real[1]);
    assertThat(fake[2]).as("exit").isEqualTo(real[2]);
  }

  /** Stdout and stderr normalised, and the exit, of {@code program ARGV}. */
  private static String[] run(Path program, List<String> argv, Path folder) throws Exception {
    List<String> command = new ArrayList<>(List.of(program.toString()));
    command.addAll(argv);
    TestProcess.Result r =
        RealClaude.offline(
            command,
            folder,
            Map.of("DISABLE_TELEMETRY", "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"));
    Path cwd = folder.resolve("work");
    Path home = folder.resolve("home");
    Map<String, String> paths = RealClaudeDifferenceTest.paths(cwd.toString(), home.toString());
    return new String[] {
      RealClaudeDifferenceTest.normalised(r.out(), paths),
      RealClaudeDifferenceTest.normalised(r.err(), paths),
      Integer.toString(r.exit())
    };
  }
}
