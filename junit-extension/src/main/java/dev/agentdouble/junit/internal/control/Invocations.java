package dev.agentdouble.junit.internal.control;

import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.junit.Invocation;
import java.util.List;

/**
 * The JUnit side of the one invocation record: a test's {@link Invocation} is made from the fake's
 * {@link InvocationRecord} here, and nowhere else.
 */
final class Invocations {
  private Invocations() {}

  /**
   * The invocation {@code record} tells, with the permission answers of its ACP turn (empty
   * elsewhere).
   */
  public static Invocation of(InvocationRecord record, List<String> permissionAnswers) {
    return new Invocation(
        record.argv(),
        record.prompt(),
        record.cwd(),
        record.outputFormat(),
        record.model(),
        record.stdin(),
        record.pid(),
        record.env(),
        record.stoppedBy(),
        permissionAnswers,
        record.cli(),
        record.session());
  }

  /**
   * The invocation of {@code body}, the fake's JSON (as POSTed to the control plane).
   *
   * @throws IllegalArgumentException when it is not an invocation
   */
  public static Invocation parse(String body) {
    return of(InvocationRecord.parse(body), List.of());
  }
}
