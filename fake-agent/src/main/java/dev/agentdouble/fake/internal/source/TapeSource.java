package dev.agentdouble.fake.internal.source;

import dev.agentdouble.catalog.CatalogGenerated;
import dev.agentdouble.catalog.CatalogIndex;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A tape that can be read more than once: matched, validated, then played. A tape file is opened
 * once, on the first read, and every read goes through that open file: a tape replaced by a rename
 * while the run goes on (a test writing its next tape) does not change what this run plays, so what
 * was checked is what is replayed.
 */
public record TapeSource(String name, Opener opener) implements Closeable {
  /** Opens the tape's bytes from their start. */
  public interface Opener {
    InputStream open() throws IOException;

    /** Lets go of what the reads share (an open file); nothing by default. */
    default void close() throws IOException {}

    /** The tape's file, when it is one. */
    default Optional<Path> file() {
      return Optional.empty();
    }

    /** The open file every read goes through, when the tape is a file. */
    default Optional<FileChannel> channel() throws IOException {
      return Optional.empty();
    }

    /** The size of the open file, when the tape is a file. */
    default OptionalLong size() throws IOException {
      return OptionalLong.empty();
    }
  }

  /**
   * A tape file. (An inner class, not a lambda: bootstrapping a lambda costs start-up.) Read
   * through a {@link RandomAccessFile}, whose classes the JVM has loaded before {@code main}; the
   * {@link FileChannel} of NIO, some thirty classes more, is made only for a kernel copy.
   */
  public static TapeSource of(Path file) {
    return new TapeSource(
        file.toString(),
        new Opener() {
          private RandomAccessFile open;

          private RandomAccessFile handle() throws IOException {
            if (open == null) {
              open = new RandomAccessFile(file.toFile(), "r");
            }
            return open;
          }

          @Override
          public InputStream open() throws IOException {
            return new FromStart(handle());
          }

          @Override
          public Optional<Path> file() {
            return Optional.of(file);
          }

          @Override
          public Optional<FileChannel> channel() throws IOException {
            return Optional.of(handle().getChannel());
          }

          @Override
          public OptionalLong size() throws IOException {
            return OptionalLong.of(handle().length());
          }

          @Override
          public void close() throws IOException {
            if (open != null) {
              open.close();
            }
          }
        });
  }

  /** The tape file {@code file}, called {@code name} (in errors and the journal). */
  public static TapeSource named(String name, Path file) {
    return new TapeSource(name, of(file).opener());
  }

  /**
   * A built-in tape, {@code builtin:NAME}: a resource on the class path, or, for a generated one,
   * its bytes, built once (a tape is opened twice: validated, then played).
   */
  public static TapeSource builtin(CatalogIndex.Item item) {
    return new TapeSource(
        "builtin:" + item.name(),
        new Opener() {
          private byte[] generated;

          @Override
          public InputStream open() throws IOException {
            if (!item.generated()) {
              return CatalogIndex.open(item);
            }
            if (generated == null) {
              generated = CatalogGenerated.build(item.name()).toBytes();
            }
            return new ByteArrayInputStream(generated);
          }
        });
  }

  /** The tape's bytes from the start; closing the stream leaves the tape open for the next. */
  public InputStream open() throws IOException {
    return opener.open();
  }

  /** The tape's file, when it is one. */
  public Optional<Path> file() {
    return opener.file();
  }

  /** The size of a tape file, which this opens; empty for any other tape. */
  public OptionalLong fileSize() throws IOException {
    return opener.size();
  }

  /** The open file every read goes through, opened on first use, when the tape is a file. */
  public Optional<FileChannel> channel() throws IOException {
    return opener.channel();
  }

  @Override
  public void close() throws IOException {
    opener.close();
  }

  /**
   * An open file read from its start, each read at this stream's own position: the streams of one
   * tape share the open file, and never move one another.
   */
  private static final class FromStart extends InputStream {
    private final RandomAccessFile file;
    private long position;

    FromStart(RandomAccessFile file) {
      this.file = file;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (len == 0) {
        return 0;
      }
      int n;
      synchronized (file) {
        file.seek(position);
        n = file.read(b, off, len);
      }
      if (n > 0) {
        position += n;
      }
      return n;
    }

    /** Moves on without reading: a skipped line never comes into memory. */
    @Override
    public long skip(long n) throws IOException {
      long skipped = Math.max(0, Math.min(n, file.length() - position));
      position += skipped;
      return skipped;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      int n = read(one, 0, 1);
      return n <= 0 ? -1 : one[0] & 0xff;
    }
  }
}
