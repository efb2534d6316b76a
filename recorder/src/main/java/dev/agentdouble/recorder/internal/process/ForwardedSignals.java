package dev.agentdouble.recorder.internal.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM to the recorder go to the recorded command instead: the recorder waits for it
 * and still writes the tape, marked interrupted. ({@link FakeRun} forwards them the same way to the
 * fake it runs for {@code replay} and {@code demo}.) Recordings may overlap (several {@code
 * AgentDoubleCommand.run} calls in one JVM): the handlers are installed by the first and the JVM's
 * own put back when the last one ends, and a signal goes to every command being recorded.
 */
@SuppressWarnings("removal")
public final class ForwardedSignals {
  private static final Map<Forwarding, Process> live = new LinkedHashMap<>();
  private static SignalHandler previousInt;
  private static SignalHandler previousTerm;

  private ForwardedSignals() {}

  /** Forwarding to one child until {@link #close}. */
  public static final class Forwarding implements AutoCloseable {
    private final AtomicBoolean interrupted;

    private Forwarding(AtomicBoolean interrupted) {
      this.interrupted = interrupted;
    }

    @Override
    public void close() {
      synchronized (ForwardedSignals.class) {
        if (live.remove(this) != null && live.isEmpty()) {
          restore();
        }
      }
    }
  }

  /**
   * Forwards SIGINT and SIGTERM to {@code child}, setting {@code interrupted} when one comes, until
   * the returned forwarding is closed.
   */
  public static Forwarding forward(Process child, AtomicBoolean interrupted) {
    Forwarding f = new Forwarding(interrupted);
    synchronized (ForwardedSignals.class) {
      if (live.isEmpty()) {
        previousInt = install("INT");
        previousTerm = install("TERM");
      }
      live.put(f, child);
    }
    return f;
  }

  private static SignalHandler install(String name) {
    try {
      return Signal.handle(new Signal(name), signal -> deliver(name));
    } catch (IllegalArgumentException e) {
      return null; // the JVM keeps this signal (-Xrs): nothing to forward
    }
  }

  private static void deliver(String name) {
    List<Map.Entry<Forwarding, Process>> targets;
    synchronized (ForwardedSignals.class) {
      targets = new ArrayList<>(live.entrySet());
    }
    for (Map.Entry<Forwarding, Process> target : targets) {
      Process child = target.getValue();
      if (!child.isAlive()) {
        continue; // it ended by itself (and was reaped: its pid may be another's by now)
      }
      target.getKey().interrupted.set(true);
      try {
        new ProcessBuilder("kill", "-s", name, Long.toString(child.pid())).start();
      } catch (IOException e) {
        child.destroy();
      }
    }
  }

  private static void restore() {
    try {
      if (previousInt != null) {
        Signal.handle(new Signal("INT"), previousInt);
      }
      if (previousTerm != null) {
        Signal.handle(new Signal("TERM"), previousTerm);
      }
    } catch (IllegalArgumentException e) {
      // nothing to restore
    }
    previousInt = null;
    previousTerm = null;
  }
}
