package dev.agentdouble.fake.internal;

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

  public InputStream open() throws IOException {
    return opener.open();
  }
}
