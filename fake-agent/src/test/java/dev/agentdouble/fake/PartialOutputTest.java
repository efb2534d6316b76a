package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.variants.Variants;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --stream-partial-output} on an imported capture: a capture that holds the deltas is played
 * as it is, whatever its header's {@code argv} says; one made without them gets them derived.
 */
@Timeout(120)
class PartialOutputTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PROMPT = "Run the tests";

  @TempDir Path dir;

  /** What a tape writes on stdout, as a capture of the run holds it. */
  private static byte[] stdout(Tape tape) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Out o) {
        bytes.writeBytes((o.json() + "\n").getBytes(StandardCharsets.UTF_8));
      } else if (f instanceof Frame.OutBytes b) {
        bytes.writeBytes(b.bytes());
      }
    }
    return bytes.toByteArray();
  }

  /** The capture imported raw with {@code options}, replayed with the flag; and its journal. */
  private FakeProcess.Result replay(byte[] captured, ImportOptions options, Path journal)
      throws IOException {
    Tape tape = Importer.importRun(Capture.exited(captured, new byte[0], 0), options);
    Path file = dir.resolve("capture.tape.ndjson");
    tape.write(file);
    return FakeProcess.run(
        env(
            "AGENTDOUBLE_TAPE",
            file.toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_JOURNAL",
            journal.toString()),
        "-p",
        "--output-format",
        "stream-json",
        "--stream-partial-output",
        PROMPT);
  }

  private static JsonNode journal(Path file) throws IOException {
    return JSON.readTree(Files.readAllLines(file, StandardCharsets.UTF_8).get(0));
  }

  @Test
  void aCaptureMadeWithTheFlagReplaysAsCapturedThoughItWasImportedWithoutItsArgv()
      throws IOException {
    byte[] captured = stdout(Catalog.tape("stream-partial-output"));
    Path journal = dir.resolve("journal.ndjson");

    FakeProcess.Result r = replay(captured, ImportOptions.builder().raw(true).build(), journal);

    // a consumer joining the deltas gets each segment once, as from the real CLI, not twice
    assertThat(r.out()).isEqualTo(new String(captured, StandardCharsets.UTF_8));
    assertThat(r.exit()).isZero();
    assertThat(journal(journal).has("derived")).isFalse();
  }

  @Test
  void aCaptureMadeWithTheFlagAndImportedWithItsArgvReplaysAsCaptured() throws IOException {
    byte[] captured = stdout(Catalog.tape("stream-partial-output"));
    Path journal = dir.resolve("journal.ndjson");
    List<String> argv =
        List.of("-p", "--output-format", "stream-json", "--stream-partial-output", PROMPT);

    FakeProcess.Result r =
        replay(captured, ImportOptions.builder().raw(true).argv(argv).build(), journal);

    assertThat(r.out()).isEqualTo(new String(captured, StandardCharsets.UTF_8));
    assertThat(journal(journal).has("derived")).isFalse();
  }

  @Test
  void aCaptureMadeWithoutTheFlagGetsItsDeltasDerived() throws IOException {
    Tape whole = Variants.wholeMessages(Catalog.tape("stream-partial-output"));
    byte[] captured = stdout(whole);
    Path journal = dir.resolve("journal.ndjson");

    FakeProcess.Result r = replay(captured, ImportOptions.builder().raw(true).build(), journal);

    // the derived form: the whole messages as captured, each after its deltas
    assertThat(r.out())
        .isEqualTo(new String(stdout(Variants.partialOutput(whole)), StandardCharsets.UTF_8));
    assertThat(journal(journal).get("derived").asText()).isEqualTo("stream-partial-output");
  }
}
