package dev.agentdouble.recorder.internal;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * SIGINT and SIGTERM to the recorder go to the recorded command instead: the recorder waits for
 * it and still writes the tape, marked interrupted.
 */
@SuppressWarnings("removal")
final class Signals {
  private static sun.misc.SignalHandler previousInt;
  private static sun.misc.SignalHandler previousTerm;

  private Signals() {}

  static synchronized void forward(Process child, AtomicBoolean interrupted) {
    previousInt = install("INT", child, interrupted);
    previousTerm = install("TERM", child, interrupted);
  }

  private static sun.misc.SignalHandler install(String name, Process child, AtomicBoolean flag) {
    try {
      return sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> {
        flag.set(true);
        try {
          new ProcessBuilder("kill", "-s", name, Long.toString(child.pid())).start();
        } catch (IOException e) {
          child.destroy();
        }
      });
    } catch (IllegalArgumentException e) {
      return null; // the JVM keeps this signal (-Xrs): nothing to forward
    }
  }

  static synchronized void restore() {
    try {
      if (previousInt != null) {
        sun.misc.Signal.handle(new sun.misc.Signal("INT"), previousInt);
      }
      if (previousTerm != null) {
        sun.misc.Signal.handle(new sun.misc.Signal("TERM"), previousTerm);
      }
    } catch (IllegalArgumentException e) {
      // nothing to restore
    }
  }
}
