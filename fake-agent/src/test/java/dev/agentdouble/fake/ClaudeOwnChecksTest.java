package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The checks Claude Code 2.1.328 makes of option values outside commander's choices, as runs of the
 * real CLI showed them (docs/claude-2.1.328-runs.md part p): a true {@code --prompt-suggestions}
 * outside stream-json stops the run; an unknown {@code --effort} is warned of and taken; {@code
 * --setting-sources} refuses a source it does not know before any other check; {@code
 * --autocompact} refuses what is neither {@code auto} nor at least 100k tokens. The run goes on to
 * the tape, here {@code builtin:claude-not-logged-in}.
 */
@Timeout(120)
class ClaudeOwnChecksTest {
  private static final String NOT_LOGGED_IN = "Not logged in · Please run /login\n";
  private static final String SUGGESTIONS =
      "Error: --prompt-suggestions requires --print and --output-format=stream-json"
          + " (prompt_suggestion messages only appear in stream-json output).\n";
  private static final String AUTOCOMPACT =
      " is invalid. It must be 'auto', or at least 100k (e.g. 500k, 200000, or 200 as"
          + " shorthand)\n";

  private static FakeProcess.Result claude(String... args) {
    List<String> argv = new ArrayList<>(List.of("-p"));
    argv.addAll(List.of(args));
    return FakeProcess.run(
        ClaudeArgvTest.claude(),
        Map.of("AGENTDOUBLE_TAPE", "builtin:claude-not-logged-in", "AGENTDOUBLE_TIMING", "fast"),
        new byte[0],
        argv.toArray(String[]::new));
  }

  private static String effortWarning(String value) {
    return "Warning: Unknown --effort value '"
        + value
        + "' — ignoring it and using the default effort. Valid values: low, medium, high, xhigh,"
        + " max.\n";
  }

  private static String settingSources(String value) {
    return "Error processing --setting-sources: Invalid setting source: "
        + value
        + ". Valid options are: user, project, local\n";
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "--prompt-suggestions=true",
        "--prompt-suggestions=ON",
        "--prompt-suggestions= yes"
      })
  void aTruePromptSuggestionsOutsideStreamJsonStopsTheRun(String option) {
    FakeProcess.Result r = claude(option, "hi");

    assertThat(r.err()).as("stderr").isEqualTo(SUGGESTIONS);
    assertThat(r.out()).as("stdout").isEmpty();
    assertThat(r.exit()).as("exit").isEqualTo(1);
  }

  @Test
  void promptSuggestionsStandsAfterTheInputFormatCheckAndBeforeThePartialOne() {
    assertThat(claude("--prompt-suggestions", "true", "--input-format", "stream-json", "hi").err())
        .isEqualTo("Error: --input-format=stream-json requires output-format=stream-json.\n");
    assertThat(claude("--prompt-suggestions", "true", "--include-partial-messages", "hi").err())
        .isEqualTo(SUGGESTIONS);
    assertThat(claude("--prompt-suggestions", "true").err()).isEqualTo(SUGGESTIONS);
    assertThat(claude("--prompt-suggestions", "false", "hi").out()).isEqualTo(NOT_LOGGED_IN);
  }

  @Test
  void anUnknownEffortIsWarnedOfAsItIsParsedAndTaken() {
    FakeProcess.Result r = claude("--effort", "bogus", "hi");

    assertThat(r.err()).as("stderr").isEqualTo(effortWarning("bogus"));
    assertThat(r.out()).as("stdout").isEqualTo(NOT_LOGGED_IN);
    assertThat(claude("--effort", "bogus", "--effort", "", "--bogus-flag", "hi").err())
        .isEqualTo(
            effortWarning("bogus") + effortWarning("") + "error: unknown option '--bogus-flag'\n");
    assertThat(claude("--output-format", "bogus", "--effort", "bogus", "hi").err())
        .startsWith("error: option '--output-format <format>' argument 'bogus' is invalid.");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"med", "Med ", "ULTRACODE", " max", "HIGH", "xhigh"})
  void aKnownEffortInAnyCaseIsTakenSilently(String value) {
    FakeProcess.Result r = claude("--effort", value, "hi");

    assertThat(r.err()).as("stderr").isEmpty();
    assertThat(r.out()).as("stdout").isEqualTo(NOT_LOGGED_IN);
  }

  @Test
  void anUnknownSettingSourceIsRefusedBeforeAnyOtherCheck() {
    assertThat(claude("--setting-sources", "USER", "hi").err()).isEqualTo(settingSources("USER"));
    assertThat(claude("--setting-sources", "user,", "hi").err()).isEqualTo(settingSources(""));
    assertThat(claude("--output-format", "bogus", "--setting-sources", "local,bogus,x").err())
        .isEqualTo(settingSources("bogus"));
    assertThat(claude("--setting-sources=policy", "--bogus-flag", "-v").err())
        .isEqualTo(settingSources("policy"));
    FakeProcess.Result r = claude("--setting-sources", "user", "--setting-sources", "x", "hi");
    assertThat(r.err()).isEqualTo(settingSources("x"));
    assertThat(r.out()).isEmpty();
    assertThat(r.exit()).isEqualTo(1);
  }

  @ParameterizedTest(name = "[{0}]")
  @ValueSource(strings = {"", " user , local ", "project,project", "user,project"})
  void knownSettingSourcesGoOn(String value) {
    FakeProcess.Result r = claude("--setting-sources", value, "hi");

    assertThat(r.err()).as("stderr").isEmpty();
    assertThat(r.out()).as("stdout").isEqualTo(NOT_LOGGED_IN);
    assertThat(claude("--setting-sources", "bogus", "--setting-sources", value, "hi").out())
        .as("the last one counts")
        .isEqualTo(NOT_LOGGED_IN);
  }

  @ParameterizedTest(name = "[{0}]")
  @ValueSource(
      strings = {
        "bogus",
        "",
        "99",
        "1001",
        "99999",
        "99k",
        "0x186a0",
        "-200",
        "2.5e-1",
        "Infinity"
      })
  void anAutocompactUnderOneHundredThousandTokensIsRefusedAsItIsParsed(String value) {
    FakeProcess.Result r = claude("--autocompact", value, "hi");

    assertThat(r.err())
        .as("stderr")
        .isEqualTo(
            "error: option '--autocompact <auto|tokens>' argument '" + value + "'" + AUTOCOMPACT);
    assertThat(r.out()).as("stdout").isEmpty();
    assertThat(r.exit()).as("exit").isEqualTo(1);
  }

  @ParameterizedTest(name = "[{0}]")
  @ValueSource(
      strings = {
        " AUTO ",
        "200",
        "100000",
        "100K",
        "0.5m",
        "1e6",
        "1,000,000",
        "200000abc",
        "1000.9"
      })
  void anAutocompactOfAutoOrAtLeastOneHundredThousandTokensGoesOn(String value) {
    FakeProcess.Result r = claude("--autocompact", value, "hi");

    assertThat(r.err()).as("stderr").isEmpty();
    assertThat(r.out()).as("stdout").isEqualTo(NOT_LOGGED_IN);
  }
}
