package dev.agentdouble.recorder.internal.scan;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.FrameLine;
import dev.agentdouble.tape.TapeWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A frame on its way through the recorder. Stdout JSON lines stay bytes from the pipe to the tape
 * (never decoded into text and encoded again); other frames ride along as they are.
 *
 * @param t milliseconds since the process started
 * @param kind what it is
 * @param bytes for {@link Kind#JSON} and {@link Kind#IN}: the line's value, one compact JSON value,
 *     without the newline; for {@link Kind#OUT} and {@link Kind#ERR}: the bytes written; otherwise
 *     empty
 * @param frame for {@link Kind#OTHER}: the frame; otherwise {@code null}
 */
public record Piece(long t, Kind kind, byte[] bytes, Frame frame) {
  public enum Kind {
    /** A stdout line holding a compact JSON value: an {@code out} frame. */
    JSON,
    /** Stdout bytes kept verbatim: {@code outRaw} or {@code outB64}. */
    OUT,
    /** Stderr bytes. */
    ERR,
    /** A message an ACP client sent, one compact JSON value: an {@code in} frame. */
    IN,
    /** Any other frame: a gate or an ending. */
    OTHER
  }

  private static final byte[] NONE = new byte[0];

  public static Piece json(long t, byte[] json) {
    return new Piece(t, Kind.JSON, json, null);
  }

  public static Piece out(long t, byte[] bytes) {
    return new Piece(t, Kind.OUT, bytes, null);
  }

  public static Piece err(long t, byte[] bytes) {
    return new Piece(t, Kind.ERR, bytes, null);
  }

  public static Piece in(long t, byte[] json) {
    return new Piece(t, Kind.IN, json, null);
  }

  public static Piece of(Frame f) {
    if (f instanceof Frame.Out o) {
      return json(o.t(), o.json().getBytes(StandardCharsets.UTF_8));
    }
    if (f instanceof Frame.OutBytes o) {
      return out(o.t(), o.bytes());
    }
    if (f instanceof Frame.Err e) {
      return err(e.t(), e.bytes());
    }
    if (f instanceof Frame.In i) {
      return in(i.t(), i.json().getBytes(StandardCharsets.UTF_8));
    }
    return new Piece(f.t(), Kind.OTHER, NONE, f);
  }

  /** The same piece with other bytes (the kind's meaning of them). */
  public Piece with(byte[] replaced) {
    return replaced == bytes ? this : new Piece(t, kind, replaced, frame);
  }

  public Frame toFrame() {
    return switch (kind) {
      case JSON -> new Frame.Out(t, new String(bytes, StandardCharsets.UTF_8));
      case OUT -> new Frame.OutBytes(t, bytes);
      case ERR -> new Frame.Err(t, bytes);
      case IN -> new Frame.In(t, new String(bytes, StandardCharsets.UTF_8));
      case OTHER -> frame;
    };
  }

  /** Writes the piece's frame line, with its newline. */
  public void writeTo(OutputStream out) throws IOException {
    if (kind == Kind.JSON) {
      FrameLine.writeOut(t, bytes, out);
    } else if (kind == Kind.IN) {
      FrameLine.writeIn(t, bytes, out);
    } else {
      TapeWriter.writeFrame(toFrame(), out);
    }
  }

  /** Something that takes pieces one at a time, in order. */
  @FunctionalInterface
  public interface Sink {
    void accept(Piece piece) throws IOException;
  }

  /** Pieces that can be gone through, in order, as often as needed. */
  @FunctionalInterface
  public interface Source {
    void forEach(Sink sink) throws IOException;

    /** The frames, each made a piece once however often they are gone through. */
    static Source of(List<Frame> frames) {
      List<Piece> pieces = frames.stream().map(Piece::of).toList();
      return sink -> {
        for (Piece p : pieces) {
          sink.accept(p);
        }
      };
    }
  }
}
