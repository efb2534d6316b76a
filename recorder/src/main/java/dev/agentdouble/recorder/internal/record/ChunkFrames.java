package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.Piece;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
  /**
   * How many bytes of stderr may wait behind a stdout line that a read left unfinished. Past it the
   * unfinished part is taken to be a partial write, and its frame is given out, so that memory
   * stays bounded however much stderr a long stdout line is interleaved with.
   */
  static final int HELD_LIMIT = 8 << 20;

  private final Piece.Sink sink;
  private byte[] outCarry = new byte[0];
  private byte[] errCarry = new byte[0];

  /** The current stdout line's bytes that are not a frame yet. */
  private final LineBuffer line = new LineBuffer();

  /** A line's bytes, read in place once the line is whole: a long line is not copied twice. */
  private static final class LineBuffer extends ByteArrayOutputStream {
    /** The bytes written since the last reset are {@code [0, size())} of this array. */
    byte[] array() {
      return buf;
    }
  }

  private boolean lineStartedEarlier;
  private long lastT;
  private long pendingT;

  /** Frames made while the current line waits: they go after it, if it becomes a frame. */
  private final List<Piece> held = new ArrayList<>();

  private long heldBytes;

  /** Frames go to {@code sink} as soon as their place is known. */
  ChunkFrames(Piece.Sink sink) {
    this.sink = sink;
  }

  /**
   * Adds one read's bytes of stdout ({@code stdout} true) or stderr at {@code t} ms. For stdout,
   * {@code continues} says the read carried on the previous read's write rather than a new one (the
   * previous read filled the buffer, or this one found data at once): then a line the previous read
   * left unfinished is continued by this read instead of being a partial write.
   */
  void add(boolean stdout, long t, byte[] chunk, boolean continues) throws IOException {
    t = Math.max(t, lastT);
    lastT = t;
    byte[] data = concat(stdout ? outCarry : errCarry, chunk);
    int complete = completeUtf8(data);
    byte[] carry = complete == data.length ? NONE : Arrays.copyOfRange(data, complete, data.length);
    if (stdout) {
      outCarry = carry;
      if (!continues) {
        emitPending();
        releaseHeld();
      } else if (complete > 0) {
        releaseHeld(); // what this read adds to the line comes after what waited
      } // a read that only holds part of a character leaves the waiting line where it was
      stdout(t, data, complete);
    } else {
      errCarry = carry;
      if (complete > 0) {
        emit(Piece.err(t, complete == data.length ? data : Arrays.copyOf(data, complete)));
      }
    }
  }

  private void stdout(long t, byte[] data, int len) throws IOException {
    int start = 0;
    for (int i = 0; i < len; i++) {
      if (data[i] == '\n') {
        if (line.size() == 0 && !lineStartedEarlier) {
          line(t, data, start, i); // a whole line in this read: no copy into the line buffer
        } else {
          line.write(data, start, i + 1 - start);
          flushLine(t);
        }
        start = i + 1;
      }
    }
    if (start < len) {
      // the read stops mid-line: wait for the next read to tell a partial write from a long one
      line.write(data, start, len - start);
      pendingT = t;
    }
  }

  /** A frame, now or after the unfinished line it must follow. */
  private void emit(Piece piece) throws IOException {
    if (line.size() == 0) {
      sink.accept(piece);
      return;
    }
    held.add(piece);
    heldBytes += piece.bytes().length;
    if (heldBytes > HELD_LIMIT) {
      emitPending();
      releaseHeld();
    }
  }

  private void releaseHeld() throws IOException {
    for (Piece p : held) {
      sink.accept(p);
    }
    held.clear();
    heldBytes = 0;
  }

  /** The unfinished end of a line was a write that stopped mid-line: its bytes, as they came. */
  private void emitPending() throws IOException {
    if (line.size() > 0) {
      sink.accept(Piece.out(pendingT, line.toByteArray()));
      line.reset();
      lineStartedEarlier = true;
    }
  }

  private void flushLine(long t) throws IOException {
    if (lineStartedEarlier) {
      byte[] bytes = line.toByteArray();
      line.reset();
      sink.accept(Piece.out(t, bytes));
      lineStartedEarlier = false;
      return;
    }
    // the line is made a frame from the buffer itself, which is empty again from here on
    int n = line.size();
    line.reset();
    line(t, line.array(), 0, n - 1);
  }

  /** A whole line, {@code data[from, newline)} and its newline: JSON, or bytes as they came. */
  private void line(long t, byte[] data, int from, int newline) throws IOException {
    if (JsonText.isCompactValue(data, from, newline - from)) {
      sink.accept(Piece.json(t, Arrays.copyOfRange(data, from, newline)));
    } else {
      sink.accept(Piece.out(t, Arrays.copyOfRange(data, from, newline + 1)));
    }
  }

  private int notJson;

  /**
   * A whole line an ACP client wrote, at {@code t} ms: an {@code in} frame of its JSON value, in
   * its place among the agent's output. A line that is not JSON is counted ({@link #notJson}), not
   * kept: an {@code in} frame holds a message.
   */
  void client(long t, byte[] line) throws IOException {
    t = Math.max(t, lastT);
    lastT = t;
    int end = line.length;
    if (end > 0 && line[end - 1] == '\r') {
      end--;
    }
    if (JsonText.syntaxError(line, 0, end).isPresent() || isBlank(line, end)) {
      if (!isBlank(line, end)) {
        notJson++;
      }
      return;
    }
    emit(Piece.in(t, JsonText.compact(line, 0, end)));
  }

  /** How many lines the client wrote that were not JSON, and so are not in the tape. */
  int notJson() {
    return notJson;
  }

  private static boolean isBlank(byte[] line, int end) {
    for (int i = 0; i < end; i++) {
      if (line[i] != ' ' && line[i] != '\t') {
        return false;
      }
    }
    return true;
  }

  /** Gives out what is left: a partial last line, the bytes of a character never completed. */
  void finish() throws IOException {
    emitPending();
    releaseHeld();
    if (outCarry.length > 0) {
      sink.accept(Piece.out(lastT, outCarry));
      outCarry = NONE;
    }
    if (errCarry.length > 0) {
      sink.accept(Piece.err(lastT, errCarry));
      errCarry = NONE;
    }
  }

  long lastT() {
    return lastT;
  }

  private static final byte[] NONE = new byte[0];

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
