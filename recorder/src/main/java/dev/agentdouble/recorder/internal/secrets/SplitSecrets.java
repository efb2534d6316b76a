package dev.agentdouble.recorder.internal.secrets;

import dev.agentdouble.recorder.internal.scan.Piece;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Redacts secrets that no single frame holds whole: written in two pieces, or cut by a pipe read, a
 * secret's start ends one raw stdout or stderr frame and its rest begins a later frame of the same
 * stream. Frames come in already cleaned one by one; each raw frame is held until enough of its
 * stream has followed it ({@link Secrets#longestInBytes} less one byte) or its stream's run of raw
 * bytes ended (a stdout JSON line ends stdout's), and the bytes across each boundary are searched.
 * The marker goes where the secret starts, the rest of it is cut from the frames that held it, and
 * a frame left with no bytes is dropped.
 *
 * <p>Held frames are bounded ({@link #HELD_LIMIT} bytes, {@link #HELD_FRAMES} frames): past either
 * the oldest is given out as it is, so a secret split across writes separated by that much output
 * of the other stream is only cut from the later frame.
 */
public final class SplitSecrets implements Piece.Sink {
  static final int HELD_LIMIT = 8 << 20;
  static final int HELD_FRAMES = 4096;

  /** A frame on hold: its bytes may still change. */
  private static final class Held {
    Piece piece;
    byte[] bytes;

    /** Bytes of its stream that came after it (while it is held). */
    long after;

    /** Its stream's run of raw bytes ended after it. */
    boolean closed;

    Held(Piece piece) {
      this.piece = piece;
      this.bytes = piece.bytes();
    }

    boolean raw() {
      return piece.kind() == Piece.Kind.OUT || piece.kind() == Piece.Kind.ERR;
    }
  }

  private final UnaryOperator<Piece> each;
  private final Secrets secrets;
  private final int reach;
  private final Map<String, Integer> counts;
  private final Piece.Sink next;
  private final ArrayDeque<Held> held = new ArrayDeque<>();
  private long heldBytes;

  /**
   * @param each cleans one frame on its own
   * @param secrets what to look for across frames
   * @param counts where replacements are counted
   * @param next where frames go once they can no longer change
   */
  SplitSecrets(
      UnaryOperator<Piece> each, Secrets secrets, Map<String, Integer> counts, Piece.Sink next) {
    this.each = each;
    this.secrets = secrets;
    this.reach = Math.max(0, secrets.longestInBytes() - 1);
    this.counts = counts;
    this.next = next;
  }

  @Override
  public void accept(Piece uncleaned) throws IOException {
    Piece piece = each.apply(uncleaned);
    if (reach == 0) {
      next.accept(piece);
      return;
    }
    Held h = new Held(piece);
    if (piece.kind() == Piece.Kind.JSON) {
      for (Held earlier : held) {
        earlier.closed |= earlier.piece.kind() == Piece.Kind.OUT;
      }
    } else if (h.raw()) {
      join(h);
      for (Held earlier : held) {
        if (earlier.piece.kind() == piece.kind()) {
          earlier.after += h.bytes.length;
        }
      }
    }
    held.add(h);
    heldBytes += h.bytes.length;
    release(false);
  }

  /** Gives out everything still held: the run is over. */
  public void finish() throws IOException {
    release(true);
  }

  /** Finds a secret across the boundary before {@code h}, and cuts it out. */
  private void join(Held h) {
    // the open frames of h's stream just before it, enough of them to reach back far enough
    List<Held> before = new ArrayList<>();
    long back = 0;
    for (Iterator<Held> it = held.descendingIterator(); it.hasNext() && back < reach; ) {
      Held e = it.next();
      if (e.piece.kind() == h.piece.kind() && !e.closed) {
        before.add(0, e);
        back += e.bytes.length;
      }
    }
    if (before.isEmpty()) {
      return;
    }
    // the window: the last `reach` bytes of those frames, then the first `reach` bytes of h
    int skip = (int) Math.max(0, back - reach);
    int boundary = (int) (back - skip);
    byte[] window = new byte[boundary + Math.min(h.bytes.length, reach)];
    int[] starts = new int[before.size()]; // where each frame's first byte is, in the window
    int g = 0;
    for (int k = 0; k < before.size(); k++) {
      byte[] b = before.get(k).bytes;
      starts[k] = g - skip;
      int from = Math.max(0, skip - g);
      if (from < b.length) {
        System.arraycopy(b, from, window, g + from - skip, b.length - from);
      }
      g += b.length;
    }
    System.arraycopy(h.bytes, 0, window, boundary, window.length - boundary);
    for (Secrets.Hit hit : secrets.hitsIn(window)) {
      if (hit.start() >= boundary || hit.end() <= boundary) {
        continue; // whole on one side: the frame's own cleaning saw it
      }
      // it ends in h: the frame where it starts keeps what came before it and gets the marker,
      // the frames between lose all their bytes, h loses its start
      for (int k = 0; k < before.size(); k++) {
        Held e = before.get(k);
        int from = starts[k];
        if (hit.start() >= from + e.bytes.length) {
          continue;
        }
        byte[] kept;
        if (hit.start() >= from) {
          int keep = hit.start() - from;
          kept = Arrays.copyOf(e.bytes, keep + hit.replacement().length);
          System.arraycopy(hit.replacement(), 0, kept, keep, hit.replacement().length);
        } else {
          kept = new byte[0];
        }
        heldBytes += kept.length - e.bytes.length;
        e.bytes = kept;
      }
      h.bytes = Arrays.copyOfRange(h.bytes, hit.end() - boundary, h.bytes.length);
      counts.merge(hit.source(), 1, Integer::sum);
      return; // no other occurrence can span the same point
    }
  }

  private void release(boolean all) throws IOException {
    while (!held.isEmpty()) {
      Held front = held.peekFirst();
      boolean done =
          all
              || !front.raw()
              || front.closed
              || front.after >= reach
              || heldBytes > HELD_LIMIT
              || held.size() > HELD_FRAMES;
      if (!done) {
        return;
      }
      held.removeFirst();
      heldBytes -= front.bytes.length;
      if (!front.raw()) {
        next.accept(front.piece);
      } else if (front.bytes.length > 0) { // a frame that held only part of a secret is dropped
        next.accept(front.piece.with(front.bytes));
      }
    }
  }
}
