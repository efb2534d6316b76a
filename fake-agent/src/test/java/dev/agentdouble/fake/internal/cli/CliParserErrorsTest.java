package dev.agentdouble.fake.internal.cli;

import static dev.agentdouble.fake.internal.cli.Argv.usageError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.fake.internal.profile.BuiltIn;
import dev.agentdouble.fake.internal.profile.Profile;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CliParserErrorsTest {

  @Test
  void anUnknownOptionWithNothingSimilarHasNoHint() {
    assertThat(usageError("-p", "--zzzzzz", "hi")).isEqualTo("error: unknown option '--zzzzzz'\n");
  }

  @Test
  void formatSuggestsForceAsTheRealCliDoes() {
    assertThat(usageError("-p", "--format", "json", "hi"))
        .isEqualTo("error: unknown option '--format'\n(Did you mean --force?)\n");
  }

  @Test
  void aCloseMisspellingSuggestsTheOption() {
    assertThat(usageError("--stream-partial-outpt"))
        .isEqualTo(
            "error: unknown option '--stream-partial-outpt'\n"
                + "(Did you mean --stream-partial-output?)\n");
    assertThat(usageError("--verison"))
        .isEqualTo("error: unknown option '--verison'\n(Did you mean --version?)\n");
  }

  @Test
  void equallyCloseOptionsAreAllSuggestedInOrder() {
    assertThat(usageError("--modes"))
        .isEqualTo("error: unknown option '--modes'\n(Did you mean one of --mode, --model?)\n");
  }

  @Test
  void hiddenOptionsAreNeverSuggested() {
    assertThat(usageError("--auth-tokn")).isEqualTo("error: unknown option '--auth-tokn'\n");
    assertThat(usageError("--new-session")).isEqualTo("error: unknown option '--new-session'\n");
  }

  @Test
  void anUnknownShortOptionHasNoHint() {
    assertThat(usageError("-x")).isEqualTo("error: unknown option '-x'\n");
  }

  @Test
  void theRestOfACombinedShortFlagIsReportedWhenUnknown() {
    assertThat(usageError("-pz", "hi")).isEqualTo("error: unknown option '-z'\n");
  }

  @Test
  void aFlagGivenAValueIsAnUnknownOption() {
    assertThat(usageError("--print=yes")).startsWith("error: unknown option '--print=yes'");
  }

  @Test
  void theFirstUnknownOptionIsReported() {
    assertThat(usageError("hi", "--zzzzzz", "-p", "--yyyyyy"))
        .isEqualTo("error: unknown option '--zzzzzz'\n");
  }

  @Test
  void anUnknownOptionAfterThePromptIsStillAnError() {
    assertThat(usageError("-p", "hi", "--zzzzzz")).isEqualTo("error: unknown option '--zzzzzz'\n");
  }

  @Test
  void aMissingValueNamesTheOptionAsDeclared() {
    assertThat(usageError("-p", "--model"))
        .isEqualTo("error: option '--model <model>' argument missing\n");
    assertThat(usageError("-H"))
        .isEqualTo("error: option '-H, --header <header>' argument missing\n");
    assertThat(usageError("--workspace"))
        .isEqualTo("error: option '--workspace <path-or-name>' argument missing\n");
  }

  @Test
  void aMissingValueIsReportedBeforeAnEarlierUnknownOption() {
    assertThat(usageError("--zzzzzz", "--model"))
        .isEqualTo("error: option '--model <model>' argument missing\n");
  }

  @Test
  void anOutputFormatOutsideTheChoicesIsRefusedWhileParsingUnderTheDocumentedSurface() {
    assertThat(
            usageError(BuiltIn.surface(BuiltIn.DOCUMENTED), "-p", "--output-format", "yaml", "hi"))
        .isEqualTo(
            "error: option '--output-format <format>' argument 'yaml' is invalid."
                + " Allowed choices are text, json, stream-json.\n");
    assertThat(usageError(BuiltIn.surface(BuiltIn.DOCUMENTED), "--output-format=stream_json"))
        .isEqualTo(
            "error: option '--output-format <format>' argument 'stream_json' is invalid."
                + " Allowed choices are text, json, stream-json.\n");
  }

  @Test
  void aModeOrSandboxOutsideTheChoicesIsRefused() {
    assertThat(usageError("--mode", "agent"))
        .isEqualTo(
            "error: option '--mode <mode>' argument 'agent' is invalid."
                + " Allowed choices are plan, ask.\n");
    assertThat(usageError("--sandbox", "on"))
        .isEqualTo(
            "error: option '--sandbox <mode>' argument 'on' is invalid."
                + " Allowed choices are enabled, disabled.\n");
  }

  @Test
  void anInvalidChoiceIsReportedEvenAfterVersionWouldHaveBeenIgnored() {
    assertThat(usageError(BuiltIn.surface(BuiltIn.DOCUMENTED), "--output-format", "x", "-v"))
        .startsWith("error: option");
  }

  @Test
  void the2026SurfaceLeavesTheOutputFormatToTheChecksAfterTheAccount() {
    CliArgs args = Argv.parsed("-p", "--output-format", "yaml", "hi");

    assertThat(args.option("output-format")).contains("yaml");
    assertThat(args.outputFormat()).isEmpty();
  }

  @Test
  void formatIsAnOptionOfStatusOnly() {
    assertThat(Argv.parsed("status", "--format", "json").option("format")).contains("json");
    assertThat(usageError("--format", "json", "status"))
        .isEqualTo("error: unknown option '--format'\n(Did you mean --force?)\n");
  }

  @Test
  void aSubcommandSuggestsItsOwnOptions() {
    assertThat(usageError("status", "--formt", "json"))
        .isEqualTo("error: unknown option '--formt'\n(Did you mean --format?)\n");
  }

  @Test
  void aSubcommandSuggestsTheRootOptionsToo() {
    assertThat(usageError("models", "--trustt"))
        .isEqualTo("error: unknown option '--trustt'\n(Did you mean --trust?)\n");
  }

  @Test
  void aSubcommandRefusesExtraArguments() {
    assertThat(usageError("status", "now"))
        .isEqualTo("error: too many arguments for 'status'. Expected 0 arguments but got 1.\n");
    assertThat(usageError("create-chat", "a", "b"))
        .isEqualTo(
            "error: too many arguments for 'create-chat'. Expected 0 arguments but got 2.\n");
  }

  @Test
  void aMissingCommandArgumentIsNamed() {
    assertThat(usageError("mcp", "login"))
        .isEqualTo("error: missing required argument 'identifier'\n");
  }

  @Test
  void anUnknownMcpCommandSuggestsASimilarOne() {
    assertThat(usageError("mcp", "lst"))
        .isEqualTo("error: unknown command 'lst'\n(Did you mean list?)\n");
    assertThat(usageError("mcp", "frobnicate")).isEqualTo("error: unknown command 'frobnicate'\n");
  }

  @Test
  void theMcpGroupAloneShowsItsHelpAsAnError() {
    assertThat(usageError("mcp"))
        .startsWith("Usage: agent mcp [options] [command]\n\nManage MCP servers\n")
        .contains("  list ");
  }

  @Test
  void helpForAnUnknownCommandShowsTheRootHelpAsAnError() {
    assertThat(usageError("help", "bogus"))
        .startsWith("Usage: agent [options] [command] [prompt...]\n");
  }

  @ParameterizedTest
  @MethodSource("dev.agentdouble.fake.internal.profile.BuiltIn#surfaces")
  void helpInAnErrorSaysAgentWhateverNameTheProgramWasInvokedAs(Profile.Surface surface) {
    ParseResult result = CliParser.parse("cursor-agent", List.of("mcp"), surface);

    assertThat(((ParseResult.UsageError) result).stderr())
        .startsWith("Usage: agent mcp [options] [command]\n");
  }

  @Test
  void modelsHasNoFormatOption() {
    assertThat(usageError("models", "--format", "json"))
        .isEqualTo("error: unknown option '--format'\n(Did you mean --force?)\n");
    assertThat(usageError(BuiltIn.surface(BuiltIn.DOCUMENTED), "models", "--format", "json"))
        .isEqualTo("error: unknown option '--format'\n(Did you mean --force?)\n");
  }

  @Test
  void theHiddenOptionsOf2026AreNotSuggestedEither() {
    assertThat(usageError("--printen"))
        .isEqualTo("error: unknown option '--printen'\n(Did you mean --print?)\n");
    assertThat(usageError("--single-trn")).isEqualTo("error: unknown option '--single-trn'\n");
    assertThat(usageError("--system-promt")).isEqualTo("error: unknown option '--system-promt'\n");
    assertThat(usageError("worker", "--poool")).isEqualTo("error: unknown option '--poool'\n");
  }

  @Test
  void theNewCommandsTakeNoArguments() {
    assertThat(usageError("team", "acme"))
        .isEqualTo("error: too many arguments for 'team'. Expected 0 arguments but got 1.\n");
    assertThat(usageError("rule", "a"))
        .isEqualTo(
            "error: too many arguments for 'generate-rule'. Expected 0 arguments but got 1.\n");
  }
}
