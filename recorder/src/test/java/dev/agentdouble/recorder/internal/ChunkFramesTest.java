package dev.agentdouble.recorder.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reads of stdout and stderr, in the order they came, into frames given out as soon as placed. */
class ChunkFramesTest {
  private final List<Piece> pieces = new ArrayList<>();
  private final ChunkFrames frames = new ChunkFrames(pieces::add);

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private List<String> seen() {
    return pieces.stream().map(p -> p.kind() + "@" + p.t() + " "
        + new String(p.bytes(), StandardCharsets.UTF_8)).toList();
  }

  @Test
  void wholeLinesInOneReadBecomeJsonOrRawFramesAtOnce() throws IOException {
    frames.add(true, 5, bytes("{\"type\":\"a\"}\n{ \"spaced\": 1 }\nplain\n"), false);

    assertThat(seen()).containsExactly(
        "JSON@5 {\"type\":\"a\"}",
        "OUT@5 { \"spaced\": 1 }\n",
        "OUT@5 plain\n");
  }

  @Test
  void stderrWaitsBehindALineThatAReadLeftUnfinishedAndTheLineGoesOnWhenTheWriteDoes()
      throws IOException {
    frames.add(true, 1, bytes("{\"type\":\"long\","), false);
    frames.add(false, 2, bytes("warning\n"), false);

    assertThat(pieces).as("the stderr frame's place is not known yet").isEmpty();

    frames.add(true, 3, bytes("\"n\":1}\n"), true);
    frames.finish();

    assertThat(seen()).containsExactly("ERR@2 warning\n", "JSON@3 {\"type\":\"long\",\"n\":1}");
  }

  @Test
  void aWriteThatStoppedMidLineIsAFrameOfItsOwnBeforeWhatCameAfterIt() throws IOException {
    frames.add(true, 1, bytes("{\"type\":\"a\","), false);
    frames.add(false, 2, bytes("warning\n"), false);
    frames.add(true, 300, bytes("\"b\":1}\n"), false);

    assertThat(seen()).containsExactly(
        "OUT@1 {\"type\":\"a\",",
        "ERR@2 warning\n",
        "OUT@300 \"b\":1}\n");
  }

  @Test
  void stderrHeldBehindAnUnfinishedLineIsBoundedAndThenTheLineCountsAsAPartialWrite()
      throws IOException {
    frames.add(true, 1, bytes("{\"type\":\"a\","), false);
    byte[] block = new byte[1 << 20];
    Arrays.fill(block, (byte) 'e');
    int blocks = ChunkFrames.HELD_LIMIT / block.length + 1;
    for (int i = 0; i < blocks; i++) {
      frames.add(false, 2 + i, block, false);
    }

    assertThat(pieces).as("given out before the run ends").hasSize(1 + blocks);
    assertThat(pieces.get(0).kind()).isEqualTo(Piece.Kind.OUT);
    assertThat(pieces.get(0).bytes()).isEqualTo(bytes("{\"type\":\"a\","));
    assertThat(pieces.subList(1, pieces.size())).allMatch(p -> p.kind() == Piece.Kind.ERR);

    frames.add(true, 50, bytes("\"b\":1}\n"), true);
    assertThat(seen().get(seen().size() - 1)).isEqualTo("OUT@50 \"b\":1}\n");
  }

  @Test
  void aCharacterSplitAcrossReadsIsReassembledOnEachStream() throws IOException {
    byte[] smile = bytes("😀");
    frames.add(false, 1, Arrays.copyOfRange(smile, 0, 1), false);
    frames.add(true, 2, bytes("{\"t\":\"é"), false);
    frames.add(false, 3, Arrays.copyOfRange(smile, 1, 4), false);
    frames.add(true, 4, bytes("\"}\n"), true);
    frames.finish();

    assertThat(seen()).containsExactly("ERR@3 😀", "JSON@4 {\"t\":\"é\"}");
  }

  @Test
  void timeNeverGoesBackwards() throws IOException {
    frames.add(false, 10, bytes("a\n"), false);
    frames.add(false, 7, bytes("b\n"), false);

    assertThat(seen()).containsExactly("ERR@10 a\n", "ERR@10 b\n");
  }

  @Test
  void whatIsLeftUnfinishedAtTheEndIsKept() throws IOException {
    frames.add(true, 1, bytes("no newline"), false);
    frames.add(false, 2, new byte[] {(byte) 0xe2, (byte) 0x9c}, false);
    frames.finish();

    assertThat(pieces).extracting(Piece::kind).containsExactly(Piece.Kind.OUT, Piece.Kind.ERR);
    assertThat(pieces.get(1).bytes()).containsExactly(0xe2, 0x9c);
  }
}
