package dev.agentdouble.junit.internal.handle;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.control.ControlPlane;
import dev.agentdouble.junit.internal.control.InvocationLog;
import dev.agentdouble.junit.internal.control.Stubs;
import dev.agentdouble.junit.internal.match.NoTapeReport;
import dev.agentdouble.tape.Tape;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The tapes a test gave one fake, as it named them: the queue and the stubs of {@code when(..)},
 * kept in {@link Stubs}; and, when an invocation got none, which stub came closest.
 */
public final class Answers {
  private final Stubs stubs;
  private final StepGates gates;
  private final AutoCloseable noTapeReport;

  /** The stubs made with {@code when(..)}, for the near-miss reports. */
  private final List<Stub> stubbed = new CopyOnWriteArrayList<>();

  /**
   * What answers the invocations POSTed to {@code path} of {@code plane}, the queue kept in {@code
   * queue} too (for runs to take their tapes from without asking); the gates of every tape given go
   * to {@code gates}.
   */
  public Answers(ControlPlane plane, String path, Path queue, StepGates gates) {
    this.stubs = new Stubs(plane, path, Optional.of(queue));
    this.gates = gates;
    this.noTapeReport = plane.onNoTape(path, this::noTape);
  }

  /**
   * The next invocation no stub answers gets {@code tape}, called {@code name} ({@code tape #N}
   * when empty), replayed with {@code timing} when given.
   */
  public void enqueue(Tape tape, Optional<String> name, Optional<Timing> timing) {
    String called = name.orElseGet(() -> "tape #" + (stubs.queued() + 1));
    gates.note(tape);
    stubs.enqueue(tape, called, timing);
  }

  /**
   * A new stub for the invocations {@code match} lets through; {@code pattern} says it in words and
   * {@code mismatches} says what an invocation's JSON misses of it.
   */
  public Stub stub(
      String pattern,
      UnaryOperator<MappingBuilder> match,
      Function<String, List<String>> mismatches) {
    Stub stub = new Stub(pattern, stubs.sequence(match), mismatches);
    stubbed.add(stub);
    return stub;
  }

  /** The replies of one stub, in order; its last may also answer every later invocation. */
  public final class Stub {
    private final String pattern;
    private final Stubs.Sequence sequence;
    private final Function<String, List<String>> mismatches;
    private int replies;
    private Tape last;
    private String lastName;
    private Optional<Timing> timing = Optional.empty();
    private boolean mustBeUsed = true;

    private Stub(
        String pattern, Stubs.Sequence sequence, Function<String, List<String>> mismatches) {
      this.pattern = pattern;
      this.sequence = sequence;
      this.mismatches = mismatches;
    }

    /** Its replies replay with {@code policy}; before the first reply only. */
    public void timing(Timing policy) {
      if (replies > 0) {
        throw new IllegalStateException(
            "call timing(..) before reply(..): the replies of " + pattern + " are already set");
      }
      timing = Optional.of(policy);
    }

    /** The next matching invocation gets {@code tape}, called {@code reply #N to PATTERN}. */
    public void reply(Tape tape) {
      reply(tape, "reply #" + (replies + 1) + " to " + pattern);
    }

    /** The next matching invocation gets {@code tape}, called {@code name}. */
    public void reply(Tape tape, String name) {
      gates.note(tape);
      sequence.reply(tape, name, timing, mustBeUsed);
      replies++;
      last = tape;
      lastName = name;
    }

    /** Its later replies need not be used (a replayed recording). */
    public void optional() {
      mustBeUsed = false;
    }

    /** The last reply also answers every later matching invocation. */
    public void repeatLast() {
      if (last == null) {
        throw new IllegalStateException("call reply(..) first");
      }
      sequence.repeat(last, lastName + " (repeated)", timing);
    }
  }

  /** How many tapes were enqueued. */
  public int queued() {
    return stubs.queued();
  }

  /** The names of the enqueued tapes no invocation took. */
  public List<String> unused() {
    return stubs.unused();
  }

  /** The names of the stubs' replies no invocation took, optional ones aside. */
  public List<String> unusedReplies() {
    return stubs.unusedReplies();
  }

  /** The JSON of the invocations nothing answered, oldest first. */
  public List<String> unmatched() {
    return stubs.unmatched().stream().map(Stubs.Unmatched::body).toList();
  }

  /**
   * What the fake prints when nothing answered {@code body}: the invocation in our terms, what was
   * queued, and the stub that came closest with the conditions it missed.
   */
  private String noTape(String body) {
    StringBuilder report =
        new StringBuilder("no stub and no queued tape answers ")
            .append(InvocationLog.parse(body).summary())
            .append(", cwd ")
            .append(InvocationRecord.parse(body).cwd());
    report.append("\n").append(NoTapeReport.enqueued(stubs.queued()));
    closest(body).ifPresent(c -> report.append("\n").append(c));
    return report.toString();
  }

  /**
   * The stub whose pattern {@code body} misses least, with what it missed; or a stub it matches
   * whose replies are all used up.
   */
  public Optional<String> closest(String body) {
    Stub best = null;
    List<String> bestMisses = null;
    for (Stub s : stubbed) {
      List<String> misses = s.mismatches.apply(body);
      if (best == null || misses.size() < bestMisses.size()) {
        best = s;
        bestMisses = misses;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    if (bestMisses.isEmpty()) {
      return Optional.of(
          "the stub for "
              + best.pattern
              + " matches, but its "
              + best.replies
              + (best.replies == 1 ? " reply is" : " replies are")
              + " used up (repeatLast() answers every later one)");
    }
    return Optional.of(
        "closest stub: " + best.pattern + "; it missed: " + String.join("; ", bestMisses));
  }

  /** Forgets every tape and stub: as new, for a fake reset. */
  public void clear() {
    stubs.clear();
    stubbed.clear();
  }

  /** Stops answering: removes every stub and the report of no tape. */
  public void remove() {
    try {
      noTapeReport.close();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop listening for invocations", e);
    }
    stubs.remove();
  }
}
