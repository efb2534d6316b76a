package dev.agentdouble.fake.internal;

import dev.agentdouble.tape.Frame;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** How the fake ends a run the way the tape says: really dying by a signal, or hanging. */
public final class Signals {
  private static Process killer;

  private Signals() {}

  /**
   * Readies a death by {@code signal} for a run whose tape ends that way: a JVM cannot raise a
   * signal it has no handler for, and starting {@code kill(1)} at the moment of death would make
   * the ending tens of milliseconds late. So a small shell waits now, and one byte makes it send
   * the signal. If this process ends any other way, the shell reads end-of-file and goes.
   */
  public static void prepare(String signal, long pid) {
    try {
      killer = new ProcessBuilder("sh", "-c",
          "read _ && exec kill -s " + signal.substring(3) + " " + pid)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .redirectError(ProcessBuilder.Redirect.DISCARD)
          .start();
    } catch (IOException e) {
      killer = null; // die() falls back to kill(1) then
    }
  }

  /** Ends the process as {@code ending} says: exit, death by signal, or hang. */
  public static void end(Ending ending) {
    switch (ending.kind()) {
      case EXIT -> System.exit(ending.code());
      case KILL -> die(ending.signal());
      case HANG -> hang(ending.closeStdout());
    }
  }

  /**
   * Dies by {@code signal}. The launcher runs the JVM with {@code -Xrs}, so the default action of
   * the signal applies and the parent sees a death by signal (a shell reports 128 + n).
   */
  @SuppressWarnings("removal")
  public static void die(String signal) {
    if (killer != null) {
      try {
        killer.getOutputStream().write('\n');
        killer.getOutputStream().flush();
        pause(2000);
      } catch (IOException e) {
        // the waiting shell is gone: try the slower ways
      }
    }
    String name = signal.substring(3);
    try {
      sun.misc.Signal.raise(new sun.misc.Signal(name));
    } catch (IllegalArgumentException e) {
      kill(signal);
    }
    // still alive: the signal was handled or ignored in this JVM; ask the kernel from outside
    kill(signal);
    pause(2000);
    halt(128 + Frame.Kill.signalNumber(signal));
  }

  private static void kill(String signal) {
    try {
      Process p = new ProcessBuilder("kill", "-s", signal.substring(3),
          Long.toString(ProcessHandle.current().pid())).inheritIO().start();
      p.waitFor(2, TimeUnit.SECONDS);
    } catch (IOException e) {
      // no kill(1): fall through to halt
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes nothing more and never exits; only a signal ends the process. */
  public static void hang(boolean closeStdout) {
    if (closeStdout) {
      try {
        new FileOutputStream(FileDescriptor.out).close();
      } catch (IOException e) {
        // already closed
      }
    }
    while (true) {
      pause(60_000);
    }
  }

  private static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void halt(int status) {
    Runtime.getRuntime().halt(status);
  }
}
