package dev.agentdouble.fake.internal.process;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.tape.Frame;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * How the process dies: by a signal, really (so its parent sees the death a shell reports as 128 +
 * n), by SIGHUP when its {@link Owner} has ended, or by a halt with an exit status. Kept apart from
 * {@link Signals} (which ends runs through it) so that the owner's watch needs nothing of the
 * signal handling that waits on the owner.
 */
public final class Death {
  private static Process killer;
  private static String killerSignal;

  private Death() {}

  /**
   * Readies a death by {@code signal} for a run whose tape ends that way: a JVM cannot raise a
   * signal it has no handler for, and starting {@code kill(1)} at the moment of death would make
   * the ending tens of milliseconds late. So a small shell waits now, and one byte makes it send
   * the signal. If this process ends any other way, the shell reads end-of-file and goes.
   */
  static void prepare(String signal, long pid) {
    if (keptByJvm(signal)) {
      return;
    }
    try {
      killer =
          new ProcessBuilder(
                  "sh", "-c", "read _ && exec kill -s " + signal.substring(3) + " " + pid)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      killerSignal = signal;
    } catch (IOException e) {
      killer = null; // die() falls back to kill(1) then
    }
  }

  /**
   * Dies by {@code signal}: its handler is reset to the default action first (so a tape ending
   * {@code SIGINT} really dies by SIGINT rather than aborting), then the signal is sent, and the
   * parent sees a death by signal (a shell reports 128 + n). SIGQUIT is the exception: the JVM
   * keeps it, so the process exits with 131 instead, what a shell shows for that death.
   */
  static void die(String signal) {
    if (keptByJvm(signal)) {
      halt(ExitStatus.SIGNALLED + Frame.Kill.signalNumber(signal));
    }
    defaultAction(signal);
    if (killer != null && signal.equals(killerSignal)) {
      try {
        killer.getOutputStream().write('\n');
        killer.getOutputStream().flush();
        pause(2000);
      } catch (IOException e) {
        // the waiting shell is gone: try the slower way
      }
    }
    // still alive: ask the kernel from outside
    kill(signal);
    pause(2000);
    halt(ExitStatus.SIGNALLED + Frame.Kill.signalNumber(signal));
  }

  /**
   * Dies by SIGHUP, as a process whose session went away: the ending of a run whose {@link Owner}
   * has ended. A process started with SIGHUP ignored ({@code nohup}) cannot die by it: it exits
   * with 129 at once instead, what a shell shows for that death.
   */
  static void byHangup() {
    if (hangupIgnored()) {
      halt(ExitStatus.SIGNALLED + Frame.Kill.signalNumber("SIGHUP"));
    }
    die("SIGHUP");
  }

  /** Whether SIGHUP is ignored, from the {@code SigIgn} mask of {@code /proc/self/status}. */
  private static boolean hangupIgnored() {
    try {
      for (String line :
          Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII)) {
        if (line.startsWith("SigIgn:")) {
          return (Long.parseUnsignedLong(line.substring(7).strip(), 16) & 1L) != 0;
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc: try the signal
    }
    return false;
  }

  /** Whether the JVM keeps {@code signal} to itself, whatever the process asks (SIGQUIT). */
  private static boolean keptByJvm(String signal) {
    return signal.equals("SIGQUIT");
  }

  /** Gives {@code signal} back its default action, where the JVM allows it (not SIGKILL). */
  private static void defaultAction(String signal) {
    try {
      Signal.handle(new Signal(signal.substring(3)), SignalHandler.SIG_DFL);
    } catch (IllegalArgumentException e) {
      // SIGKILL has no handler to reset; a signal the JVM keeps stays kept
    }
  }

  private static void kill(String signal) {
    try {
      Process p =
          new ProcessBuilder(
                  "kill", "-s", signal.substring(3), Long.toString(ProcessHandle.current().pid()))
              .inheritIO()
              .start();
      p.waitFor(2, TimeUnit.SECONDS);
    } catch (IOException e) {
      // no kill(1): fall through to halt
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void pause(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void halt(int status) {
    Runtime.getRuntime().halt(status);
  }
}
