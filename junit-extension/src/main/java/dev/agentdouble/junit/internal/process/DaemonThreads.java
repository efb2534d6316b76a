package dev.agentdouble.junit.internal.process;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * The extension's own threads: daemons, so that none keeps the test JVM alive, each named for a
 * thread dump.
 */
public final class DaemonThreads {
  private DaemonThreads() {}

  /** Daemon threads called {@code name}, for an executor's pool. */
  public static ThreadFactory named(String name) {
    return task -> {
      Thread t = new Thread(task, name);
      t.setDaemon(true);
      return t;
    };
  }

  /** Runs each task on a new daemon thread called {@code name}: for a one-off start. */
  public static Executor each(String name) {
    ThreadFactory threads = named(name);
    return task -> threads.newThread(task).start();
  }
}
