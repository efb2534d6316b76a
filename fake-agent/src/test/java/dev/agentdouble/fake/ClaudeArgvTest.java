package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code fake-agent/bin/claude} answers a command line the real Claude Code 2.1.328 answers without
 * a server byte for byte: every captured run of the real program here whose answer comes from its
 * command line alone (commander's errors, the checks in their order, {@code --help} in and out of
 * print mode, {@code --version}). The captures are test resources ({@code
 * claude-2.1.328/argv-errors/<case>/}: {@code argv.txt}, one word a line, then {@code stdout},
 * {@code stderr}, {@code exit}), made by running the real CLI with stdin {@code </dev/null}
 * (docs/claude-2.1.328-runs.md part d). The runs refused because the user is root are checked only
 * as root, where they were made.
 */
@Timeout(120)
class ClaudeArgvTest {
  static Path claude() {
    return FakeProcess.root().resolve("fake-agent/bin/claude");
  }

  static Stream<String> cases() throws IOException {
    try (Stream<Path> folders = Files.list(folder())) {
      return folders.map(f -> f.getFileName().toString()).sorted().toList().stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void answersAsTheRealCliDoes(String name) throws IOException {
    Path capture = folder().resolve(name);
    List<String> argv = Files.readAllLines(capture.resolve("argv.txt"), StandardCharsets.UTF_8);
    if (name.contains("root")) {
      assumeTrue(isRoot(), name + ": captured as root, where the CLI refuses; this user is not");
    }

    FakeProcess.Result r =
        FakeProcess.run(claude(), Map.of(), new byte[0], argv.toArray(String[]::new));

    assertThat(r.err()).as("stderr").isEqualTo(read(capture, "stderr"));
    assertThat(r.out()).as("stdout").isEqualTo(read(capture, "stdout"));
    assertThat(r.exit()).as("exit").isEqualTo(Integer.parseInt(read(capture, "exit").strip()));
  }

  static boolean isRoot() {
    try {
      return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static String read(Path capture, String file) throws IOException {
    return Files.readString(capture.resolve(file), StandardCharsets.UTF_8);
  }

  private static Path folder() {
    try {
      return Path.of(ClaudeArgvTest.class.getResource("/claude-2.1.328/argv-errors").toURI());
    } catch (URISyntaxException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }
}
