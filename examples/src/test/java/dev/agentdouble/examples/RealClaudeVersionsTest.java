package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each Claude Code version the fake holds as data (a {@code claude-VERSION.txt} profile beside the
 * others; none is named here) answers as that real version does, run offline here (npm, installed
 * into {@code target/}; a fresh home, no key, no network): {@code --version}, {@code --help},
 * {@code -p -h}, an unknown option, a bad choice, a bad number, stream-json without {@code
 * --verbose}, and the run that is not logged in, in text and json. The fake runs under {@code
 * AGENTDOUBLE_PROFILE=VERSION}, replaying {@code builtin:claude-not-logged-in}. Stdout, stderr and
 * exit must be identical; in json, the session id, the result's uuid and its duration are the run's
 * own.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class RealClaudeVersionsTest {
  private static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();

  private static final Path FAKE = ROOT.resolve("fake-agent/bin/claude");

  /** The built-in profiles' folder, where each version is a file of data. */
  private static final Path PROFILES =
      ROOT.resolve("fake-agent/src/main/resources/dev/agentdouble/fake/internal/profile");

  private static final Pattern PROFILE = Pattern.compile("claude-(\\d+\\.\\d+\\.\\d+)\\.txt");

  /** The values of a json run that are the run's own: ids and the time it took. */
  private static final Pattern OWN =
      Pattern.compile("\"(session_id|uuid|duration_ms)\":(\"[^\"]*\"|\\d+)");

  static List<String> versions() throws IOException {
    List<String> versions = new ArrayList<>();
    try (Stream<Path> files = Files.list(PROFILES)) {
      for (Path f : files.toList()) {
        Matcher m = PROFILE.matcher(f.getFileName().toString());
        if (m.matches()) {
          versions.add(m.group(1));
        }
      }
    }
    versions.sort(null);
    return versions;
  }

  static Stream<Arguments> runs() throws IOException {
    List<List<String>> argvs =
        List.of(
            List.of("--version"),
            List.of("--help"),
            List.of("-p", "-h"),
            List.of("--no-such-option"),
            List.of("-p", "--output-format", "yaml", "hi"),
            List.of("-p", "--max-budget-usd", "abc", "hi"),
            List.of("-p", "--output-format", "stream-json", "hi"),
            List.of("-p", "hi"),
            List.of("-p", "--output-format", "json", "hi"));
    List<Arguments> runs = new ArrayList<>();
    for (String version : versions()) {
      for (List<String> argv : argvs) {
        runs.add(Arguments.of(version, argv));
      }
    }
    assertThat(runs).as("the Claude versions of %s", PROFILES).isNotEmpty();
    return runs.stream();
  }

  @ParameterizedTest(name = "{0}: claude {1}")
  @MethodSource("runs")
  void eachVersionTheFakeHoldsAnswersAsThatRealVersionDoes(
      String version, List<String> argv, @TempDir Path folder) throws Exception {
    Path claude = RealClaude.installed(version);
    List<String> realCommand = new ArrayList<>(List.of(claude.toString()));
    realCommand.addAll(argv);
    List<String> fakeCommand = new ArrayList<>(List.of(FAKE.toString()));
    fakeCommand.addAll(argv);

    TestProcess.Result real = run(realCommand, folder.resolve("real"), version);
    TestProcess.Result fake = run(fakeCommand, folder.resolve("fake"), version);

    assertThat(fake.err()).as("stderr").isEqualTo(real.err());
    assertThat(own(fake.out())).as("stdout").isEqualTo(own(real.out()));
    assertThat(fake.exit()).as("exit").isEqualTo(real.exit());
  }

  private static String own(String out) {
    return OWN.matcher(out).replaceAll("\"$1\":<its own>");
  }

  private static TestProcess.Result run(List<String> command, Path folder, String version)
      throws Exception {
    return RealClaude.offline(command, folder, Map.of("AGENTDOUBLE_PROFILE", version));
  }
}
