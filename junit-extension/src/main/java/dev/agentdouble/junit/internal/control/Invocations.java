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
    return Invocation.builder()
        .argv(record.argv())
        .prompt(record.prompt())
        .cwd(record.cwd())
        .outputFormat(record.outputFormat())
        .model(record.model())
        .stdin(record.stdin())
        .pid(record.pid())
        .env(record.env())
        .stoppedBy(record.stoppedBy())
        .permissionAnswers(permissionAnswers)
        .cli(record.cli())
        .session(record.session())
        .build();
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
