package dev.agentdouble.junit.internal.handle;

import dev.agentdouble.junit.internal.control.InvocationLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * What fails a test at the end of one of its fakes: an invocation nothing answered, a tape or a
 * reply never used (each unless the test allowed it), a run still waiting for its stdin that never
 * asked for a tape. Thread-safe.
 */
public final class Strictness {
  private final boolean unmatchedByDefault;
  private final boolean unusedByDefault;
  private volatile boolean unmatched;
  private volatile boolean unused;

  /** Whether unmatched invocations and unused tapes fail the test, until told otherwise. */
  public Strictness(boolean unmatched, boolean unused) {
    this.unmatchedByDefault = unmatched;
    this.unusedByDefault = unused;
    reset();
  }

  /** Invocations that matched nothing do not fail the test. */
  public void allowUnmatched() {
    unmatched = false;
  }

  /** Tapes and replies left unused do not fail the test. */
  public void allowUnused() {
    unused = false;
  }

  /** As made: strict as the extension says. */
  public void reset() {
    unmatched = unmatchedByDefault;
    unused = unusedByDefault;
  }

  /**
   * Of the runs whose stdin was still open ({@code stdinOpen}), those that never asked for a tape;
   * those that did, by their pid in {@code askedPids}, get a note in {@code notes}.
   */
  public static List<Long> neverAsked(
      List<Long> stdinOpen, Supplier<List<Long>> askedPids, List<String> notes) {
    List<Long> neverAsked = new ArrayList<>();
    if (stdinOpen.isEmpty()) {
      return neverAsked;
    }
    Set<Long> asked = new HashSet<>(askedPids.get());
    for (long pid : stdinOpen) {
      if (asked.contains(pid)) {
        notes.add(
            "fake agent process "
                + pid
                + " had run its tape and was waiting for its stdin to close, as the CLI does:"
                + " the code under test left the CLI's stdin open");
      } else {
        neverAsked.add(pid);
      }
    }
    return neverAsked;
  }

  /** The problems that fail the test, given the runs that never asked for a tape. */
  public List<String> problems(Answers answers, List<Long> neverAsked) {
    List<String> problems = new ArrayList<>();
    if (unmatched) {
      for (String body : answers.unmatched()) {
        problems.add(
            "an invocation matched no stub and no enqueued tape: "
                + InvocationLog.parse(body).summary()
                + answers.closest(body).map(c -> "\n  " + c).orElse(""));
      }
    }
    if (!neverAsked.isEmpty()) {
      problems.add(
          (neverAsked.size() == 1 ? "process " : "processes ")
              + neverAsked.stream().map(String::valueOf).collect(Collectors.joining(", "))
              + " started but never asked for a tape: "
              + (neverAsked.size() == 1 ? "it was" : "they were")
              + " still waiting for stdin to close at the end of the test; give the CLI"
              + " /dev/null as stdin (ProcessBuilder.redirectInput(Redirect.from(new"
              + " File(\"/dev/null\")))), or close its stdin after writing the prompt");
    }
    if (unused && neverAsked.isEmpty()) {
      for (String name : answers.unused()) {
        problems.add(
            "enqueued " + name + " was never used (call allowUnused() if that is expected)");
      }
      for (String name : answers.unusedReplies()) {
        problems.add("stub " + name + " was never used (call allowUnused() if that is expected)");
      }
    }
    return problems;
  }
}
