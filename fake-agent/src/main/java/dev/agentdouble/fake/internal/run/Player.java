package dev.agentdouble.fake.internal.run;

import dev.agentdouble.contract.Timing;
import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.fake.internal.process.FrameClock;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.FrameLine;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.TapeScanner;
import dev.agentdouble.variants.Variants;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plays a tape: validates all of it first (a bad tape writes nothing on stdout), then writes each
 * frame with one write call at its due time, and returns how the run ends. Memory grows with the
 * longest line, not with the tape.
 */
public final class Player {
  /** Turns the frames of a stream-json tape into another output format, frame by frame. */
  public interface Transform {
    List<Frame> next(Frame frame);

    /**
     * The frames as {@code renderer} renders them. An inner class, not a method reference: a lambda
     * on the start-up path of every json and text run would spin classes at run time.
     */
    static Transform rendering(Renderer renderer) {
      return new Transform() {
        @Override
        public List<Frame> next(Frame frame) {
          return renderer.next(frame);
        }
      };
    }
  }

  private final TapeSource source;
  private final Timing timing;
  private long lastT;
  private long lastDue;
  private final long originNanos;
  private final Substitution substitution;
  private final Transform transform;
  private final OutputStream stdout;
  private final OutputStream stderr;
  private final Gates gates;
  private final long pid;
  private final ByteBuf line = new ByteBuf();
  private boolean stdoutClosed;

  /** For the kernel's copies: the tape file, stdout, and the bytes around a value. */
  private FileChannel tape;

  private FileChannel out;
  private final byte[] around = new byte[48];

  public Player(
      TapeSource source,
      Timing timing,
      long originNanos,
      Substitution substitution,
      Transform transform,
      OutputStream stdout,
      OutputStream stderr,
      Gates gates,
      long pid) {
    this.gates = gates;
    this.pid = pid;
    this.source = source;
    this.timing = timing;
    this.originNanos = originNanos;
    this.substitution = substitution;
    this.transform = transform;
    this.stdout = stdout;
    this.stderr = stderr;
  }

  /** The least size of an {@code out} value the kernel copies from the tape file to stdout. */
  static final int KERNEL_COPY = 64 * 1024;

  /**
   * A tape that passed validation: its header, how it ends, the (rare) lines whose {@code out}
   * value has whitespace to remove, in ascending order, and where its big compact values are.
   */
  public record Checked(
      Header header, Frame.Ending ending, int[] notCompactLines, List<BigValue> bigValues) {
    public Checked {
      bigValues = List.copyOf(bigValues);
    }
  }

  /**
   * A compact {@code out} value of at least {@link #KERNEL_COPY} bytes on a line in the writer's
   * form, {@code {"t":N,"out":VALUE}}: the line's number, and where the line and the value start
   * and the value ends (the frame's closing brace) in the tape.
   */
  public record BigValue(int line, long lineStart, long valueStart, long valueEnd) {}

  /** Reads the whole tape once, checking every line; returns what replay needs to know. */
  public static Checked validate(TapeSource source) throws IOException {
    try (InputStream in = source.open()) {
      TapeScanner scanner = new TapeScanner(source.name(), in);
      Frame.Ending ending = null;
      int[] notCompact = new int[0];
      int count = 0;
      List<BigValue> big = new ArrayList<>();
      FrameLine shape = new FrameLine();
      while (scanner.next()) {
        FrameLine f = scanner.frame();
        if (f.kind == FrameLine.Kind.OUT && !f.compact) {
          if (count == notCompact.length) {
            notCompact = Arrays.copyOf(notCompact, Math.max(8, count * 2));
          }
          notCompact[count++] = scanner.line();
        } else if (f.kind == FrameLine.Kind.OUT && f.valueEnd - f.valueStart >= KERNEL_COPY) {
          byte[] buf = scanner.buffer();
          if (sliceOut(buf, scanner.offset(), scanner.length(), shape)
              && shape.valueStart == f.valueStart
              && shape.valueEnd == f.valueEnd) {
            big.add(
                new BigValue(
                    scanner.line(),
                    scanner.position(scanner.offset()),
                    scanner.position(f.valueStart),
                    scanner.position(f.valueEnd)));
          }
        } else if (f.kind.terminal()) {
          ending = ending(f);
        }
      }
      return new Checked(scanner.header(), ending, Arrays.copyOf(notCompact, count), big);
    }
  }

