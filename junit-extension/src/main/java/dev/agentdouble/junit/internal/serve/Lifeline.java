package dev.agentdouble.junit.internal.serve;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.Launch;
import java.io.PrintStream;

/**
 * What ties a server command ({@code serve}, {@code model-api}) to the process that started it: the
 * server stops (exit {@value #PARENT_GONE}, as a hangup) once that process has ended, so a test
 * runner killed outright leaves no server behind. A parent that dies leaves its child to init or a
 * subreaper, which changes its parent's id: that change is what is watched.
 */
final class Lifeline {
  /** The exit status when the process that started the command has ended: 128 + SIGHUP. */
  static final int PARENT_GONE = ExitStatus.SIGNALLED + 1;

  /** How often the command looks at its parent. */
  static final long PARENT_PERIOD_MS = 250;

  private Lifeline() {}

  /**
   * Ties {@code command} to the process that started it, as the launcher saw it before the JVM
   * started ({@link Launch#PARENT_PROPERTY}): a parent read later could be the process that adopted
   * the command after its parent was killed, which never ends. Returns false (having said so on
   * {@code err}) when that process has already ended; else watches it from now on.
   */
  static boolean hold(String command, PrintStream err) {
    long parent = startedBy(System.getProperty(Launch.PARENT_PROPERTY));
    if (parent > 1 && parentNow() != parent) {
      parentGone(command, parent, err);
      return false;
    }
    watch(command, parent, err);
    return true;
  }

  /**
   * The process that started the command: {@code given} (the launcher's {@code $PPID}) if it is a
   * process id, else the JVM's parent now.
   */
  static long startedBy(String given) {
    if (given != null) {
      try {
        long pid = Long.parseLong(given.strip());
        if (pid > 0) {
          return pid;
        }
      } catch (NumberFormatException e) {
        // not the launcher's: the JVM's parent below
      }
    }
    return parentNow();
  }

  private static long parentNow() {
    return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
  }

  private static void parentGone(String command, long parent, PrintStream err) {
    err.println(
        "agentdouble: "
            + command
            + ": the process that started it ("
            + parent
            + ") has ended; stopping");
    err.flush();
  }

  private static void watch(String command, long parent, PrintStream err) {
    if (parent <= 1) {
      return; // started by init or a container's first process: nothing to outlive
    }
    Thread watcher =
        new Thread(
            () -> {
              while (true) {
                try {
                  Thread.sleep(PARENT_PERIOD_MS);
                } catch (InterruptedException e) {
                  return;
                }
                if (parentNow() != parent) {
                  parentGone(command, parent, err);
                  System.exit(PARENT_GONE);
                }
              }
            },
            "agentdouble-" + command + "-parent");
    watcher.setDaemon(true);
    watcher.start();
  }
}
