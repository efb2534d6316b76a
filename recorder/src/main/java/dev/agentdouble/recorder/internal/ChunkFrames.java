package dev.agentdouble.recorder.internal;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.internal.JsonText;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Turns captured chunks (what each read of the child's stdout or stderr returned, in time order)
 * into frames. A stdout line that is one compact JSON value becomes an {@code out} frame; a write
 * that ends mid-line becomes an {@code outRaw} frame and so does the rest of that line; stderr
 * keeps its chunks. A multi-byte character split across two reads is reassembled: the incomplete
 * tail waits for the next read of the same stream, so no frame ever holds half a character.
 */
final class ChunkFrames {
  private final List<Frame> frames = new ArrayList<>();
  private byte[] outCarry = new byte[0];
  private byte[] errCarry = new byte[0];
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean lineStartedEarlier;
  private long lastT;

  /** Adds one read's bytes of stdout ({@code stdout} true) or stderr at {@code t} ms. */
  void add(boolean stdout, long t, byte[] chunk) {
    t = Math.max(t, lastT);
    lastT = t;
    byte[] data = concat(stdout ? outCarry : errCarry, chunk);
    int complete = completeUtf8(data);
    byte[] carry = Arrays.copyOfRange(data, complete, data.length);
    if (stdout) {
      outCarry = carry;
      stdout(t, data, complete);
    } else {
      errCarry = carry;
      if (complete > 0) {
        frames.add(new Frame.Err(t, Arrays.copyOf(data, complete)));
      }
    }
  }

  private void stdout(long t, byte[] data, int len) {
    int start = 0;
    for (int i = 0; i < len; i++) {
      if (data[i] == '\n') {
        line.write(data, start, i + 1 - start);
        flushLine(t, true);
        start = i + 1;
      }
    }
    if (start < len) {
      // a write that stops mid-line: the bytes go out as they came
      byte[] partial = Arrays.copyOfRange(data, start, len);
      frames.add(new Frame.OutBytes(t, partial));
      lineStartedEarlier = true;
    }
  }

  private void flushLine(long t, boolean newline) {
    byte[] bytes = line.toByteArray();
    line.reset();
    if (lineStartedEarlier) {
      frames.add(new Frame.OutBytes(t, bytes));
      lineStartedEarlier = false;
      return;
    }
    int len = newline ? bytes.length - 1 : bytes.length;
    if (newline && JsonText.isCompactValue(bytes, 0, len)) {
      frames.add(new Frame.Out(t, new String(bytes, 0, len, StandardCharsets.UTF_8)));
    } else {
      frames.add(new Frame.OutBytes(t, bytes));
    }
  }

  /** The frames so far, plus what is left unfinished (bytes of a character never completed). */
  List<Frame> finish() {
    if (outCarry.length > 0) {
      frames.add(new Frame.OutBytes(lastT, outCarry));
      outCarry = new byte[0];
    }
    if (errCarry.length > 0) {
      frames.add(new Frame.Err(lastT, errCarry));
      errCarry = new byte[0];
    }
    return frames;
  }

  long lastT() {
    return lastT;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    if (a.length == 0) {
      return b;
    }
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** The length of {@code data} without an incomplete UTF-8 sequence at its end. */
  static int completeUtf8(byte[] data) {
    int n = data.length;
    // look back at most 3 bytes for the start of the last sequence
    for (int back = 1; back <= Math.min(3, n); back++) {
      int b = data[n - back] & 0xff;
      if ((b & 0xc0) == 0x80) {
        continue; // a continuation byte: keep looking for the lead
      }
      int need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 1;
      return back < need ? n - back : n;
    }
    return n;
  }
}
