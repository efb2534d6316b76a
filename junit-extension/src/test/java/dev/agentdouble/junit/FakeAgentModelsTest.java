package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test declares the models its account has: the real CLI asks its server for them, so the list is
 * the account's, and 2026.10.01's public list lacks {@code composer-2}, the default model of a
 * popular orchestrator.
 */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class FakeAgentModelsTest {
  private static Tape says(String text) {
    return new Tape(
        Header.empty(), List.of(Frame.OutBytes.text(0, text + "\n"), new Frame.Exit(1, 0)));
  }

  private static Runs.Result composer2(FakeAgent agent, Map<String, String> env) {
    return Runs.run(
        agent.executable(),
        env,
        "-p",
        "--trust",
        "--output-format",
        "stream-json",
        "--model",
        "composer-2",
        "go");
  }

  @Test
  void composer2IsRefusedUntilTheTestSaysItsAccountHasIt(FakeAgent agent) {
    Runs.Result refused = composer2(agent, Map.of());
    agent.addModels("composer-2").enqueue(says("done"));
    Runs.Result ran = composer2(agent, Map.of());

    assertThat(refused.out()).isEmpty();
    assertThat(refused.err()).startsWith("Cannot use this model: composer-2. Available models: ");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(ran.err()).isEmpty();
    assertThat(ran.out()).isEqualTo("done\n");
    assertThat(ran.exit()).isZero();
  }

  @Test
  void theTestsDeclarationWinsOverTheEnvironments(FakeAgent agent) {
    agent.addModels("composer-2").enqueue(says("done"));

    Runs.Result ran = composer2(agent, Map.of(FakeEnvironment.MODELS, "auto"));

    assertThat(ran.out()).isEqualTo("done\n");
    assertThat(ran.exit()).isZero();
  }

  @Test
  void aWholeListRefusesEveryOtherModelNamingItsOwn(FakeAgent agent) {
    agent.models("auto", "gpt-5.2");

    Runs.Result refused = composer2(agent, Map.of());

    assertThat(refused.err())
        .isEqualTo("Cannot use this model: composer-2. Available models: auto, gpt-5.2\n");
    assertThat(refused.exit()).isEqualTo(1);
  }

  @Test
  void resetTakesTheDeclarationBack(FakeAgent agent) {
    agent.addModels("composer-2").reset();

    assertThat(composer2(agent, Map.of()).exit()).isEqualTo(1);
  }

  @Test
  void anIdTheFakeCannotUseIsRefusedWhenDeclared(FakeAgent agent) {
    assertThatThrownBy(() -> agent.addModels("composer 2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("\"composer 2\" holds a blank or a comma; use +ID");
    assertThatThrownBy(() -> agent.models())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("names no model; use +ID");
  }
}
