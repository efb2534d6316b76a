package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import dev.agentdouble.testing.Sources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Print mode and an ACP prompt run one pipeline (the fake's {@code Turn}): what it does for one
 * face it does for the other. The replay cache is one such step, taken in the pipeline's validate
 * step: when ACP prompts had a copy of the pipeline of their own, they validated without it.
 */
@Timeout(120)
class OnePipelineTest {
  @TempDir Path dir;

  /** A stream-json tape over the replay cache's least size (256 KiB). */
  private Path bigTape() throws IOException {
    Script script = Script.of().init().user();
    for (int i = 0; i < 2; i++) {
      script.assistant(("answer " + i + " \"quoted\"\n").repeat(15_000));
    }
    Tape tape = script.result().exit(0).build();
    Path file = dir.resolve("big.tape.ndjson");
    new Tape(tape.header().toBuilder().vars(Vars.NONE).build(), tape.frames()).write(file);
    // an entry is kept for a tape that stood unchanged a while (its change time, which no call
    // can set back)
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> changeTime(file) < System.currentTimeMillis() - 500);
    return file;
  }

  private static long changeTime(Path file) throws IOException {
    return ((FileTime) Files.getAttribute(file, "unix:ctime")).toMillis();
  }

  private static List<Path> files(Path folder) throws IOException {
    if (!Files.exists(folder)) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(folder)) {
      return all.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void anAcpPromptAndAPrintRunOfOneTapeShareTheReplayCacheAndTheJournal() throws Exception {
    Path tape = bigTape();
    Path cache = dir.resolve("cache");
    Path journal = dir.resolve("journal.ndjson");
    Map<String, String> env =
        env(
            "AGENTDOUBLE_TAPE", tape.toString(),
            "AGENTDOUBLE_TIMING", "fast",
            "AGENTDOUBLE_CACHE_DIR", cache.toString(),
            "AGENTDOUBLE_JOURNAL", journal.toString());

    List<Path> keptByAcp;
    try (AcpPeer agent = new AcpPeer(env)) {
      String session = agent.open("/w");
      JsonNode done = agent.call("session/prompt", AcpPeer.prompt(session, "hi"));
      assertThat(done.path("result").path("stopReason").asText()).isEqualTo("end_turn");
      keptByAcp = files(cache);
      assertThat(agent.finish()).isZero();
    }
    FakeProcess.Result print = FakeProcess.run(env, "-p", "--output-format", "stream-json", "hi");

    assertThat(keptByAcp).as("the replay cache after the ACP prompt").hasSize(1);
    assertThat(print.exit()).isZero();
    assertThat(files(cache)).as("the replay cache after the print run").isEqualTo(keptByAcp);
    List<JsonNode> lines =
        Files.readAllLines(journal, StandardCharsets.UTF_8).stream().map(AcpPeer::parse).toList();
    assertThat(lines)
        .extracting(
            l -> l.path("outputFormat").asText(),
            l -> l.path("tape").asText(),
            l -> l.path("exit").asInt(-1))
        .containsExactly(
            tuple("acp", tape.toString(), 0), tuple("stream-json", tape.toString(), 0));
  }

  /** The main sources of the fake that hold {@code code}, by file name. */
  private static List<String> sourcesHolding(String code) {
    return Sources.mainContaining(code).stream()
        .filter(f -> f.startsWith("fake-agent/"))
        .map(f -> Path.of(f).getFileName().toString())
        .sorted()
        .toList();
  }

  @Test
  void onlyTheTurnChoosesATapeForAnInvocationAndPlaysIt() throws IOException {
    assertThat(sourcesHolding("new Player(")).containsExactly("Turn.java");
    assertThat(sourcesHolding("ControlClient.ask(")).containsExactly("Turn.java");
    // AcpReplay.configured: a whole recorded ACP session, not a turn; StdinSession: whether
    // AGENTDOUBLE_TAPE is a recorded claude session (then played as one turn); Training: the
    // class-data archive's run, which loads the selection's classes without a turn
    assertThat(sourcesHolding("TapeSelection.select("))
        .containsExactly("AcpReplay.java", "StdinSession.java", "Training.java", "Turn.java");
    assertThat(sourcesHolding("new Turn("))
        .containsExactly("AcpPrompt.java", "ClaudeRun.java", "CursorRun.java", "StdinSession.java");
  }
}
