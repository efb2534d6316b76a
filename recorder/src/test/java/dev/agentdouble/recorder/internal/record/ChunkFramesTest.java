package dev.agentdouble.recorder.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.tape.Frame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Reads of stdout and stderr, in the order they came, into frames given out as soon as placed. */
class ChunkFramesTest {
  private final List<Piece> pieces = new ArrayList<>();
  private final ChunkFrames frames = new ChunkFrames(pieces::add);

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private List<String> seen() {
    return pieces.stream()
        .map(p -> p.kind() + "@" + p.t() + " " + new String(p.bytes(), StandardCharsets.UTF_8))
        .toList();
  }

  @Test
  void wholeLinesInOneReadBecomeJsonOrRawFramesAtOnce() throws IOException {
    frames.add(true, 5, bytes("{\"type\":\"a\"}\n{ \"spaced\": 1 }\nplain\n"), false);

    assertThat(seen())
        .containsExactly("JSON@5 {\"type\":\"a\"}", "OUT@5 { \"spaced\": 1 }\n", "OUT@5 plain\n");
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

    assertThat(seen())
        .containsExactly("OUT@1 {\"type\":\"a\",", "ERR@2 warning\n", "OUT@300 \"b\":1}\n");
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

  /**
   * Random runs, cut into random reads (lines split anywhere, characters split across reads, stderr
   * interleaved, writes that continue or not): the frames given out as soon as placed are those the
   * first, list-based framing made once the run was over.
   */
  @Test
  void givesTheFramesTheWholeRunFramingGave() throws IOException {
    Random random = new Random(4);
    String[] lines = {
      "{\"type\":\"a\",\"text\":\"héllo ✓ 😀\"}\n",
      "{ \"spaced\": 1 }\n",
      "plain text ünïcödé\n",
      "{\"type\":\"b\"}\n",
      "[1,2,3]\n",
      "\n",
      "no newline"
    };
    for (int round = 0; round < 3000; round++) {
      List<Piece> got = new ArrayList<>();
      ChunkFrames streamed = new ChunkFrames(got::add);
      Reference reference = new Reference();
      ByteArrayOutputStream stdout = new ByteArrayOutputStream();
      for (int k = random.nextInt(6); k >= 0; k--) {
        stdout.writeBytes(bytes(lines[random.nextInt(lines.length)]));
      }
      byte[] out = stdout.toByteArray();
      byte[] err = bytes("warn ✓ " + round + "\nsecond 😀 line\n");
      int o = 0;
      int e = 0;
      long t = 0;
      while (o < out.length || e < err.length) {
        t += random.nextInt(3);
        boolean toOut = e >= err.length || (o < out.length && random.nextBoolean());
        byte[] from = toOut ? out : err;
        int at = toOut ? o : e;
        int n = 1 + random.nextInt(Math.min(new int[] {3, 12, 80}[round % 3], from.length - at));
        byte[] chunk = Arrays.copyOfRange(from, at, at + n);
        boolean continues = random.nextInt(3) == 0;
        streamed.add(toOut, t, chunk, continues);
        reference.add(toOut, t, chunk, continues);
        if (toOut) {
          o += n;
        } else {
          e += n;
        }
      }
      streamed.finish();

      assertThat(got.stream().map(Piece::toFrame).toList())
          .as("round %d", round)
          .containsExactlyElementsOf(reference.finish());
    }
  }

  /** The framing as it was first written: every frame in a list, placed when the run is over. */
  private static final class Reference {
    private final List<Frame> frames = new ArrayList<>();
    private byte[] outCarry = new byte[0];
    private byte[] errCarry = new byte[0];
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private boolean lineStartedEarlier;
    private long lastT;
    private long pendingT;
    private int pendingIndex;

    void add(boolean stdout, long t, byte[] chunk, boolean continues) {
      t = Math.max(t, lastT);
      lastT = t;
      byte[] data = concat(stdout ? outCarry : errCarry, chunk);
      int complete = ChunkFrames.completeUtf8(data);
      byte[] carry = Arrays.copyOfRange(data, complete, data.length);
      if (stdout) {
        outCarry = carry;
        if (!continues) {
          emitPending();
        }
        int start = 0;
        for (int i = 0; i < complete; i++) {
          if (data[i] == '\n') {
            line.write(data, start, i + 1 - start);
            flushLine(t);
            start = i + 1;
          }
        }
        if (start < complete) {
          line.write(data, start, complete - start);
          pendingT = t;
          pendingIndex = frames.size();
        }
      } else {
        errCarry = carry;
        if (complete > 0) {
          frames.add(new Frame.Err(t, Arrays.copyOf(data, complete)));
        }
      }
    }

    private void emitPending() {
      if (line.size() > 0) {
        frames.add(pendingIndex, new Frame.OutBytes(pendingT, line.toByteArray()));
        line.reset();
        lineStartedEarlier = true;
      }
    }

    private void flushLine(long t) {
      byte[] bytes = line.toByteArray();
      line.reset();
      if (lineStartedEarlier) {
        frames.add(new Frame.OutBytes(t, bytes));
        lineStartedEarlier = false;
        return;
      }
      int len = bytes.length - 1;
      if (JsonText.isCompactValue(bytes, 0, len)) {
        frames.add(new Frame.Out(t, new String(bytes, 0, len, StandardCharsets.UTF_8)));
      } else {
        frames.add(new Frame.OutBytes(t, bytes));
      }
    }

    List<Frame> finish() {
      emitPending();
      if (outCarry.length > 0) {
        frames.add(new Frame.OutBytes(lastT, outCarry));
      }
      if (errCarry.length > 0) {
        frames.add(new Frame.Err(lastT, errCarry));
      }
      return frames;
    }

    private static byte[] concat(byte[] a, byte[] b) {
      byte[] out = Arrays.copyOf(a, a.length + b.length);
      System.arraycopy(b, 0, out, a.length, b.length);
      return out;
    }
  }
}