  /**
   * Whether the stream of a tape that {@link #validate} accepted already holds partial-output
   * deltas ({@link Variants.PartialOutput#isDelta}): a capture made with {@code
   * --stream-partial-output}, whatever its header says. Read only when a run asks for the flag and
   * the header's {@code argv} does not have it.
   */
  public static boolean holdsDeltas(TapeSource source) throws IOException {
    try (InputStream in = source.open()) {
      TapeScanner scanner = new TapeScanner(source.name(), in);
      while (scanner.next()) {
        FrameLine f = scanner.frame();
        if (f.kind == FrameLine.Kind.OUT) {
          byte[] buf = scanner.buffer();
          byte[] event =
              f.compact
                  ? Arrays.copyOfRange(buf, f.valueStart, f.valueEnd)
                  : JsonText.compact(buf, f.valueStart, f.valueEnd - f.valueStart);
          if (Variants.PartialOutput.isDelta(event)) {
            return true;
          }
        }
      }
      return false;
    }
  }

  /**
   * Whether a stdout frame of a tape that {@link #validate} accepted ({@code checked}) holds {@code
   * marker}: an {@code out} value as the CLI printed it (compact), the bytes of an {@code outRaw}
   * or {@code outB64} one. One read of the file, each line in the writer's form, {@code
   * {"t":N,"out":VALUE}}, sliced without a parser (validation parsed it), any other parsed again;
   * it stops at the terminal frame. A face's question about what the tape prints, before it plays.
   */
  public static boolean outHolds(TapeSource source, Checked checked, byte[] marker)
      throws IOException {
    FrameLine f = new FrameLine();
    try (InputStream in = source.open()) {
      LineReader lines = new LineReader(in);
      if (!next(source, lines)) {
        return false;
      }
      while (next(source, lines)) { // after the header
        byte[] buf = lines.buffer();
        int line = lines.lineNumber();
        if (!sliceOut(buf, lines.offset(), lines.length(), f)) {
          f.parse(source.name(), line, buf, lines.offset(), lines.length());
        }
        boolean holds;
        if (f.kind == FrameLine.Kind.OUT) {
          if (Arrays.binarySearch(checked.notCompactLines(), line) >= 0) {
            byte[] value = JsonText.compact(buf, f.valueStart, f.valueEnd - f.valueStart);
            holds = contains(value, 0, value.length, marker);
          } else {
            holds = contains(buf, f.valueStart, f.valueEnd, marker);
          }
        } else {
          holds =
              (f.kind == FrameLine.Kind.OUT_RAW || f.kind == FrameLine.Kind.OUT_B64)
                  && contains(f.bytes, 0, f.bytes.length, marker);
        }
        if (holds) {
          return true;
        }
        if (f.kind.terminal()) {
          break;
        }
      }
    }
    return false;
  }

  private static boolean next(TapeSource source, LineReader lines) throws IOException {
    try {
      return lines.next();
    } catch (LineReader.TooLong e) {
      throw new TapeException(source.name(), e.line(), e.getMessage());
    }
  }

  /** Whether {@code buf[from, to)} holds {@code marker}. */
  public static boolean contains(byte[] buf, int from, int to, byte[] marker) {
    byte head = marker[0];
    for (int i = from; i + marker.length <= to; i++) {
      if (buf[i] != head) {
        continue;
      }
      int j = 1;
      while (j < marker.length && buf[i + j] == marker[j]) {
        j++;
      }
      if (j == marker.length) {
        return true;
      }
    }
    return false;
  }

