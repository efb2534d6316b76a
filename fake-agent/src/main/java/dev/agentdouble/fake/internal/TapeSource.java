package dev.agentdouble.fake.internal;

import dev.agentdouble.tape.internal.CatalogGenerated;
import dev.agentdouble.tape.internal.CatalogIndex;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** A tape that can be opened more than once: validated first, then played. */
public record TapeSource(String name, Opener opener) {
  /** Opens the tape's bytes. */
  public interface Opener {
    InputStream open() throws IOException;
  }

  /** A tape file. (An inner class, not a lambda: bootstrapping a lambda costs start-up.) */
  public static TapeSource of(Path file) {
    return new TapeSource(file.toString(), new Opener() {
      @Override
      public InputStream open() throws IOException {
        return Files.newInputStream(file);
      }
    });
  }

  /**
   * A built-in tape, {@code builtin:NAME}: a resource on the class path, or, for a generated one,
   * its bytes, built once (a tape is opened twice: validated, then played).
   */
  public static TapeSource builtin(CatalogIndex.Item item) {
    return new TapeSource("builtin:" + item.name(), new Opener() {
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

  public InputStream open() throws IOException {
    return opener.open();
  }
}
