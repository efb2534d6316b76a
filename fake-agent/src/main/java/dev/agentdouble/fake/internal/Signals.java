package dev.agentdouble.fake.internal;

import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.tape.Frame;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * The signals of the process, as the 2026.10 CLI takes them, and how the fake ends a run the way
 * the tape says: really dying by a signal, or hanging.
 *
 * <p>The launcher runs the JVM without {@code -Xrs}, so that the JVM lets {@link #install} handle
 * SIGINT; the price is that the JVM keeps SIGQUIT (it prints a thread dump and goes on), which a
 * program cannot take back.
 */
public final class Signals {
  /** The exit status after SIGINT: the CLI exits with it (an exit, not a death by the signal). */
  public static final int INTERRUPTED = 130;

  private static Process killer;
  private static String killerSignal;

  private Signals() {}

  /**
   * Takes the signals as the real CLI does, from the start of {@code main} to the end: SIGINT
   * writes {@link CursorMessages#ABORTING} on stderr and exits {@value #INTERRUPTED} at once, the
   * stream cut wherever it was (a hang included); SIGTERM and SIGHUP have their default action, a
   * death by the signal, not the JVM's orderly exit. A signal ignored when the process started
   * stays ignored. Without effect in a JVM run with {@code -Xrs}.
   */
  public static void install() {
    try {
      Signal.handle(new Signal("INT"), new Abort());
      Signal.handle(new Signal("TERM"), SignalHandler.SIG_DFL);
      Signal.handle(new Signal("HUP"), SignalHandler.SIG_DFL);
    } catch (IllegalArgumentException e) {
      // -Xrs: the JVM lets no one handle these; their default actions apply
    }
  }

  /**
   * SIGINT: what the CLI says, in one write, then the exit; a class, not a lambda, for start-up.
   */
  private static final class Abort implements SignalHandler {
    @Override
    public void handle(Signal signal) {
      try {
        new FileOutputStream(FileDescriptor.err)
            .write(CursorMessages.ABORTING.getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // no stderr: the exit status still tells
      }
      halt(INTERRUPTED);
    }
  }

  /**
   * Readies a death by {@code signal} for a run whose tape ends that way: a JVM cannot raise a
   * signal it has no handler for, and starting {@code kill(1)} at the moment of death would make
   * the ending tens of milliseconds late. So a small shell waits now, and one byte makes it send
   * the signal. If this process ends any other way, the shell reads end-of-file and goes.
   */
  public static void prepare(String signal, long pid) {
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

  /** Ends the process as {@code ending} says: exit, death by signal, or hang. */
  public static void end(Frame.Ending ending) {
    // not a switch: a switch on an enum loads a synthetic class, which the CDS archive cannot hold
    // (the training run never ends this way), at a cost on every invocation
    if (ending instanceof Frame.Kill kill) {
      die(kill.signal());
    } else if (ending instanceof Frame.Hang hang) {
      hang(hang.closeStdout());
    } else {
      // halt, not System.exit: from JDK 21 on, System.exit first asks a System.Logger whether to
      // log the exit, which loads and starts java.util.logging (about 245 classes) on every run.
      // The fake needs no shutdown hook: it writes stdout, stderr and its journal unbuffered,
      // each write done before it returns its ending.
      halt(((Frame.Exit) ending).code());
    }
  }

  /**
   * Dies by {@code signal}: its handler is reset to the default action first (so a tape ending
   * {@code SIGINT} really dies by SIGINT rather than aborting), then the signal is sent, and the
   * parent sees a death by signal (a shell reports 128 + n). SIGQUIT is the exception: the JVM
   * keeps it, so the process exits with 131 instead, what a shell shows for that death.
   */
  public static void die(String signal) {
    if (keptByJvm(signal)) {
      halt(128 + Frame.Kill.signalNumber(signal));
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
    halt(128 + Frame.Kill.signalNumber(signal));
  }

  /**
   * Dies by SIGHUP, as a process whose session went away: the ending of a run whose {@link Owner}
   * has ended. A process started with SIGHUP ignored ({@code nohup}) cannot die by it: it exits
   * with 129 at once instead, what a shell shows for that death.
   */
  static void dieByHangup() {
    if (hangupIgnored()) {
      halt(128 + Frame.Kill.signalNumber("SIGHUP"));
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

  /**
   * Writes nothing more and never exits while someone is there: a signal ends the process, or its
   * {@link Owner} ending.
   */
  public static void hang(boolean closeStdout) {
    Owner.watch();
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