  private static Frame.Ending ending(FrameLine f) {
    return switch (f.kind) {
      case EXIT -> new Frame.Exit(f.t, f.code);
      case KILL -> new Frame.Kill(f.t, f.signal);
      default -> new Frame.Hang(f.t, f.closeStdout);
    };
  }

  /**
   * Plays a tape that {@link #validate} accepted. Lines in the writer's form, {@code
   * {"t":N,"out":VALUE}}, are sliced without parsing again (validation parsed them already); any
   * other line is parsed again. A big value written as it stands in the tape is copied by the
   * kernel from the tape file to stdout, when both are files (a pipe is one), without coming into
   * memory.
   */
  public Frame.Ending play(Checked checked) throws IOException, Gates.NotReleased {
    int[] notCompact = checked.notCompactLines();
    int nextNotCompact = 0;
    List<BigValue> big =
        !checked.bigValues().isEmpty() && kernelCopies() ? checked.bigValues() : List.of();
    int nextBig = 0;
    FrameLine f = new FrameLine();
    try (InputStream in = source.open()) {
      LineReader lines = new LineReader(in);
      nextLine(lines); // the header, validated
      while (true) {
        if (nextBig < big.size() && big.get(nextBig).line() == lines.lineNumber() + 1) {
          BigValue value = big.get(nextBig++);
          if (lines.unread() != value.lineStart()) {
            throw changed(value.line(), "line " + value.line() + " is not where it was");
          }
          f.kind = FrameLine.Kind.OUT;
          f.t = writtenT(value);
          waitFor(f);
          copyOut(value);
          lines.skipLine(value.valueEnd() + 2); // after the frame's "}\n"
          continue;
        }
        if (!nextLine(lines)) {
          break;
        }
        byte[] buf = lines.buffer();
        int line = lines.lineNumber();
        try {
          if (!sliceOut(buf, lines.offset(), lines.length(), f)) {
            try {
              f.parse(source.name(), line, buf, lines.offset(), lines.length());
            } catch (TapeException e) {
              throw changed(line, e.getMessage());
            }
          }
          if (f.kind == FrameLine.Kind.OUT) {
            while (nextNotCompact < notCompact.length && notCompact[nextNotCompact] < line) {
              nextNotCompact++;
            }
            f.compact = nextNotCompact >= notCompact.length || notCompact[nextNotCompact] != line;
          }
          waitFor(f);
          if (Thread.currentThread().isInterrupted()) {
            // the session's client stopped the turn (claude's interrupt): no frame after
            throw new Gates.NotReleased("the turn was interrupted");
          }
          if (transform != null) {
            Frame frame = substituted(f, buf);
            for (Frame out : transform.next(frame)) {
              write(out);
            }
          } else {
            write(f, buf);
          }
        } catch (OutOfMemoryError e) {
          // a line that was read but cannot be parsed, rendered or substituted in this heap
          throw TapeScanner.memory(source.name(), line, lines.length());
        }
        if (f.kind.terminal()) {
          return ending(f);
        }
      }
    }
    throw changed(-1, "it ends without a terminal frame");
  }

  private void waitFor(FrameLine f) {
    if (!(timing instanceof Timing.Fast)) {
      lastDue = timing.due(f.t, lastT, lastDue);
      lastT = f.t;
      FrameClock.waitUntil(originNanos, lastDue);
    }
  }

  /**
   * Whether big values go from the tape file to stdout by the kernel: both are files, and the
   * values are written as they stand (no substitution, no other output format).
   */
  private boolean kernelCopies() throws IOException {
    if (transform != null || substitution.active() || !(stdout instanceof FileOutputStream)) {
      return false;
    }
    tape = source.channel().orElse(null);
    out = ((FileOutputStream) stdout).getChannel();
    return tape != null;
  }

