package dev.agentdouble.junit.internal.extension;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation;

/**
 * A test's fakes and the moment they are ended, once: at its {@link Deadline} the runs still going
 * are ended from the {@link Watchdog}'s thread, so a test thread blocked reading one goes on, and
 * the test fails naming each run.
 */
public final class Guard {
  /**
   * A fake of the test: its folder, the first of its runs that belongs to the test, and what ends
   * its runs from a given one on, describing each ({@code Runs.end}).
   */
  public record Watched(Path folder, int from, IntFunction<List<String>> end) {}

  /** The failure of a test whose runs of the fake were ended. */
  static final class Overran extends AssertionError {
    private static final long serialVersionUID = 1L;

    Overran(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private final List<Watched> watched;
  private final Deadline deadline;
  private List<String> ended;

  public Guard(List<Watched> watched, Deadline deadline) {
    this.watched = List.copyOf(watched);
    this.deadline = deadline;
  }

  /** Runs the test, its runs ended at the deadline by {@code watchdog}; fails if they were. */
  public void run(Invocation<Void> test, Watchdog watchdog) throws Throwable {
    ScheduledFuture<?> timer = watchdog.schedule(this::fire, deadline.after());
    try {
      test.proceed();
    } finally {
      timer.cancel(false);
    }
    if (ended()) {
      throw overran(null); // the runs were ended and the test went on as if nothing was
    }
  }

  /**
   * What the test fails with instead of {@code thrown}: saying its runs were ended, if they were; a
   * test that JUnit timed out in a thread of its own (SEPARATE_THREAD) has its runs ended now.
   */
  public Throwable failure(Throwable thrown) {
    if (thrown instanceof Overran) {
      return thrown;
    }
    if (thrown instanceof TimeoutException
        && String.valueOf(thrown.getMessage()).contains(" timed out after ")) {
      fire();
    }
    return ended() ? overran(thrown) : thrown;
  }

  /** Ends the runs still going, the first time only. */
  private synchronized void fire() {
    if (ended != null) {
      return;
    }
    ended = new ArrayList<>();
    for (Watched w : watched) {
      ended.addAll(w.end().apply(w.from()));
    }
  }

  /** Whether runs were ended. */
  private synchronized boolean ended() {
    return ended != null && !ended.isEmpty();
  }

  private synchronized Overran overran(Throwable cause) {
    StringBuilder m =
        new StringBuilder("fake agent: the test ")
            .append(deadline.describe())
            .append(" while ")
            .append(ended.size() == 1 ? "a run" : ended.size() + " runs")
            .append(" of the fake agent ")
            .append(ended.size() == 1 ? "was" : "were")
            .append(" still going; ended (SIGKILL) so that the test could end:");
    for (String run : ended) {
      m.append("\n  ").append(run);
    }
    for (Watched w : watched) {
      m.append("\n  the fake's folder (journal, gates): ").append(w.folder());
    }
    return new Overran(m.toString(), cause);
  }
}
