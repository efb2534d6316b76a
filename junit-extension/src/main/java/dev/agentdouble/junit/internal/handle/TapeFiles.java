package dev.agentdouble.junit.internal.handle;

import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Tape files and resources a test names: read, or a message that says where they were looked for.
 */
public final class TapeFiles {
  private TapeFiles() {}

  /**
   * The tape in {@code file}; a file that cannot be read throws an {@link UncheckedIOException}
   * naming it as given, as resolved and, for a relative path, the working folder it was resolved
   * from.
   */
  public static Tape read(Path file) {
    try {
      return TapeReader.read(file);
    } catch (IOException e) {
      throw cannotRead(file, e);
    }
  }

  /**
   * The tape {@code resource} of the test classpath (the context class loader's), e.g. {@code
   * "tapes/hello.tape.ndjson"}; a leading {@code /} is ignored.
   */
  public static Tape resource(String resource) {
    String name = resource.startsWith("/") ? resource.substring(1) : resource;
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    try (InputStream in = loader.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalArgumentException(
            "no tape "
                + name
                + " on the test classpath "
                + "(put it under src/test/resources/"
                + name
                + ")");
      }
      return TapeReader.read(name, in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read tape " + name, e);
    }
  }

  /** What to throw for a tape {@code file} that could not be read. */
  public static UncheckedIOException cannotRead(Path file, IOException e) {
    Path resolved = file.toAbsolutePath().normalize();
    String where =
        file.isAbsolute()
            ? ""
            : " (resolved to "
                + resolved
                + " from the working folder "
                + Path.of("").toAbsolutePath()
                + ")";
    String problem = e instanceof NoSuchFileException ? "no such file" : String.valueOf(e);
    return new UncheckedIOException("cannot read tape " + file + where + ": " + problem, e);
  }
}
