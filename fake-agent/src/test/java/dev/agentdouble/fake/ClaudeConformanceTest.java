package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Public captures of the real Claude Code ({@code ../shared/conformance/claude/}, read in place,
 * never copied) replay through {@code fake-agent/bin/claude} byte for byte, run as a user would:
 * the tape is the capture imported raw ({@code "cli":"claude"}, its argv, version and format), the
 * command line is its {@code case.json}'s {@code argv} (the program first). A case whose capture is
 * whole ({@code "excerpt": false}) with a known exit is the bar; the excerpts replay too (the fake
 * plays what the tape holds), save those named in {@link #NOT_REPLAYED} with the reason.
 *
 * <p>The captures were made by users who were not root: {@code IS_SANDBOX=1}, which the real CLI
 * takes as leave to bypass permissions as root (checked on 2.1.328 here), keeps their command lines
 * ({@code --dangerously-skip-permissions}, {@code bypassPermissions}) running on a root machine.
 */
@Timeout(120)
class ClaudeConformanceTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The cases that do not replay through the fake, and why. */
  static final Map<String, String> NOT_REPLAYED =
      Map.of(
          "compaction-2.1.278-excerpt",
          "its argv is not known: the publisher wrote \"--session-id|--resume\" for one of two",
          "err-2.1.x-resume-missing-stream-json",
          "its argv has no --verbose (verbose came from the reporter's settings) and a placeholder"
              + " for the session id, which 2.1.328 refuses as not a UUID",
          "hcn-2.1.233-stdin-multiturn",
          "a stdin session of three turns whose user lines were not published (a session tape's in"
              + " frames would be invented) and whose --session-id is the placeholder <uuid>",
          "hooks-2.1.218-stdin-bash-excerpt",
          "a stdin session whose one user line the publisher elided (printf '{\"type\":\"user\",…}'):"
              + " no stdin to replay it with",
          "interrupt-2.1.270-stdin-excerpt",
          "a stdin session: replayed from its transcript by the test below");

  record Case(String name, Path folder, JsonNode info) {
    @Override
    public String toString() {
      return name;
    }

    boolean whole() {
      return !info.path("excerpt").asBoolean(true) && info.path("exit").isInt();
    }

    List<String> argv() {
      List<String> argv = new ArrayList<>();
      info.path("argv").forEach(word -> argv.add(word.asText()));
      return argv;
    }

    byte[] stdout() throws IOException {
      Path ndjson = folder.resolve("stdout.ndjson");
      return Files.readAllBytes(Files.exists(ndjson) ? ndjson : folder.resolve("stdout.txt"));
    }

    byte[] stderr() throws IOException {
      Path err = folder.resolve("stderr.txt");
      return Files.exists(err) ? Files.readAllBytes(err) : new byte[0];
    }

    /** The recorded exit; 0 where the publisher did not say (a run that printed its result). */
    int exit() {
      return info.path("exit").isInt() ? info.get("exit").asInt() : 0;
    }
  }

  @TempDir Path dir;

  static Stream<Case> cases() throws IOException {
    Path root = FakeProcess.shared().resolve("conformance/claude");
    assumeTrue(
        Files.isDirectory(root),
        root
            + " not found: Claude conformance tests skipped (they run where ../shared is beside"
            + " the project, as in CI)");
    List<Case> cases = new ArrayList<>();
    try (Stream<Path> dirs = Files.list(root)) {
      for (Path d :
          dirs.filter(p -> Files.isRegularFile(p.resolve("case.json"))).sorted().toList()) {
        cases.add(
            new Case(
                d.getFileName().toString(), d, JSON.readTree(d.resolve("case.json").toFile())));
      }
    }
    return cases.stream();
  }

  static Stream<Case> wholeCases() throws IOException {
    List<Case> whole = cases().filter(Case::whole).toList();
    assertThat(whole).as("the whole captures with a known exit").hasSizeGreaterThanOrEqualTo(3);
    return whole.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("wholeCases")
  void everyWholeCaptureReplaysByteForByteWithItsCommandLine(Case c) throws IOException {
    replays(c);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void everyOtherCaptureReplaysByteForByteWithItsCommandLine(Case c) throws IOException {
    assumeTrue(!c.whole(), c + " is a whole capture: the test above replays it");
    assumeTrue(!NOT_REPLAYED.containsKey(c.name()), c + ": " + NOT_REPLAYED.get(c.name()));
    replays(c);
  }

  /**
   * A published stdin session ({@code transcript.txt}: {@code →} a line written to stdin, {@code ←}
   * one read from stdout) replays as a recorded session in lockstep: the tape's {@code in} frames
   * are the lines written, its out frames the lines read (verbatim where the publisher elided parts
   * of them), and the fake, given the written lines on stdin, prints the lines read byte for byte.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("sessions")
  void aPublishedStdinSessionReplaysInLockstepByteForByte(Case c) throws IOException {
    List<String> argv = c.argv();
    List<Frame> frames = new ArrayList<>();
    long t = 0;
    for (String line :
        Files.readAllLines(c.folder().resolve("transcript.txt"), StandardCharsets.UTF_8)) {
      if (line.startsWith("→ ")) {
        frames.add(new Frame.In(t++, line.substring(2)));
      } else if (line.startsWith("← ")) {
        frames.add(
            new Frame.OutBytes(t++, (line.substring(2) + "\n").getBytes(StandardCharsets.UTF_8)));
      }
    }
    frames.add(new Frame.Exit(t, c.exit()));
    Header header =
        Header.builder()
            .cli(argv.get(0))
            .cliVersion(c.info().path("cliVersion").asText())
            .argv(argv.subList(1, argv.size()))
            .outputFormat(OutputFormat.STREAM_JSON)
            .build();
    Path file = dir.resolve(c.name() + ".tape.ndjson");
    new Tape(header, frames).write(file);

    FakeProcess.Result r =
        FakeProcess.run(
            FakeProcess.launcher().resolveSibling(argv.get(0)),
            Map.of("AGENTDOUBLE_TAPE", file.toString(), "AGENTDOUBLE_TIMING", "fast"),
            Files.readAllBytes(c.folder().resolve("stdin.ndjson")),
            argv.subList(1, argv.size()).toArray(String[]::new));

    assertThat(r.err()).as("stderr of %s", argv).isEmpty();
    assertThat(r.stdout()).as("stdout of %s", argv).isEqualTo(c.stdout());
    assertThat(r.exit()).as("exit of %s", argv).isEqualTo(c.exit());
  }

  static Stream<Case> sessions() throws IOException {
    return cases()
        .filter(
            c ->
                Files.isRegularFile(c.folder().resolve("transcript.txt"))
                    && Files.isRegularFile(c.folder().resolve("stdin.ndjson")));
  }

  private void replays(Case c) throws IOException {
    List<String> argv = c.argv();
    ImportOptions.Builder options =
        ImportOptions.builder()
            .raw(true)
            .cli(argv.get(0))
            .argv(argv.subList(1, argv.size()))
            .cliVersion(c.info().path("cliVersion").asText());
    OutputFormat.fromTapeName(c.info().path("outputFormat").asText())
        .ifPresent(options::outputFormat);
    Tape tape =
        Importer.importRun(Capture.exited(c.stdout(), c.stderr(), c.exit()), options.build());
    Path file = dir.resolve(c.name() + ".tape.ndjson");
    tape.write(file);
    Path launcher = FakeProcess.launcher().resolveSibling(argv.get(0));
    assertThat(launcher).as("%s: the fake has no program named %s", c, argv.get(0)).exists();

    FakeProcess.Result r =
        FakeProcess.run(
            launcher,
            Map.of(
                "AGENTDOUBLE_TAPE",
                file.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "IS_SANDBOX",
                "1"),
            new byte[0],
            argv.subList(1, argv.size()).toArray(String[]::new));

    assertThat(r.err()).as("stderr of %s", argv).isEqualTo(new String(c.stderr(), "UTF-8"));
    assertThat(r.stdout()).as("stdout of %s", argv).isEqualTo(c.stdout());
    assertThat(r.exit()).as("exit of %s", argv).isEqualTo(c.exit());
  }
}
