package dev.agentdouble.recorder.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Header;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What {@code record} names a tape it writes without {@code --out}. */
class RecordCommandTest {
  private static final Pattern NAME =
      Pattern.compile("20261121-230324-455-say-hello-[0-9a-f]{6}\\.tape\\.ndjson");

  /**
   * The short hash is always six digits: one name in sixteen has a hash below 0x100000, which
   * unpadded would be five digits (so 400 names without padding all have six with a chance of about
   * 6e-12).
   */
  @Test
  void theNameEndsInSixHexDigitsWhateverTheHash() {
    Header header = Header.builder().argv(List.of("-p", "say hello")).build();
    Instant at = Instant.parse("2026-11-21T23:03:24.455Z");

    List<String> names =
        IntStream.range(0, 400).mapToObj(i -> RecordRun.nameFor(header, at)).toList();

    assertThat(names).allSatisfy(name -> assertThat(name).matches(NAME));
  }
}
