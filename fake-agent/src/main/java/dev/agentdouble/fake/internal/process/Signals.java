package dev.agentdouble.fake.internal.process;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.tape.Frame;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
  private Signals() {}

  /**
   * Takes the signals as the real CLI does, from the start of {@code main} to the end: SIGINT
   * writes {@code aborting}, what the CLI says then, on stderr and exits {@value
   * ExitStatus#INTERRUPTED} at once, the stream cut wherever it was (a hang included); SIGTERM and
   * SIGHUP have their default action, a death by the signal, not the JVM's orderly exit. A signal
   * ignored when the process started stays ignored. Without effect in a JVM run with {@code -Xrs}.
   */
  public static void install(String aborting) {
    try {
      Signal.handle(new Signal("INT"), new Abort(aborting.getBytes(StandardCharsets.UTF_8)));
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
    private final byte[] aborting;

    Abort(byte[] aborting) {
      this.aborting = aborting;
    }

    @Override
    public void handle(Signal signal) {
      try {
        new FileOutputStream(FileDescriptor.err).write(aborting);
      } catch (IOException e) {
        // no stderr: the exit status still tells
      }
      halt(ExitStatus.INTERRUPTED);
    }
  }

  /** Ends the process as {@code ending} says: exit, death by signal, or hang. */
  public static void end(Frame.Ending ending) {
    // not a switch: a switch on an enum loads a synthetic class, which the CDS archive cannot hold
    // (the training run never ends this way), at a cost on every invocation
    if (ending instanceof Frame.Kill kill) {
      Death.die(kill.signal());
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
    Death.pause(ms);
  }

  private static void halt(int status) {
    Death.halt(status);
  }

  /** Readies a death by {@code signal} for a run whose tape ends that way; see {@link Death}. */
  public static void prepare(String signal, long pid) {
    Death.prepare(signal, pid);
  }
}
