package dev.agentdouble.junit.internal.control;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.Sources;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * One value, one place: a test's {@code Invocation} is made from the fake's invocation record in
 * {@link Invocations} only, and a tape's {@code match} is evaluated in {@code contract.MatchMiss}
 * only (the fake's tape selection and serve's report both ask it), in every module's main code.
 */
class OnePlaceTest {
  @Test
  void anInvocationIsMadeFromTheInvocationRecordInOnePlace() throws IOException {
    assertThat(Sources.mainContaining("new Invocation("))
        .as("the constructors are deprecated: only the builder makes one")
        .containsExactly("junit-extension/src/main/java/dev/agentdouble/junit/Invocation.java");
    assertThat(Sources.mainContaining("Invocation.builder("))
        .containsExactly(
            "junit-extension/src/main/java/dev/agentdouble/junit/internal/control/Invocations.java");
  }

  @Test
  void aTapesMatchIsEvaluatedInOnePlace() throws IOException {
    assertThat(Sources.mainContaining(".promptPattern()"))
        .containsExactly("fixtures/src/main/java/dev/agentdouble/contract/MatchMiss.java");
  }
}
