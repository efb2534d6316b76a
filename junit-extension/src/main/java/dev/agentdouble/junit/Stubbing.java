package dev.agentdouble.junit;

import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.handle.Answers;
import dev.agentdouble.junit.internal.handle.TapeFiles;
import dev.agentdouble.tape.Tape;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What answers the invocations of one pattern ({@link FakeAgent#when}): {@code reply(a, b)} answers
 * the first with a, the second with b, and leaves later ones unmatched unless {@link #repeatLast()}
 * is called.
 *
 * <p>Migration from 0.1.0: this was the nested {@code FakeAgent.Stubbing}; a chained call ({@code
 * agent.when(p).reply(t)}) is unchanged, and a variable or field of the type names {@code Stubbing}
 * (this package) instead.
 */
public final class Stubbing {
  private final Answers.Stub stub;

  Stubbing(Answers answers, InvocationPattern pattern) {
    this.stub = answers.stub(pattern.toString(), pattern::toRequestMapping, pattern::mismatches);
  }

  /**
   * The timing of this stub's replies, instead of the fake's ({@link FakeAgent#timing(Timing)}):
   * e.g. {@code agent.when(p).timing(Timing.RECORDED).reply(slowRun)} in a fake that is fast
   * otherwise. Call it before {@link #reply}.
   */
  public Stubbing timing(Timing policy) {
    stub.timing(Objects.requireNonNull(policy, "policy"));
    return this;
  }

  /** The tapes that answer matching invocations, in order. */
  public Stubbing reply(Tape first, Tape... then) {
    List<Tape> tapes = new ArrayList<>();
    tapes.add(first);
    tapes.addAll(List.of(then));
    tapes.forEach(stub::reply);
    return this;
  }

  /** Replies with a tape from the test classpath. */
  public Stubbing replyResource(String resource) {
    stub.reply(TapeFiles.resource(resource), resource);
    return this;
  }

  /**
   * Its replies need not all be used: a replayed recording (a test may run the agent less often
   * than when it was recorded, or, under a class's {@code @AgentTape}, not at all).
   */
  Stubbing optional() {
    stub.optional();
    return this;
  }

  /** The last tape also answers every later matching invocation. */
  public Stubbing repeatLast() {
    stub.repeatLast();
    return this;
  }
}
