package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link Invocation} is a value a test can build: every part set by name, a copy with one part
 * changed, equal when every part is, and the constructors it had still making the same value.
 */
class InvocationTest {
  private static Invocation.Builder run() {
    return Invocation.builder()
        .argv(List.of("-p", "--output-format", "json", "say hi"))
        .prompt("say hi")
        .cwd("/work")
        .outputFormat("json")
        .model(Optional.of("auto"))
        .pid(4242)
        .env(Map.of("CURSOR_API_KEY", "REDACTED"))
        .cli("cursor-agent")
        .session(Optional.of("7c9e6679-7425-40de-944b-e07fc1f90ae7"));
  }

  @Test
  void aBuiltInvocationHasEveryPartItWasGivenAndTheRestEmpty() {
    Invocation invocation = run().build();

    assertThat(invocation.argv()).containsExactly("-p", "--output-format", "json", "say hi");
    assertThat(invocation.prompt()).isEqualTo("say hi");
    assertThat(invocation.outputFormat()).isEqualTo("json");
    assertThat(invocation.model()).contains("auto");
    assertThat(invocation.pid()).isEqualTo(4242);
    assertThat(invocation.cli()).isEqualTo("cursor-agent");
    assertThat(invocation.stdin()).isEmpty();
    assertThat(invocation.stoppedBy()).isEmpty();
    assertThat(invocation.permissionAnswers()).isEmpty();
    assertThat(invocation.summary())
        .isEqualTo("prompt \"say hi\", json, model auto, argv [-p, --output-format, json, say hi]");
  }

  @Test
  void itIsAValueEqualWhenEveryPartIsAndACopyChangesOnlyWhatItSets() {
    Invocation invocation = run().build();
    Invocation stopped = invocation.toBuilder().stoppedBy(Optional.of("trust-gate")).build();

    assertThat(run().build()).isEqualTo(invocation).hasSameHashCodeAs(invocation);
    assertThat(invocation.toBuilder().build()).isEqualTo(invocation);
    assertThat(stopped).isNotEqualTo(invocation);
    assertThat(stopped.stoppedBy()).contains("trust-gate");
    assertThat(stopped.toBuilder().stoppedBy(Optional.empty()).build()).isEqualTo(invocation);
    assertThat(invocation.toString())
        .startsWith("Invocation[argv=[-p, --output-format, json, say hi], prompt=say hi,")
        .endsWith(", cli=cursor-agent, session=Optional[7c9e6679-7425-40de-944b-e07fc1f90ae7]]");
  }

  @Test
  void itKeepsNoReferenceToWhatItWasBuiltFrom() {
    List<String> argv = new ArrayList<>(List.of("say hi"));
    Invocation invocation = run().argv(argv).build();
    argv.add("--force");

    assertThat(invocation.argv()).containsExactly("say hi");
  }

  @Test
  void anInvocationNeedsItsCli() {
    assertThatThrownBy(() -> Invocation.builder().prompt("say hi").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an invocation's cli is not empty: set it with cli(..)");
  }

  @Test
  @SuppressWarnings("deprecation")
  void theConstructorsItHadMakeTheSameValueAsTheBuilder() {
    Invocation invocation = run().build();
    Invocation all =
        new Invocation(
            invocation.argv(),
            invocation.prompt(),
            invocation.cwd(),
            invocation.outputFormat(),
            invocation.model(),
            invocation.stdin(),
            invocation.pid(),
            invocation.env(),
            invocation.stoppedBy(),
            invocation.permissionAnswers(),
            invocation.cli(),
            invocation.session());
    Invocation of010 =
        new Invocation(
            invocation.argv(),
            invocation.prompt(),
            invocation.cwd(),
            invocation.outputFormat(),
            invocation.model(),
            invocation.stdin(),
            invocation.pid(),
            invocation.env(),
            invocation.stoppedBy(),
            invocation.permissionAnswers());

    assertThat(all).isEqualTo(invocation);
    assertThat(of010).isEqualTo(invocation.toBuilder().session(Optional.empty()).build());
  }
}
