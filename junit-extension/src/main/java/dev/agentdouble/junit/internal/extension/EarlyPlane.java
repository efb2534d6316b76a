package dev.agentdouble.junit.internal.extension;

import dev.agentdouble.junit.internal.process.DaemonThreads;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ExtensionContext.Namespace;
import org.junit.jupiter.api.extension.ExtensionContext.StoreScope;

/**
 * The {@link SharedPlane} started ahead of the first test that uses it, on a daemon thread of its
 * own, by the launcher session's {@link EarlyStart}; kept in the launcher session's store, which
 * closes it (stopping the plane, once started) when the session closes. Without one (no launcher
 * session listener ran, or the test plan named no class of the extension), the first fake starts
 * the plane itself, in the root context's store, as it always did.
 */
public final class EarlyPlane implements AutoCloseable {
  /** The launcher session store's namespace and key of the plane started early. */
  static final Namespace NAMESPACE = Namespace.create(EarlyPlane.class);

  /** How long a fake waits for the plane started early: WireMock's start and the fake's runtime. */
  static final Duration WAIT = Duration.ofMinutes(2);

  private final CompletableFuture<SharedPlane> start;

  EarlyPlane(Supplier<SharedPlane> starter) {
    // a daemon: a start never keeps the JVM alive
    this.start =
        CompletableFuture.supplyAsync(starter, DaemonThreads.each("agentdouble-early-start"));
  }

  /**
   * The plane a fake of {@code context} uses: the one started early in its launcher session, once
   * started; else the root context's (in {@code namespace}), started now if it is the first.
   */
  public static SharedPlane of(ExtensionContext context, Namespace namespace) {
    EarlyPlane early = SESSION_STORES ? early(context) : null;
    if (early != null) {
      return early.await(WAIT);
    }
    return context
        .getRoot()
        .getStore(namespace)
        .getOrComputeIfAbsent(SharedPlane.class, k -> SharedPlane.start(), SharedPlane.class);
  }

  /** The plane started early in the launcher session of {@code context}, if any. */
  private static EarlyPlane early(ExtensionContext context) {
    return context
        .getStore(StoreScope.LAUNCHER_SESSION, NAMESPACE)
        .get(EarlyPlane.class, EarlyPlane.class);
  }

  /**
   * Whether JUnit has launcher session stores (JUnit 5.13 and later): a user's build may pin an
   * older one (the README's project runs on 5.10), where the plane is never started early.
   */
  static final boolean SESSION_STORES = sessionStores();

  private static boolean sessionStores() {
    try {
      Class.forName(
          "org.junit.jupiter.api.extension.ExtensionContext$StoreScope",
          false,
          ExtensionContext.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The plane once started; what its start threw, if it failed; an error after {@code limit}. */
  SharedPlane await(Duration limit) {
    try {
      return start.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException("agentdouble: the control plane did not start", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "agentdouble: the control plane (WireMock and the fake's runtime), started as the test"
              + " plan began, is still starting after "
              + limit.toSeconds()
              + " s; is the machine overloaded? agentdouble.earlyStart=false starts it in the"
              + " first test instead");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("agentdouble: interrupted waiting for the control plane", e);
    }
  }

  /** Whether the plane is up (started and not failed): for tests. */
  boolean started() {
    return start.isDone() && !start.isCompletedExceptionally();
  }

  /**
   * Stops the plane now if it has started, else as soon as it has (a start that failed leaves
   * nothing to stop; the failure was the tests' to report). Closing does not wait for a start: a
   * launcher that discovers in one session and executes in another (JUnit's {@code
   * LauncherFactory.create()} used as {@code discover}, then {@code execute}) closes the first
   * session as discovery ends, and must not wait there for a plane it will not use.
   */
  @Override
  public void close() {
    start.thenAccept(SharedPlane::close);
  }
}
