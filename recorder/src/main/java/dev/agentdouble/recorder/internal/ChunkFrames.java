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
 *
 * <p>A read that ends mid-line is not always a write that did: a line longer than the pipe holds
 * (64 KiB) takes several reads however it was written. So the unfinished end of a stdout line
 * waits, like a split character, for the next stdout read; when that read <em>continues</em> the
 * same write (see {@link #add}) the line goes on in it, and only otherwise does the waiting part
 * become an {@code outRaw} frame of its own, at its own time.
 */
final class ChunkFrames {
  private final List<Frame> frames = new ArrayList<>();
  private byte[] outCarry = new byte[0];
  private byte[] errCarry = new byte[0];
  /** The current stdout line's bytes that are not a frame yet. */
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private boolean lineStartedEarlier;
  private long lastT;
  private long pendingT;
  /** Where in {@link #frames} the pending bytes go if they become a frame of their own. */
  private int pendingIndex;

  /**
   * Adds one read's bytes of stdout ({@code stdout} true) or stderr at {@code t} ms. For stdout,
   * {@code continues} says the read carried on the previous read's write rather than a new one
   * (the previous read filled the buffer, or this one found data at once): then a line the
   * previous read left unfinished is continued by this read instead of being a partial write.
   */
  void add(boolean stdout, long t, byte[] chunk, boolean continues) {
    t = Math.max(t, lastT);
    lastT = t;
    byte[] data = concat(stdout ? outCarry : errCarry, chunk);
    int complete = completeUtf8(data);
    byte[] carry = Arrays.copyOfRange(data, complete, data.length);
    if (stdout) {
      outCarry = carry;
      if (!continues) {
        emitPending();
      }
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
      // the read stops mid-line: wait for the next read to tell a partial write from a long one
      line.write(data, start, len - start);
      pendingT = t;
      pendingIndex = frames.size();
    }
  }

  /** The unfinished end of a line was a write that stopped mid-line: its bytes, as they came. */
  private void emitPending() {
    if (line.size() > 0) {
      frames.add(pendingIndex, new Frame.OutBytes(pendingT, line.toByteArray()));
      line.reset();
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
    emitPending();
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
