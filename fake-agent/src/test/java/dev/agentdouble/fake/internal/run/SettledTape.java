package dev.agentdouble.fake.internal.run;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;

/**
 * When a tape has stood unchanged long enough for the replay cache to keep its validation: its
 * change time ({@code ctime}, which the cache compares and no call sets back, unlike the
 * modification time) {@link ValidationCache#SETTLED_MS} before the clock the cache reads.
 */
public final class SettledTape {
  private SettledTape() {}

  /** The file's change time, in ms since the epoch. */
  public static long changed(Path file) {
    try {
      return ((FileTime) Files.getAttribute(file, "unix:ctime")).toMillis();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A time at which {@code tape}, unchanged since, is settled. */
  public static long settledAt(Path tape) {
    return changed(tape) + ValidationCache.SETTLED_MS + 1;
  }

  /**
   * Waits until {@code tape} is settled by the wall clock, which a fake process's cache reads (its
   * clock is in another process): at most a few polls past {@link ValidationCache#SETTLED_MS}.
   */
  public static void awaitSettled(Path tape) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(10))
        .until(() -> System.currentTimeMillis() >= settledAt(tape));
  }
}
