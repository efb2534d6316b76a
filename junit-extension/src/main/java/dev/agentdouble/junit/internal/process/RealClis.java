package dev.agentdouble.junit.internal.process;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The real CLIs record mode runs, each when it was found: {@code cursor-agent} (also run as {@code
 * agent}) and {@code claude}.
 */
public record RealClis(Optional<Path> cursor, Optional<Path> claude) {
  /** Whether neither was found. */
  public boolean none() {
    return cursor.isEmpty() && claude.isEmpty();
  }
}
