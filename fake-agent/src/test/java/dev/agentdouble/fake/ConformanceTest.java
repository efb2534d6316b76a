package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdouble.fake.CaptureCommandLines.CommandLine;
import dev.agentdouble.fake.CaptureCommandLines.Origin;
import dev.agentdouble.fake.internal.profile.Profiles;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.Lines;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import dev.agentdouble.variants.Variants;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real captured runs ({@code ../shared/conformance/}, read in place, never copied): imported, then
 * replayed through the real launcher, must come out byte for byte as captured.
 *
 * <p>The conformance test proper runs each capture with the command line it was made with: its
 * {@code case.json}'s {@code argv} (the program first) when it has one, else its row of {@link
 * CaptureCommandLines}, which says where the line comes from. A new case folder with an {@code
 * argv} (and, when the run read one, a {@code stdin.txt}) needs no code. The tape is imported as
 * {@code agentdouble import --raw --case} makes it: with the run's {@code cli}, {@code argv}, CLI
 * version and format in its header. It replays under the fake's profile of the capture's CLI
 * version ({@link #profileOf}).
 *
 * <p>An excerpt ({@code "excerpt": true}: lines its publisher selected, perhaps from several runs)
 * replays byte for byte like a whole run: the fake plays what the tape holds, contiguous or not.
 * Its allowance is elsewhere: its command line may be partly unknown (a prompt never published is
 * {@code <prompt>}), and {@code lint} takes it with {@code --excerpt}.
 */
@Timeout(120)
class ConformanceTest {
  private static final Pattern UUID_FORM =
      Pattern.compile("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}");

  static final ObjectMapper JSON = new ObjectMapper();
  static final List<String> JSON_KEY_ORDER =
      List.of(
          "type",
          "subtype",
          "is_error",
          "duration_ms",
          "duration_api_ms",
          "result",
          "session_id",
          "request_id");

  record Case(String name, Path folder, byte[] stdout, byte[] stderr, int exit, JsonNode info) {
    @Override
    public String toString() {
      return name;
    }

    Capture capture() {
      return Capture.exited(stdout, stderr, exit);
    }

    /** The text of the first {@code user} event, or {@code <prompt>} when there is none. */
    String prompt() {
      for (String line : new String(stdout, StandardCharsets.UTF_8).split("\n")) {
        try {
          JsonNode event = JSON.readTree(line);
          if (event != null && "user".equals(event.path("type").asText())) {
            StringBuilder text = new StringBuilder();
            event.at("/message/content").forEach(part -> text.append(part.path("text").asText()));
            return text.toString();
          }
        } catch (IOException e) {
          // not an event
        }
      }
      return "<prompt>";
    }

    /**
     * The command line this capture was made with: its case.json's, else its row's; with its stdin
     * ({@code stdin.txt} beside case.json, when there is one).
     */
    CommandLine commandLine() throws IOException {
      if (info.has("argv")) {
        List<String> argv = new ArrayList<>();
        info.get("argv").forEach(word -> argv.add(word.asText()));
        Path stdin = folder.resolve("stdin.txt");
        return new CommandLine(
            Origin.CASE_JSON,
            argv,
            Files.exists(stdin) ? Files.readString(stdin, StandardCharsets.UTF_8) : "",
            folder.resolve("case.json").toString());
      }
      CommandLine row = CaptureCommandLines.ROWS.get(name);
      assertThat(row)
          .as(
              "%s has no command line: give its case.json an \"argv\" (the program first,"
                  + " \"cursor-agent\", \"-p\", ...) or CaptureCommandLines.ROWS a row",
              name)
          .isNotNull();
      return row.prompted(prompt());
    }
  }

  @TempDir Path dir;

  static Stream<Case> cases() throws IOException {
    Path root = FakeProcess.shared().resolve("conformance");
    assumeTrue(
        Files.isDirectory(root),
        root
            + " not found: conformance tests against real "
            + "captures skipped (they run where ../shared is beside the project, as in CI)");
    List<Case> cases = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d :
          dirs.filter(p -> Files.isRegularFile(p.resolve("case.json"))).sorted().toList()) {
        Path err = d.resolve("stderr.txt");
        JsonNode info = JSON.readTree(d.resolve("case.json").toFile());
        cases.add(
            new Case(
                d.getFileName().toString(),
                d,
                Files.readAllBytes(d.resolve("stdout.ndjson")),
                Files.exists(err) ? Files.readAllBytes(err) : new byte[0],
                info.get("exit").asInt(),
                info));
      }
    }
    assumeTrue(!cases.isEmpty(), root + " holds no cases: conformance tests skipped");
    return cases.stream();
  }

  private Path write(Tape tape, String name) {
    try {
      Path file = dir.resolve(name + ".tape.ndjson");
      tape.write(file);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aRawImportReplaysByteForByte(Case c) {
    Tape tape = Importer.importRun(c.capture(), ImportOptions.builder().raw(true).build());

    FakeProcess.Result r =
        FakeProcess.run(
            FakeProcess.env(
                "AGENTDOUBLE_TAPE", write(tape, c.name()).toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "stream-json",
            "conformance");

    assertThat(r.stdout()).as("stdout").isEqualTo(c.stdout());
    assertThat(r.stderr()).as("stderr").isEqualTo(c.stderr());
    assertThat(r.exit()).as("exit").isEqualTo(c.exit());
  }

  /**
   * The fake's profile for a CLI version: the built-in profile of its year and month when there is
   * one ({@code 2026.09.28-64d2043} replays under {@code 2026.09}), else {@code 2026.10}, the
   * newest (none of the older captures, 2026.01.28 to 2026.07.23, shows a difference of version its
   * tape does not carry).
   */
  static String profileOf(String cliVersion) {
    String month = cliVersion.length() >= 7 ? cliVersion.substring(0, 7) : cliVersion;
    return Profiles.builtIn(month).isPresent() ? month : "2026.10";
  }

  @Test
  void theCapturesOf2026_09ReplayUnderThe2026_09Profile() {
    assertThat(profileOf("2026.09.28-64d2043")).isEqualTo("2026.09");
    assertThat(profileOf("2026.09.10-fd3934a")).isEqualTo("2026.09");
    assertThat(profileOf("2026.10.01-e373342")).isEqualTo("2026.10");
    assertThat(profileOf("2026.07.20")).isEqualTo("2026.10");
    assertThat(profileOf("~2026.05")).isEqualTo("2026.10");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyCaptureReplaysByteForByteWithTheCommandLineItWasMadeWith(Case c) throws IOException {
    replaysWithItsCommandLine(c, true);
  }

  /** As an import that is not told the command line makes it: its header has no argv. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyCaptureReplaysByteForByteWithItsCommandLineThoughItsTapeDoesNotSayIt(Case c)
      throws IOException {
    replaysWithItsCommandLine(c, false);
  }

  private void replaysWithItsCommandLine(Case c, boolean headerSaysIt) throws IOException {
    CommandLine line = c.commandLine();
    List<String> argv = line.argv();
    ImportOptions.Builder options =
        ImportOptions.builder().raw(true).cliVersion(c.info().path("cliVersion").asText());
    if (headerSaysIt) {
      options.cli(argv.get(0)).argv(argv.subList(1, argv.size()));
    }
    OutputFormat.fromTapeName(c.info().path("outputFormat").asText())
        .ifPresent(options::outputFormat);
    Tape tape = Importer.importRun(c.capture(), options.build());
    Path launcher = FakeProcess.launcher().resolveSibling(argv.get(0));
    assertThat(launcher).as("%s: the fake has no program named %s", c, argv.get(0)).exists();

    FakeProcess.Result r =
        FakeProcess.run(
            launcher,
            FakeProcess.env(
                "AGENTDOUBLE_TAPE",
                write(tape, c.name()).toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_PROFILE",
                profileOf(c.info().path("cliVersion").asText())),
            line.stdin().getBytes(StandardCharsets.UTF_8),
            argv.subList(1, argv.size()).toArray(String[]::new));

    assertThat(r.stdout()).as("stdout of %s", line).isEqualTo(c.stdout());
    assertThat(r.stderr()).as("stderr of %s", line).isEqualTo(c.stderr());
    assertThat(r.exit()).as("exit of %s", line).isEqualTo(c.exit());
  }

  /**
   * Deltas mean {@code --stream-partial-output}: a capture that holds one was made with the flag,
   * and a command line the stream implies has the flag only when the stream holds deltas.
   */
  @Test
  void aCommandLineHasThePartialOutputFlagWhereTheStreamHoldsDeltas() throws IOException {
    for (Case c : cases().toList()) {
      boolean deltas = false;
      for (byte[] line : Lines.split(c.stdout())) {
        int length = line[line.length - 1] == '\n' ? line.length - 1 : line.length;
        deltas |= Variants.PartialOutput.isDelta(Arrays.copyOf(line, length));
      }
      CommandLine line = c.commandLine();
      boolean flag = line.argv().contains(Variants.PartialOutput.FLAG);
      if (deltas) {
        assertThat(flag).as("%s holds deltas: %s", c, line).isTrue();
      } else if (line.origin() == Origin.STREAM) {
        assertThat(flag).as("%s holds no delta: %s", c, line).isFalse();
      }
    }
  }

  @Test
  void everyRowIsTheCommandLineOfACaseThatHasNoneOfItsOwn() throws IOException {
    Map<String, Case> cases = new HashMap<>();
    cases().forEach(c -> cases.put(c.name(), c));
    for (String name : CaptureCommandLines.ROWS.keySet()) {
      assertThat(cases).as("the case of row %s", name).containsKey(name);
      assertThat(cases.get(name).info().has("argv"))
          .as("%s has an argv in its case.json, which wins over its row", name)
          .isFalse();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aNormalisingImportReplaysByteForByteWithTheRecordedValues(Case c) {
    Tape tape = Importer.importRun(c.capture(), ImportOptions.DEFAULTS);
    Vars vars = tape.header().vars();
    List<String> args = new ArrayList<>(List.of("-p", "--output-format", "stream-json"));
    vars.cwd().ifPresent(cwd -> args.addAll(List.of("--workspace", cwd)));
    vars.sessionId().ifPresent(id -> args.addAll(List.of("--resume", id)));
    args.add("--");
    args.add(vars.prompt().orElse("conformance"));
    Map<String, String> env =
        FakeProcess.env(
            "AGENTDOUBLE_TAPE", write(tape, c.name()).toString(), "AGENTDOUBLE_TIMING", "fast");
    vars.epochMs().ifPresent(ms -> env.put("AGENTDOUBLE_EPOCH_MS", Long.toString(ms)));
    if (vars.sessionId().filter(id -> !UUID_FORM.matcher(id).matches()).isPresent()) {
      // an excerpt abbreviates its session id; 2026.10 refuses `--resume` with a non-UUID, so
      // the id is handed back under the documented profile, which does not check it
      env.put("AGENTDOUBLE_PROFILE", "documented");
    }

    FakeProcess.Result r =
        FakeProcess.run(FakeProcess.launcher(), env, new byte[0], args.toArray(String[]::new));

    assertThat(r.stdout()).as("stdout").isEqualTo(c.stdout());
    assertThat(r.stderr()).as("stderr").isEqualTo(c.stderr());
    assertThat(r.exit()).as("exit").isEqualTo(c.exit());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aSuccessfulRunRendersAsJsonWithTheResultInJsonKeyOrder(Case c) throws IOException {
    JsonNode result = lastResult(c.stdout());
    assumeTrue(
        c.exit() == 0 && result != null, c.name() + " is not a successful run with a result");
    Tape tape = Importer.importRun(c.capture(), ImportOptions.builder().raw(true).build());

    FakeProcess.Result r =
        FakeProcess.run(
            FakeProcess.env(
                "AGENTDOUBLE_TAPE", write(tape, c.name()).toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "--output-format",
            "json",
            "conformance");

    ObjectNode expected = JSON.createObjectNode();
    for (String key : JSON_KEY_ORDER) {
      if (result.has(key)) {
        expected.set(key, result.get(key));
      }
    }
    for (Iterator<String> keys = result.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!JSON_KEY_ORDER.contains(key)) {
        expected.set(key, result.get(key));
      }
    }
    assertThat(r.out()).isEqualTo(JSON.writeValueAsString(expected) + "\n");
    assertThat(r.exit()).isZero();
  }

  private static JsonNode lastResult(byte[] stdout) throws IOException {
    JsonNode last = null;
    for (String line : new String(stdout, StandardCharsets.UTF_8).split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode event = JSON.readTree(line);
      if ("result".equals(event.path("type").asText())) {
        last = event;
      }
    }
    return last;
  }
}
