package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.files.TempOwner;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Records on disk, appended and then read back as often as needed, so that what a recording holds
 * is not held in memory: each record a tag, a time and some bytes. The file is unlinked as soon as
 * it is open, so nothing is left behind whatever happens to the recorder; it lives as long as the
 * spool is open.
 */
final class Spool implements AutoCloseable {
  /** Told about each record in turn. */
  @FunctionalInterface
  interface Visitor {
    void record(int tag, long time, byte[] bytes) throws IOException;
  }

  private static final int HEADER = 1 + 8 + 4;
  private static final int BUFFER = 1 << 18;

  private final FileChannel channel;
  private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
  private long size;

  private Spool(FileChannel channel) {
    this.channel = channel;
  }

  /**
   * A new empty spool in {@code dir} (the tape's folder, so the space it takes is where the tape
   * will be), else in the system's temporary folder.
   */
  static Spool create(Path dir) throws IOException {
    IOException first = null;
    for (Path where : new Path[] {dir, Path.of(System.getProperty("java.io.tmpdir"))}) {
      if (where == null) {
        continue;
      }
      try {
        return in(where);
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    throw first;
  }

  /**
   * A new empty spool in {@code dir} and nowhere else. Its name ({@code
   * .agentdouble-PID-START-N.spool}) says whose it is for the moment it has one: should the
   * recorder be killed right then, the next one removes it ({@link TempOwner#removeStale}). It is
   * readable by its owner only, as what it holds is not redacted yet.
   */
  static Spool in(Path dir) throws IOException {
    Path file = dir.resolve("." + TempOwner.current().tag() + ".spool");
    FileChannel channel;
    try {
      channel =
          FileChannel.open(
              file,
              Set.of(
                  StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
              OWNER_ONLY);
    } catch (UnsupportedOperationException e) {
      channel =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
    }
    try {
      Files.delete(file);
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    return new Spool(channel);
  }

  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  /** Appends a record of {@code bytes[off, off+len)}. */
  synchronized void append(int tag, long time, byte[] bytes, int off, int len) throws IOException {
    if (buffer.remaining() < HEADER) {
      drain();
    }
    buffer.put((byte) tag).putLong(time).putInt(len);
    while (len > 0) {
      if (!buffer.hasRemaining()) {
        drain();
      }
      int n = Math.min(len, buffer.remaining());
      buffer.put(bytes, off, n);
      off += n;
      len -= n;
    }
  }

  /** Goes through every record appended so far, in order. */
  synchronized void forEach(Visitor visitor) throws IOException {
    drain();
    Reader in = new Reader();
    while (in.position < size) {
      int tag = in.readByte();
      long time = in.readLong();
      int len = in.readInt();
      byte[] bytes = new byte[len];
      in.readFully(bytes);
      visitor.record(tag, time, bytes);
    }
  }

  private void drain() throws IOException {
    buffer.flip();
    while (buffer.hasRemaining()) {
      size += channel.write(buffer, size);
    }
    buffer.clear();
  }

  @Override
  public synchronized void close() throws IOException {
    channel.close();
  }

  /** Reads the file from the start through a buffer of its own. */
  private final class Reader {
    private final ByteBuffer in = ByteBuffer.allocateDirect(BUFFER).flip();
    private long position;
    private long filePosition;

    private void need(int n) throws IOException {
      if (in.remaining() >= n) {
        return;
      }
      in.compact();
      while (in.position() < n) {
        int k = channel.read(in, filePosition);
        if (k < 0) {
          throw new EOFException("spool ends inside a record");
        }
        filePosition += k;
      }
      in.flip();
    }

    int readByte() throws IOException {
      need(1);
      position++;
      return in.get() & 0xff;
    }

    long readLong() throws IOException {
      need(8);
      position += 8;
      return in.getLong();
    }

    int readInt() throws IOException {
      need(4);
      position += 4;
      return in.getInt();
    }

    void readFully(byte[] to) throws IOException {
      int off = 0;
      while (off < to.length) {
        if (!in.hasRemaining()) {
          need(1);
        }
        int n = Math.min(to.length - off, in.remaining());
        in.get(to, off, n);
        off += n;
      }
      position += to.length;
    }
  }
}
