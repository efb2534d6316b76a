package dev.agentdouble.junit.internal.extension;

import dev.agentdouble.junit.internal.process.DaemonThreads;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One daemon thread per test run that acts at {@link Deadline}s: a test blocked reading a fake
 * cannot stop it. Kept in the root context's store, and shut down with it.
 */
// CloseableResource, deprecated since JUnit 5.13, is what JUnit 5.10 to 5.12 close (the
// README's "JUnit 5.10 and newer"); 5.13 and later close it as an AutoCloseable
@SuppressWarnings("deprecation")
public final class Watchdog implements ExtensionContext.Store.CloseableResource, AutoCloseable {
  private final ScheduledThreadPoolExecutor executor =
      new ScheduledThreadPoolExecutor(1, DaemonThreads.named("agentdouble-watchdog"));

  public Watchdog() {
    executor.setRemoveOnCancelPolicy(true);
  }

  /** Runs {@code action} after {@code delay}, unless cancelled first. */
  public ScheduledFuture<?> schedule(Runnable action, Duration delay) {
    return executor.schedule(action, delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }
}
