package dev.agentdouble.junit.internal.process;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Deletes the folders of passed tests' fakes on a daemon thread of its own, so that a test ends
 * without waiting for some ten unlinks: the next test starts meanwhile. {@link #close} deletes what
 * is still queued before the work folder goes, so nothing is left behind.
 */
public final class Janitor implements AutoCloseable {
  /** The longest {@link #close} waits for the queue to be done. */
  static final long CLOSE_TIMEOUT_SECONDS = 30;

  private final ExecutorService thread =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.MILLISECONDS,
          new LinkedBlockingQueue<>(),
          DaemonThreads.named("agentdouble-janitor"));

  /** Deletes {@code folder} and everything in it, soon; at once when this janitor is closed. */
  public void delete(Path folder) {
    try {
      thread.execute(() -> WorkFolder.delete(folder));
    } catch (RejectedExecutionException e) {
      WorkFolder.delete(folder);
    }
  }

  /**
   * Deletes what is still queued (waiting at most {@value #CLOSE_TIMEOUT_SECONDS} s), then ends.
   */
  @Override
  public void close() {
    thread.shutdown();
    try {
      if (!thread.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      thread.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
