package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One stream-json recording plays every way {@code claude -p} prints a run, derived as the real
 * Claude Code 2.1.328 derives it: each pair is two real runs of the same script here (test
 * resources {@code claude-2.1.328/runs/<capture>/}, their volatile values, ids, times, paths and
 * costs, set to the same constants), the first recorded, the second's command line run against it
 * (docs/claude-2.1.328-runs.md parts a and b: json is the result line without {@code
 * model_usage_since_last_result}; json with {@code --verbose} the array of every line, the init's
 * capabilities without {@code lifecycle_wakeup_source_v1}; text the result and a newline, the
 * max-turns error without one; stream-json without {@code --include-partial-messages} the run
 * without its partial lines).
 */
@Timeout(120)
class ClaudeDerivationTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} as {1}")
  @CsvSource({
    "a-stream-json, a-stream-json",
    "a-stream-json, a-json",
    "a-stream-json, a-json-verbose",
    "a-stream-json, a-text",
    "a-stream-json, a-default",
    "a-stream-json-partial, a-stream-json-partial",
    "a-stream-json-partial, a-stream-json",
    "a-stream-json-partial, a-json",
    "a-stream-json-partial, a-text",
    "b-maxturns1-stream, b-maxturns1-json",
    "b-maxturns1-stream, b-maxturns1-text",
    "b-bash-default-stream, b-bash-default-json"
  })
  void aStreamJsonRecordingPlaysAsTheRealCliPrintsIt(String recorded, String asked)
      throws IOException {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    Path journal = dir.resolve("journal.ndjson");
    FakeProcess.Result r = run(tape(recorded), argv(asked), tmp, journal);
    // the capture's socket set to a constant; the fake's is its own (runs part k)
    String socket = tmp + "/cc-socks/" + ClaudeCatalogReplayTest.pid(journal) + ".sock";

    assertThat(r.err()).as("stderr").isEqualTo(read(asked, "stderr"));
    assertThat(r.out())
        .as("stdout")
        .isEqualTo(read(asked, "stdout").replace(CAPTURED_SOCKET, socket));
    assertThat(r.exit()).as("exit").isEqualTo(Integer.parseInt(read(asked, "exit").strip()));
  }

  @Test
  void partialMessagesAskedOfARecordingWithoutThemAreTheFakesOwnError() throws IOException {
    Path tape = tape("a-stream-json");

    FakeProcess.Result r = run(tape, argv("a-stream-json-partial"));

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + tape
                + ": recorded without --include-partial-messages, asked with it; record the run"
                + " with --include-partial-messages, or ask without it\n");
  }

  /** The messaging socket of the captures, its folder and pid set to constants. */
  static final String CAPTURED_SOCKET = "/tmp/cc-socks/1.sock";

  private FakeProcess.Result run(Path tape, List<String> argv) {
    return FakeProcess.run(
        ClaudeArgvTest.claude(),
        Map.of("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_TIMING", "fast"),
        new byte[0],
        argv.toArray(String[]::new));
  }

  /** A run in the folder for temporary files {@code tmp}, its journal in {@code journal}. */
  private FakeProcess.Result run(Path tape, List<String> argv, Path tmp, Path journal) {
    return FakeProcess.run(
        ClaudeArgvTest.claude(),
        Map.of(
            "AGENTDOUBLE_TAPE",
            tape.toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "TMPDIR",
            tmp.toString(),
            "AGENTDOUBLE_JOURNAL",
            journal.toString()),
        new byte[0],
        argv.toArray(String[]::new));
  }

  /** The capture imported raw as a Claude tape, with its command line. */
  private Path tape(String capture) throws IOException {
    List<String> argv = argv(capture);
    Tape tape =
        Importer.importRun(
            Capture.exited(
                read(capture, "stdout").getBytes(StandardCharsets.UTF_8),
                read(capture, "stderr").getBytes(StandardCharsets.UTF_8),
                Integer.parseInt(read(capture, "exit").strip())),
            ImportOptions.builder()
                .raw(true)
                .cli("claude")
                .argv(argv)
                .cliVersion("2.1.328")
                .outputFormat(OutputFormat.STREAM_JSON)
                .build());
    Path file = dir.resolve(capture + ".tape.ndjson");
    tape.write(file);
    return file;
  }

  private static List<String> argv(String capture) throws IOException {
    return Files.readAllLines(
        folder().resolve(capture).resolve("argv.txt"), StandardCharsets.UTF_8);
  }

  private static String read(String capture, String file) throws IOException {
    return Files.readString(folder().resolve(capture).resolve(file), StandardCharsets.UTF_8);
  }

  private static Path folder() {
    try {
      return Path.of(ClaudeDerivationTest.class.getResource("/claude-2.1.328/runs").toURI());
    } catch (URISyntaxException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }
}
