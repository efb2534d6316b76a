package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.runIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdouble.contract.AccountModels;
import dev.agentdouble.script.Script;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --model} under the 2026.10 profile, through the real launcher: the account's models are
 * the profile's data, an unknown one is refused as the 2026.10.01 CLI refuses it, the variant
 * strings the server lists run, and the init event names the model chosen.
 */
@Timeout(120)
class ModelChoiceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ANSWER = "The answer.";

  @TempDir Path dir;
  Path tape;

  @BeforeEach
  void setUp() throws IOException {
    tape = dir.resolve("answer.tape.ndjson");
    Script.of("hello").init().user().assistant(ANSWER).result().exit(0).build().write(tape);
  }

  private FakeProcess.Result run(String... args) {
    return runWith(Map.of(), args);
  }

  /** A run with {@code more} variables besides the tape, fast timing and a trusted workspace. */
  private FakeProcess.Result runWith(Map<String, String> more, String... args) {
    Map<String, String> env =
        new HashMap<>(
            env(
                "AGENTDOUBLE_TAPE",
                tape.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_TRUST",
                "trusted"));
    env.putAll(more);
    return runIn(dir, env, args);
  }

  /** The answer tape with {@code "models":MODELS} in its header. */
  private void declareInTape(String models) throws IOException {
    String text = Files.readString(tape, StandardCharsets.UTF_8);
    Files.writeString(
        tape,
        text.replaceFirst("^\\{\"tape\":1", "{\"tape\":1,\"models\":" + models),
        StandardCharsets.UTF_8);
  }

  private static JsonNode init(FakeProcess.Result r) throws IOException {
    return JSON.readTree(r.out().lines().findFirst().orElseThrow());
  }

  @Test
  void anUnknownModelWritesNothingOnStdoutTheWholeListOnOneStderrLineAndExits1() {
    FakeProcess.Result r = run("-p", "--model", "not-a-real-model", "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.exit()).isEqualTo(1);
    String prefix = "Cannot use this model: not-a-real-model. Available models: ";
    assertThat(r.err())
        .startsWith(prefix + "auto, gpt-5.3-codex-low, gpt-5.3-codex-low-fast, gpt-5.3-codex, ")
        .contains(", claude-4.6-sonnet-medium, claude-4.6-sonnet-medium-thinking, ")
        .endsWith(", kimi-k2.7-code, glm-5.2-high, glm-5.2-max\n");
    assertThat(r.err().lines()).hasSize(1);
    List<String> ids = List.of(r.err().strip().substring(prefix.length()).split(", "));
    assertThat(ids).hasSize(246).doesNotHaveDuplicates().allMatch(id -> !id.contains(" "));
  }

  /**
   * The refusal of 2026.10.01, byte for byte: cagase/dsh-cursor's
   * fixtures/live/wire/grok-4.7-fast.stderr.txt (commit 40a18bc), 5796 bytes, one line naming the
   * 246 ids of its account. Its SHA-256 stands here rather than its text.
   */
  @Test
  void aModelTheAccountLacksIsRefusedByteForByteAsThe2026_10_01CaptureShows() throws Exception {
    FakeProcess.Result r = run("-p", "--model", "grok-4.7-fast", "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.stderr()).hasSize(5796);
    assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(r.stderr())))
        .isEqualTo("54cb191850d07ff4e56369a38109635b61bc5b28b53b1985c2e84d5957dd4776");
  }

  /**
   * Public 2026.10.01 runs with {@code --model grok-4.7-xhigh} exit 0 (cagase/dsh-cursor,
   * docs/live-cli-contract.md §3, fixtures/live/wire/grok-4.7-xhigh.stdout.txt).
   */
  @Test
  void grok47XhighRunsWithPartialOutputAndForceAsIn2026_10_01() throws IOException {
    FakeProcess.Result r =
        run(
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "--force",
            "--model",
            "grok-4.7-xhigh",
            "hello");

    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
    assertThat(init(r).get("model").asText()).isEqualTo("Grok 4.7  Extra High");
    assertThat(r.out()).contains(ANSWER);
  }

  /**
   * A popular orchestrator passes {@code --model composer-2}, which 2026.10.01's public list lacks;
   * an account whose server lists it says so in one line.
   */
  @Test
  void composer2IsRefusedByDefaultAsThe2026_10_01ListLacksIt() {
    FakeProcess.Result r = run("-p", "--model", "composer-2", "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err()).startsWith("Cannot use this model: composer-2. Available models: auto, ");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void anAccountDeclaredInTheEnvironmentAddsComposer2ToTheListItRunsListsAndRefusalsName() {
    Map<String, String> declared = Map.of("AGENTDOUBLE_MODELS", "+composer-2");

    FakeProcess.Result r =
        runWith(declared, "-p", "--output-format", "text", "--model", "composer-2", "hello");
    FakeProcess.Result models = runWith(declared, "models");
    FakeProcess.Result refused = runWith(declared, "-p", "--model", "composer-9", "hello");

    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo(ANSWER + "\n");
    assertThat(r.exit()).isZero();
    assertThat(models.out().lines()).contains("composer-2 - composer-2").hasSize(247 + 4);
    assertThat(refused.err()).endsWith(", glm-5.2-high, glm-5.2-max, composer-2\n");
    assertThat(refused.exit()).isEqualTo(1);
  }

  @Test
  void anAccountDeclaredWholeInTheEnvironmentHasThoseModelsOnly() {
    Map<String, String> declared = Map.of("AGENTDOUBLE_MODELS", "auto,composer-2");

    FakeProcess.Result refused = runWith(declared, "-p", "--model", "gpt-5.2", "hello");

    assertThat(refused.err())
        .isEqualTo("Cannot use this model: gpt-5.2. Available models: auto, composer-2\n");
    assertThat(refused.exit()).isEqualTo(1);
  }

  @Test
  void aDeclarationTheFakeCannotReadIsItsOwnProblemNamingTheVariable() {
    FakeProcess.Result r = runWith(Map.of("AGENTDOUBLE_MODELS", "+a,,b"), "--version");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: AGENTDOUBLE_MODELS=+a,,b: an empty id between commas; "
                + AccountModels.USE
                + "\n");
    assertThat(r.exit()).isEqualTo(70);
  }

  @Test
  void aTapeRecordedOnAnAccountWithComposer2DeclaresItInItsHeader() throws IOException {
    declareInTape("\"+composer-2\"");

    FakeProcess.Result r =
        run("-p", "--output-format", "stream-json", "--model", "composer-2", "hello");

    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
    assertThat(init(r).get("model").asText()).isEqualTo("composer-2");
  }

  @Test
  void aModelTheListLacksIsRefusedAsTheCliRefusesItWhenNoTapeAnswers() throws IOException {
    Path empty = Files.createDirectory(dir.resolve("no-tapes"));

    FakeProcess.Result r =
        runWith(
            Map.of("AGENTDOUBLE_TAPE", "", "AGENTDOUBLE_TAPES", empty.toString()),
            "-p",
            "--model",
            "composer-2",
            "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err()).startsWith("Cannot use this model: composer-2. Available models: auto, ");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void aTapesWholeListRefusesWhatItLacksEvenWhenTheEnvironmentAddsIt() throws IOException {
    declareInTape("\"auto,gpt-5.2\"");

    FakeProcess.Result r =
        runWith(
            Map.of("AGENTDOUBLE_MODELS", "+composer-2"), "-p", "--model", "composer-2", "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err())
        .isEqualTo("Cannot use this model: composer-2. Available models: auto, gpt-5.2\n");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void aModelsHeaderThatIsNotADeclarationNamesTheTapeAndItsLine() throws IOException {
    declareInTape("[\"composer-2\"]");

    FakeProcess.Result r = run("-p", "--model", "composer-2", "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err())
        .startsWith(
            "agentdouble: " + tape + ":1: header \"models\": not a string: [\"composer-2\"];");
    assertThat(r.exit()).isEqualTo(70);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "grok-4.7[context=256k,reasoning_effort=xhigh,fast=false]",
        "composer-2.5[fast=true]",
        "gpt-5.4-nano[reasoning=low]"
      })
  void aVariantStringTheServerListsRuns(String variant) {
    FakeProcess.Result r = run("-p", "--output-format", "text", "--model", variant, "hello");

    assertThat(r.err()).isEmpty();
    assertThat(r.out()).isEqualTo(ANSWER + "\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void aVariantStringTheServerDoesNotListIsRefused() {
    FakeProcess.Result r = run("-p", "--model", "composer-2.5[fast=false]", "hello");

    assertThat(r.stdout()).isEmpty();
    assertThat(r.err())
        .startsWith("Cannot use this model: composer-2.5[fast=false]. Available models: auto, ");
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void initNamesTheChosenModelByItsDisplayNameInAnyLetterCase() throws IOException {
    FakeProcess.Result r =
        run("-p", "--output-format", "stream-json", "--model", "Claude-4.6-Sonnet-Medium", "hello");

    assertThat(r.exit()).isZero();
    JsonNode init = init(r);
    assertThat(init.get("subtype").asText()).isEqualTo("init");
    assertThat(init.get("model").asText()).isEqualTo("Claude Sonnet 4.6 1M");
    // nothing else of the event changes
    JsonNode recorded = null;
    for (String line : Files.readAllLines(tape, StandardCharsets.UTF_8)) {
      JsonNode frame = JSON.readTree(line);
      if (frame.has("out") && frame.get("out").path("subtype").asText().equals("init")) {
        recorded = frame.get("out").deepCopy();
      }
    }
    assertThat(recorded).isNotNull();
    ObjectNode expected = (ObjectNode) recorded;
    expected.put("model", "Claude Sonnet 4.6 1M");
    ObjectNode live = (ObjectNode) init.deepCopy();
    for (String key : List.of("session_id", "cwd")) { // the run's own, substituted
      expected.remove(key);
      live.remove(key);
    }
    assertThat(live).isEqualTo(expected);
  }

  @Test
  void initNamesAVariantByItsDisplayName() throws IOException {
    FakeProcess.Result r =
        run("-p", "--output-format", "stream-json", "--model", "composer-2.5[fast=true]", "hello");

    assertThat(init(r).get("model").asText()).isEqualTo("Composer 2.5 Fast");
  }

  @Test
  void aTapeRecordedWithAModelKeepsItsOwn() throws IOException {
    Script.of("hello")
        .model("GPT-5.5 1M")
        .init()
        .user()
        .assistant(ANSWER)
        .result()
        .exit(0)
        .build()
        .write(tape);
    String text = Files.readString(tape, StandardCharsets.UTF_8);
    Files.writeString(
        tape,
        text.replaceFirst(
            "^\\{\"tape\":1", "{\"tape\":1,\"argv\":[\"-p\",\"--model\",\"gpt-5.5-medium\"]"),
        StandardCharsets.UTF_8);

    FakeProcess.Result r =
        run("-p", "--output-format", "stream-json", "--model", "composer-2.5", "hello");

    assertThat(r.exit()).isZero();
    assertThat(init(r).get("model").asText()).isEqualTo("GPT-5.5 1M");
  }

  @Test
  void withoutModelInitKeepsTheTapes() throws IOException {
    FakeProcess.Result r = run("-p", "--output-format", "stream-json", "hello");

    assertThat(init(r).get("model").asText()).isEqualTo("Auto");
  }

  @Test
  void modelsMarksTheFreshAccountsCurrentModelWhichIsTheDefault() {
    FakeProcess.Result models = run("models");
    FakeProcess.Result listModels = run("--list-models");

    assertThat(models.exit()).isZero();
    List<String> lines = models.out().lines().toList();
    assertThat(lines.subList(0, 3))
        .containsExactly("Available models", "", "auto - Auto (current, default)");
    assertThat(lines)
        .contains(
            "claude-4.6-sonnet-medium - Claude Sonnet 4.6 1M",
            "claude-fable-5-high - Claude Fable 5 1M (NO ZDR)",
            // as printed: a double space, and two U+200B after the -fast names
            "grok-4.7-xhigh - Grok 4.7  Extra High",
            "grok-4.7-xhigh-fast - Grok 4.7  Extra High Fast\u200b\u200b")
        .hasSize(246 + 4);
    assertThat(lines.stream().filter(l -> l.contains("(current"))).hasSize(1);
    assertThat(listModels.out()).isEqualTo(models.out());
  }
}
