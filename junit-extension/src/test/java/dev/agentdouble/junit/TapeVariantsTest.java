package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Tape;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class TapeVariantsTest {
  static final List<Integer> EXITS = new CopyOnWriteArrayList<>();

  @ParameterizedTest(name = "{0}")
  @TapeVariants(
      resource = "tapes/hello.tape.ndjson",
      seed = 42,
      only = {"rechunk", "cut-mid-line", "noise", "drop-result"})
  void eachVariantReachesTheConsumerThroughTheFake(Tape tape, FakeAgent agent) {
    agent.enqueue(tape);

    Runs.Result r =
        Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "hi");

    EXITS.add(r.exit());
    assertThat(r.out()).isNotEmpty();
  }

  @AfterAll
  static void theVariantsRanAndEndedAsTheyShould() {
    assertThat(EXITS).hasSize(4).containsOnlyOnce(137); // only cut-mid-line dies by SIGKILL
  }
}