  /**
   * The {@code t} of a big value's frame, read again from the tape with the bytes around the value:
   * a tape written into since it was checked is refused as it would be when read line by line.
   */
  private long writtenT(BigValue value) throws IOException {
    int prefix = (int) (value.valueStart() - value.lineStart());
    if (prefix > around.length - 2) {
      throw changed(value.line(), "line " + value.line() + " is not as it was checked");
    }
    readFully(ByteBuffer.wrap(around, 0, prefix), value.lineStart());
    readFully(ByteBuffer.wrap(around, prefix, 2), value.valueEnd());
    long t = prefixT(around, prefix);
    if (t < 0 || around[prefix] != '}' || around[prefix + 1] != '\n') {
      throw changed(value.line(), "line " + value.line() + " is not as it was checked");
    }
    return t;
  }

  /** The {@code N} of {@code {"t":N,"out":} in {@code buf[0, len)}, exactly; -1 otherwise. */
  static long prefixT(byte[] buf, int len) {
    int digits = len - T_PREFIX.length - OUT_KEY.length;
    if (digits < 1 || digits > 18) {
      return -1;
    }
    for (int k = 0; k < T_PREFIX.length; k++) {
      if (buf[k] != T_PREFIX[k]) {
        return -1;
      }
    }
    long t = 0;
    for (int i = T_PREFIX.length; i < T_PREFIX.length + digits; i++) {
      if (buf[i] < '0' || buf[i] > '9') {
        return -1;
      }
      t = t * 10 + (buf[i] - '0');
    }
    for (int k = 0; k < OUT_KEY.length; k++) {
      if (buf[T_PREFIX.length + digits + k] != OUT_KEY[k]) {
        return -1;
      }
    }
    return t;
  }

  private void readFully(ByteBuffer bytes, long position) throws IOException {
    long at = position;
    while (bytes.hasRemaining()) {
      int n = tape.read(bytes, at);
      if (n < 0) {
        throw changed(-1, "it is shorter than it was when it was checked");
      }
      at += n;
    }
  }

  /**
   * Writes a big value and its newline: the value by the kernel (sendfile), the newline after it.
   * Where the kernel moves no bytes, the rest of the value is read and written with its newline.
   */
  private void copyOut(BigValue value) throws IOException {
    if (stdoutClosed) {
      return;
    }
    long at = value.valueStart();
    long end = value.valueEnd();
    try {
      while (at < end) {
        long n = tape.transferTo(at, end - at, out);
        if (n <= 0) {
          break;
        }
        at += n;
      }
    } catch (IOException e) {
      // the reader went away (EPIPE): the run goes on to its ending, as the tape says
      stdoutClosed = true;
      return;
    }
    line.clear();
    while (at < end) {
      int n = (int) Math.min(end - at, 1 << 16);
      line.ensure(n);
      ByteBuffer rest = ByteBuffer.wrap(line.data, line.size, n);
      readFully(rest, at);
      line.size += n;
      at += n;
    }
    line.append((byte) '\n');
    writeOut(line.data, 0, line.size);
  }

  private boolean nextLine(LineReader lines) throws IOException {
    return next(source, lines);
  }

  /**
   * A tape that no longer reads as it did when it was checked: written into while it was played.
   * (Replacing it by a rename changes nothing: it is read from the file opened first.)
   */
  private TapeException changed(int line, String problem) {
    return new TapeException(
        source.name(),
        line < 0 ? 1 : line,
        "the tape changed while it was "
            + "replayed ("
            + problem
            + "); write a new tape under another name and rename it over the "
            + "old one, never write into a tape a run may be reading");
  }

  private static final byte[] T_PREFIX = {'{', '"', 't', '"', ':'};
  private static final byte[] OUT_KEY = {',', '"', 'o', 'u', 't', '"', ':'};

