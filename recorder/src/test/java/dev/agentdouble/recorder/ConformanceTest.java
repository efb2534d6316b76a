package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real captures in {@code ../shared/conformance/}, read in place (never copied into the
 * project), through the command a user would type: {@code import --raw}, {@code lint}, {@code
 * replay}. Skipped, saying why, when the folder is absent.
 */
@Timeout(300)
public class ConformanceTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  public record Case(String name, Path folder, JsonNode json) {
    Path stdout() {
      return folder.resolve("stdout.ndjson");
    }

    Path stderr() {
      return folder.resolve("stderr.txt");
    }

    boolean excerpt() {
      return json.path("excerpt").asBoolean(false);
    }

    int exit() {
      return json.required("exit").asInt();
    }

    /** {@code agentdouble import} of this case, raw or normalising, to {@code tape}. */
    String[] importArgs(boolean raw, Path tape) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "import",
                  "--stdout",
                  stdout().toString(),
                  "--exit",
                  Integer.toString(exit()),
                  "--out",
                  tape.toString()));
      if (Files.exists(stderr())) {
        args.addAll(List.of("--stderr", stderr().toString()));
      }
      if (json.hasNonNull("outputFormat")) {
        args.addAll(List.of("--output-format", json.get("outputFormat").asText()));
      }
      if (json.hasNonNull("cliVersion")) {
        args.addAll(List.of("--cli-version", json.get("cliVersion").asText()));
      }
      if (raw) {
        args.add("--raw");
      }
      return args.toArray(new String[0]);
    }
  }

  public static List<Case> cases() {
    Path folder = Cli.shared().resolve("conformance");
    List<Case> cases = read(folder, "conformance tests", Case::new);
    assumeTrue(!cases.isEmpty(), folder + " holds no cases: conformance tests skipped");
    return cases;
  }

  /** Makes a case of its folder's name, the folder, and its {@code case.json}. */
  interface CaseMaker<C> {
    C make(String name, Path folder, JsonNode json);
  }

  /**
   * The cases of {@code folder}, its sub-folders holding a {@code case.json}, in name order;
   * skipped, saying so ({@code tests}: what is skipped), when the folder is absent.
   */
  static <C> List<C> read(Path folder, String tests, CaseMaker<C> maker) {
    assumeTrue(Files.isDirectory(folder), folder + " not found: " + tests + " skipped");
    try (Stream<Path> dirs = Files.list(folder)) {
      List<C> cases = new ArrayList<>();
      for (Path d : dirs.sorted().toList()) {
        Path caseJson = d.resolve("case.json");
        if (Files.isRegularFile(caseJson)) {
          cases.add(maker.make(d.getFileName().toString(), d, JSON.readTree(caseJson.toFile())));
        }
      }
      return cases;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Skipped, with the reason, when the corpus is absent: a skipped factory produces no test at all,
   * so without this the reports would not show that nothing was checked.
   */
  @Test
  void theCorpusIsBesideTheProject() {
    assertThat(cases()).isNotEmpty().allSatisfy(c -> assertThat(c.stdout()).isRegularFile());
  }

  @TestFactory
  Stream<DynamicTest> everyCaptureImportsRawAndLintsWithoutErrors() {
    return DynamicTest.stream(
        cases().stream(),
        Case::name,
        c -> {
          Cli.Result lint = importedAndLinted(c, true, dir.resolve(c.name() + ".raw.tape.ndjson"));

          assertThat(lint.out()).as("findings of %s", c.name()).doesNotContain(": error [");
          assertThat(lint.err()).contains("linted 1 tape: 0 errors");
        });
  }

  @TestFactory
  Stream<DynamicTest> everyCaseFolderImportsAsItsFilesAndItsCaseJsonSay() {
    return DynamicTest.stream(
        cases().stream(),
        Case::name,
        c -> {
          Path fromCase = dir.resolve(c.name() + ".case.tape.ndjson");
          Path fromFiles = dir.resolve(c.name() + ".files.tape.ndjson");
          Cli.Result imported =
              Cli.run(
                  "import", "--raw", "--case", c.folder().toString(), "--out", fromCase.toString());
          assertThat(imported.exit()).as("%s", imported).isZero();
          assertThat(Cli.run(c.importArgs(true, fromFiles)).exit()).isZero();

          Tape tape = Tape.read(fromCase);
          Tape expected = Tape.read(fromFiles);
          assertThat(tape.frames()).isEqualTo(expected.frames());
          assertThat(tape.header().cliVersion()).isEqualTo(expected.header().cliVersion());
          assertThat(tape.header().format()).isEqualTo(expected.header().format());
          List<String> argv = new ArrayList<>();
          c.json().path("argv").forEach(word -> argv.add(word.asText()));
          assertThat(tape.header().argv())
              .isEqualTo(argv.isEmpty() ? argv : argv.subList(1, argv.size()));
        });
  }

  @TestFactory
  Stream<DynamicTest> everyNormalisedCaptureLintsWithoutErrors() {
    return DynamicTest.stream(
        cases().stream(),
        Case::name,
        c -> importedAndLinted(c, false, dir.resolve(c.name() + ".tape.ndjson")));
  }

  /** Imports the case, raw or normalising, to {@code tape} and lints it: both must exit 0. */
  private static Cli.Result importedAndLinted(Case c, boolean raw, Path tape) {
    Cli.Result imported = Cli.run(c.importArgs(raw, tape));
    assertThat(imported.exit()).as("import of %s: %s", c.name(), imported).isZero();

    Cli.Result lint =
        c.excerpt()
            ? Cli.run("lint", "--excerpt", tape.toString())
            : Cli.run("lint", tape.toString());

    assertThat(lint.exit()).as("lint of %s: %s", c.name(), lint).isZero();
    return lint;
  }

  @TestFactory
  Stream<DynamicTest> everyRawCaptureReplaysByteForByte() {
    return DynamicTest.stream(
        cases().stream(),
        Case::name,
        c -> {
          Path tape = dir.resolve(c.name() + ".replay.tape.ndjson");
          assertThat(Cli.run(c.importArgs(true, tape)).exit()).isZero();

          Cli.Result replay = Cli.runInstalled("replay", "--timing", "fast", tape.toString());

          assertThat(replay.stdout())
              .as("stdout of %s", c.name())
              .isEqualTo(Files.readAllBytes(c.stdout()));
          assertThat(replay.err())
              .as("stderr of %s", c.name())
              .isEqualTo(Files.exists(c.stderr()) ? Files.readString(c.stderr()) : "");
          assertThat(replay.exit()).as("exit of %s", c.name()).isEqualTo(c.exit());
        });
  }
}
