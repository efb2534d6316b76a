package dev.agentdouble.recorder;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

/** What a tape's frames say, in forms that assertions can compare and print readably. */
final class Frames {
  private Frames() {}

  static Tape read(Path file) {
    try {
      return Tape.read(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Each frame without its time: {@code out {...}}, {@code outRaw "text"}, {@code err "text"},
   * {@code exit 3}, {@code kill SIGKILL}; bytes that are not UTF-8 show as {@code outBytes HEX}.
   */
  static List<String> kinds(Tape tape) {
    return tape.frames().stream().map(Frames::kind).toList();
  }

  static String kind(Frame f) {
    if (f instanceof Frame.Out o) {
      return "out " + o.json();
    } else if (f instanceof Frame.OutBytes o) {
      return text("outRaw", "outBytes", o.bytes());
    } else if (f instanceof Frame.Err e) {
      return text("err", "errBytes", e.bytes());
    } else if (f instanceof Frame.Exit e) {
      return "exit " + e.code();
    } else if (f instanceof Frame.Kill k) {
      return "kill " + k.signal();
    }
    return f.toString();
  }

  private static String text(String name, String bytesName, byte[] bytes) {
    var decoder = StandardCharsets.UTF_8.newDecoder();
    try {
      return name + " " + decoder.decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return bytesName + " " + HexFormat.of().formatHex(bytes);
    }
  }

  /** What a replay writes on stdout: every {@code out} value and a newline, every raw byte. */
  static byte[] stdout(Tape tape) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Out o) {
        bytes.writeBytes((o.json() + "\n").getBytes(StandardCharsets.UTF_8));
      } else if (f instanceof Frame.OutBytes o) {
        bytes.writeBytes(o.bytes());
      }
    }
    return bytes.toByteArray();
  }

  /** What a replay writes on stderr. */
  static byte[] stderr(Tape tape) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Err e) {
        bytes.writeBytes(e.bytes());
      }
    }
    return bytes.toByteArray();
  }

  /** {@code "N bytes, sha256 HEX"} of the stdout (true) or stderr a replay of the tape writes. */
  static String digest(Tape tape, boolean stdout) {
    MessageDigest md = Child.sha256();
    long n = 0;
    for (Frame f : tape.frames()) {
      byte[] b = null;
      if (stdout && f instanceof Frame.Out o) {
        b = (o.json() + "\n").getBytes(StandardCharsets.UTF_8);
      } else if (stdout && f instanceof Frame.OutBytes o) {
        b = o.bytes();
      } else if (!stdout && f instanceof Frame.Err e) {
        b = e.bytes();
      }
      if (b != null) {
        md.update(b);
        n += b.length;
      }
    }
    return n + " bytes, sha256 " + HexFormat.of().formatHex(md.digest());
  }
}