  /** Reads {@code {"t":N,"out":VALUE}} without a parser; false for any other shape. */
  static boolean sliceOut(byte[] buf, int off, int len, FrameLine f) {
    int end = off + len;
    if (len < T_PREFIX.length + OUT_KEY.length + 3 || buf[end - 1] != '}') {
      return false;
    }
    for (int k = 0; k < T_PREFIX.length; k++) {
      if (buf[off + k] != T_PREFIX[k]) {
        return false;
      }
    }
    int i = off + T_PREFIX.length;
    long t = 0;
    int digits = 0;
    while (i < end && buf[i] >= '0' && buf[i] <= '9' && digits < 18) {
      t = t * 10 + (buf[i++] - '0');
      digits++;
    }
    if (digits == 0 || i + OUT_KEY.length >= end - 1) {
      return false;
    }
    for (int k = 0; k < OUT_KEY.length; k++) {
      if (buf[i + k] != OUT_KEY[k]) {
        return false;
      }
    }
    f.kind = FrameLine.Kind.OUT;
    f.t = t;
    f.valueStart = i + OUT_KEY.length;
    f.valueEnd = end - 1;
    return true;
  }

  private void write(FrameLine f, byte[] buf) throws IOException, Gates.NotReleased {
    switch (f.kind) {
      case GATE -> gate(f.gate);
      case OUT -> {
        if (f.compact && !substitution.active() && f.valueEnd < buf.length) {
          // written straight from the read buffer: the byte after the value (the frame's closing
          // brace) stands in for the newline during the one write
          byte after = buf[f.valueEnd];
          buf[f.valueEnd] = '\n';
          writeOut(buf, f.valueStart, f.valueEnd + 1 - f.valueStart);
          buf[f.valueEnd] = after;
        } else {
          line.clear();
          appendValue(f, buf);
          line.append((byte) '\n');
          writeOut(line.data, 0, line.size);
        }
      }
      case OUT_RAW, OUT_B64 -> writeOut(f.bytes, 0, f.bytes.length);
      case ERR, ERR_B64 -> writeErr(f.bytes);
      default -> {
        // terminal frames write nothing
      }
    }
  }

  private void appendValue(FrameLine f, byte[] buf) {
    if (f.compact) {
      substitution.apply(buf, f.valueStart, f.valueEnd - f.valueStart, line);
    } else {
      byte[] compact = JsonText.compact(buf, f.valueStart, f.valueEnd - f.valueStart);
      substitution.apply(compact, 0, compact.length, line);
    }
  }

  private Frame substituted(FrameLine f, byte[] buf) {
    if (f.kind == FrameLine.Kind.OUT && f.compact && !substitution.active()) {
      // straight from the read buffer: a line of tens of MiB is not copied once more
      return new Frame.Out(
          f.t, new String(buf, f.valueStart, f.valueEnd - f.valueStart, StandardCharsets.UTF_8));
    }
    if (f.kind == FrameLine.Kind.OUT) {
      line.clear();
      appendValue(f, buf);
      return new Frame.Out(f.t, new String(line.data, 0, line.size, StandardCharsets.UTF_8));
    }
    return f.toFrame(buf);
  }

  private void gate(String name) throws IOException, Gates.NotReleased {
    if (gates != null) {
      gates.pass(name, pid);
    }
  }

  private void write(Frame frame) throws IOException, Gates.NotReleased {
    if (frame instanceof Frame.Gate g) {
      gate(g.name());
    } else if (frame instanceof Frame.Out out) {
      byte[] bytes = (out.json() + "\n").getBytes(StandardCharsets.UTF_8);
      writeOut(bytes, 0, bytes.length);
    } else if (frame instanceof Frame.OutBytes out) {
      byte[] bytes = out.bytes();
      writeOut(bytes, 0, bytes.length);
    } else if (frame instanceof Frame.Err err) {
      writeErr(err.bytes());
    }
  }

  private void writeOut(byte[] bytes, int off, int len) {
    if (stdoutClosed) {
      return;
    }
    try {
      stdout.write(bytes, off, len);
      stdout.flush();
    } catch (IOException e) {
      // the reader went away (EPIPE): the run goes on to its ending, as the tape says
      stdoutClosed = true;
    }
  }

  private void writeErr(byte[] bytes) {
    try {
      stderr.write(bytes);
      stderr.flush();
    } catch (IOException e) {
      // stderr closed by the consumer: nothing to report it on
    }
  }
}
