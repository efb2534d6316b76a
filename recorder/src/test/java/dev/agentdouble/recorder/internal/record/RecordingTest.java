package dev.agentdouble.recorder.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.recorder.ConformanceTest;
import dev.agentdouble.recorder.Normaliser;
import dev.agentdouble.recorder.NormaliserConformanceTest;
import dev.agentdouble.recorder.Redactor;
import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder writes a tape frame by frame from its spool; what it writes is exactly what the
 * public {@link Normaliser} and {@link Redactor} make of the whole tape in memory, on every real
 * capture and every built-in tape, normalising or raw, with secrets and user patterns that hit.
 */
class RecordingTest {
  @TempDir Path dir;

  private static final long EPOCH_MS = 1_784_819_000_000L;
  private static final String CWD = "/Users/dev/src/acme-billing";
  // a value on every line of most runs, and digits runs (timestamps, counts) for the pattern
  private static final Map<String, String> ENV =
      Map.of("HOME", "/Users/dev", "CURSOR_API_KEY", "assistant", "PATH", "/usr/bin");
  private static final List<Pattern> PATTERNS = List.of(Pattern.compile("[0-9]{6,}"));
  private static final List<String> COMMAND =
      List.of("cursor-agent", "-p", "--output-format", "stream-json", "--api-key", "sk-123456789");

  @TestFactory
  Stream<DynamicTest> writesWhatTheInMemoryNormaliserAndRedactorMakeOfEveryRun() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (ConformanceTest.Case c : ConformanceTest.cases()) {
      Tape tape = NormaliserConformanceTest.imported(c);
      for (boolean raw : new boolean[] {false, true}) {
        tests.add(
            DynamicTest.dynamicTest(
                c.name() + (raw ? " raw" : ""), () -> assertSame(c.name(), tape, raw)));
      }
    }
    for (Catalog.Entry entry : Catalog.entries()) {
      String name = entry.name();
      Tape tape = Catalog.tape(name);
      if (tape.frames().stream()
          .allMatch(
              f ->
                  f instanceof Frame.Out
                      || f instanceof Frame.OutBytes
                      || f instanceof Frame.Err
                      || f.terminal())) {
        tests.add(DynamicTest.dynamicTest("builtin:" + name, () -> assertSame(name, tape, false)));
      }
    }
    return tests.stream();
  }

  private void assertSame(String name, Tape tape, boolean raw) throws Exception {
    Tape expected = tape;
    if (!raw) {
      expected =
          Normaliser.normalise(
              expected, Normaliser.Context.NONE.cwd(CWD).home(ENV.get("HOME")).epochMs(EPOCH_MS));
    }
    expected =
        Redactor.from(ENV, COMMAND.subList(1, COMMAND.size()), PATTERNS).redact(expected).tape();

    // dynamic tests run in parallel: a file of each one's own
    Path file = dir.resolve(name + (raw ? ".raw" : "") + ".tape.ndjson");
    List<Frame> frames = tape.frames();
    try (Recording recording =
        new Recording(Spool.create(dir), ENV, COMMAND, PATTERNS, raw, CWD, EPOCH_MS)) {
      for (Frame f : frames.subList(0, frames.size() - 1)) {
        recording.accept(Piece.of(f));
      }
      recording.write(tape.header(), tape.ending(), file);
    }

    assertThat(new String(Files.readAllBytes(file), StandardCharsets.UTF_8))
        .isEqualTo(new String(expected.toBytes(), StandardCharsets.UTF_8));
  }
}
