package dev.agentdouble.fake.internal.cursor;

import static dev.agentdouble.fake.internal.cli.Argv.parsed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.fake.internal.cli.Answer;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.CliParser;
import dev.agentdouble.fake.internal.cli.HelpText;
import dev.agentdouble.fake.internal.cli.ParseResult;
import dev.agentdouble.fake.internal.profile.BuiltIn;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.json.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The subcommands as the 2026.10 profile answers them ({@code reference/cursor-cli.md} part 3). */
class SubcommandsCli202610Test {
  private static final Profile PROFILE = BuiltIn.profile(BuiltIn.CLI_2026_10);
  private static final Profile LOGGED_OUT =
      new Profile(
          "out",
          PROFILE.version(),
          false,
          PROFILE.email(),
          PROFILE.defaultOutputFormat(),
          PROFILE.textStyle(),
          PROFILE.model(),
          PROFILE.models(),
          Optional.empty(),
          PROFILE.behaviour());

  private static Answer answer(Profile profile, String... argv) {
    Optional<Answer> outcome =
        Subcommands.answer(parsed(BuiltIn.surface(BuiltIn.CLI_2026_10), argv), profile);
    assertThat(outcome).as("answer to %s", List.of(argv)).isPresent();
    return outcome.get();
  }

  private static Answer answer(String... argv) {
    return answer(PROFILE, argv);
  }

  @Test
  void theProfileIsThe2026Surface() {
    assertThat(PROFILE.behaviour().surface().name()).isEqualTo(BuiltIn.CLI_2026_10);
  }

  @Test
  void helpIsThe2026HelpOnStdoutWhicheverWayItIsAsked() {
    Answer help = answer("--help");

    assertThat(help)
        .isEqualTo(Answer.out(HelpText.render(List.of(BuiltIn.root(BuiltIn.CLI_2026_10)))));
    assertThat(answer("-h")).isEqualTo(help);
    assertThat(answer("help")).isEqualTo(help);
    assertThat(answer("-p", "hi", "--help")).isEqualTo(help);
  }

  @Test
  void helpSaysAgentWhenInvokedAsCursorAgent() {
    CliArgs args =
        ((ParseResult.Parsed)
                CliParser.parse(
                    "cursor-agent", List.of("--help"), BuiltIn.surface(BuiltIn.CLI_2026_10)))
            .args();

    assertThat(Subcommands.answer(args, PROFILE).orElseThrow()).isEqualTo(answer("--help"));
  }

  @Test
  void helpOfANewCommandIsThatCommandsHelp() {
    Answer rule = answer("help", "generate-rule");

    assertThat(rule.stdout())
        .startsWith(
            "Usage: agent generate-rule|rule [options]\n\n"
                + "Generate a new Cursor rule with interactive prompts\n");
    assertThat(answer("rule", "--help")).isEqualTo(rule);
    assertThat(answer("generate-rule", "-h")).isEqualTo(rule);
    assertThat(answer("help", "worker").stdout()).startsWith("Usage: agent worker [options]\n");
    assertThat(answer("persist", "--help").stdout())
        .isEqualTo(
            "Usage: agent persist [options]\n\n"
                + "Start or manage a session that survives terminal disconnects\n\n"
                + "Options:\n"
                + "  -h, --help  Display help for command\n");
  }

  @Test
  void statusAsJsonIsPrettyWithTheUserInfo() {
    assertThat(answer("status", "--format", "json"))
        .isEqualTo(
            Answer.out(
                "{\n"
                    + "  \"status\": \"authenticated\",\n"
                    + "  \"isAuthenticated\": true,\n"
                    + "  \"hasAccessToken\": true,\n"
                    + "  \"hasRefreshToken\": true,\n"
                    + "  \"userInfo\": {\n"
                    + "    \"email\": \"dev@example.com\",\n"
                    + "    \"userId\": 100200300,\n"
                    + "    \"firstName\": \"Dev\",\n"
                    + "    \"lastName\": \"Example\",\n"
                    + "    \"createdAt\": \"2024-01-15T09:30:00.000Z\"\n"
                    + "  }\n"
                    + "}\n"));
    assertThat(answer("whoami", "--format=json")).isEqualTo(answer("status", "--format", "json"));
  }

  @Test
  void statusAsJsonWithoutAnAccountSaysNotLoggedIn() {
    assertThat(answer(LOGGED_OUT, "status", "--format", "json"))
        .isEqualTo(
            Answer.out(
                "{\n"
                    + "  \"status\": \"unauthenticated\",\n"
                    + "  \"isAuthenticated\": false,\n"
                    + "  \"hasAccessToken\": false,\n"
                    + "  \"hasRefreshToken\": false,\n"
                    + "  \"message\": \"Not logged in\"\n"
                    + "}\n"));
    assertThat(answer(LOGGED_OUT, "status")).isEqualTo(Answer.out("Not logged in\n"));
    assertThat(answer("status")).isEqualTo(Answer.out("✓ Logged in as dev@example.com\n"));
  }

  @Test
  void aboutAsJsonIsPrettyWithTheKeysInTheCliOrder() {
    Answer about = answer("about", "--format", "json");
    JsonNode json = Json.tree(about.stdout());
    List<String> keys = new ArrayList<>();
    json.fieldNames().forEachRemaining(keys::add);

    assertThat(keys)
        .containsExactly(
            "cliVersion",
            "latestStatus",
            "latestVersion",
            "model",
            "subscriptionTier",
            "osPlatform",
            "osArch",
            "userEmail",
            "terminalProgram",
            "shell",
            "lastRequestId");
    assertThat(about.stdout())
        .isEqualTo(
            "{\n"
                + "  \"cliVersion\": \"2026.10.01-e373342\",\n"
                + "  \"latestStatus\": \"up_to_date\",\n"
                + "  \"latestVersion\": \"2026.10.01-e373342\",\n"
                + "  \"model\": \"Auto\",\n"
                + "  \"subscriptionTier\": \"Pro\",\n"
                + "  \"osPlatform\": \""
                + json.get("osPlatform").asText()
                + "\",\n"
                + "  \"osArch\": \""
                + json.get("osArch").asText()
                + "\",\n"
                + "  \"userEmail\": \"dev@example.com\",\n"
                + "  \"terminalProgram\": \"unknown\",\n"
                + "  \"shell\": \"unknown\",\n"
                + "  \"lastRequestId\": null\n"
                + "}\n");
    assertThat(answer(LOGGED_OUT, "about", "--format", "json").stdout())
        .contains("\n  \"userEmail\": null,\n");
  }

  @Test
  void aboutHasALatestRowAfterTheVersion() {
    assertThat(answer("about").stdout())
        .startsWith(
            "About Cursor CLI\n\n"
                + "CLI Version         2026.10.01-e373342\n"
                + "Latest              2026.10.01-e373342 (up to date)\n"
                + "Model               Auto\n");
  }

  @Test
  void modelsMarksTheFreshAccountsCurrentModelTheDefaultAndEndsWithThe2026Tip() {
    Answer models = answer("models");

    assertThat(models.exit().code()).isZero();
    assertThat(models.stderr()).isEmpty();
    assertThat(models.stdout())
        .startsWith(
            "Available models\n\n"
                + "auto - Auto (current, default)\n"
                + "gpt-5.3-codex-low - Codex 5.3 Low\n"
                + "gpt-5.3-codex-low-fast - Codex 5.3 Low Fast\n")
        .contains("\nclaude-4.6-sonnet-medium - Claude Sonnet 4.6 1M\n")
        .endsWith(
            "\nglm-5.2-max - GLM 5.2 Max\n"
                + "\n"
                + "Tip: use --model <id> (or /model <id> in interactive mode) to switch. Parameterized"
                + " models also accept quoted overrides, e.g. --model"
                + " 'claude-opus-4-8[context=1m,effort=high,fast=false]'.\n");
    assertThat(models.stdout().lines()).hasSize(PROFILE.models().size() + 4);
  }

  @Test
  void modelsMarksAChosenModelCurrent() {
    List<String> lines =
        answer("--list-models", "--model", "gpt-5.5-medium").stdout().lines().toList();

    assertThat(lines).contains("auto - Auto (default)", "gpt-5.5-medium - GPT-5.5 1M (current)");
    assertThat(answer("models", "--model", "auto").stdout())
        .contains("\nauto - Auto (current, default)\n");
  }

  @Test
  void listModelsIsModels() {
    assertThat(answer("--list-models")).isEqualTo(answer("models"));
  }

  @Test
  void modelsWithoutAnAccountUsesThe2026Wording() {
    Answer expected = Answer.fail(CursorMessages.AUTH_REQUIRED_FOR_MODELS);

    assertThat(answer(LOGGED_OUT, "models")).isEqualTo(expected);
    assertThat(answer(LOGGED_OUT, "--list-models")).isEqualTo(expected);
    assertThat(expected.stderr())
        .isEqualTo(
            "Error: Authentication required. Run 'agent login',"
                + " pass --api-key/--auth-token, or set CURSOR_API_KEY/CURSOR_AUTH_TOKEN.\n");
  }

  @Test
  void createChatPrintsAFreshUuid() {
    Answer chat = answer("create-chat");

    assertThat(chat.exit().code()).isZero();
    assertThat(UUID.fromString(chat.stdout().strip()).version()).isEqualTo(4);
    assertThat(chat.stdout()).endsWith("\n").hasLineCount(1);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"ls", "resume", "persist", "plugin", "team", "bedrock", "generate-rule", "rule"})
  void theInteractiveCommandsCrashWithoutATerminal(String command) {
    assertThat(answer(command)).isEqualTo(Answer.fail(CursorMessages.RAW_MODE_UNSUPPORTED));
  }

  @Test
  void shellIntegrationIsReportedDoneWithoutTouchingAFile() {
    assertThat(answer("install-shell-integration"))
        .isEqualTo(Answer.out("✓ Shell integration installed to ~/.zshrc\n"));
    assertThat(answer("uninstall-shell-integration"))
        .isEqualTo(Answer.out("✓ Shell integration removed from ~/.zshrc\n"));
  }

  @Test
  void aWorkerIsNotImpersonated() {
    Answer worker = answer("worker", "--pool");

    assertThat(worker.exit().code()).isEqualTo(ExitStatus.OWN_PROBLEM);
    assertThat(worker.stdout()).isEmpty();
    assertThat(worker.stderr())
        .startsWith("agentdouble: 'agent worker' is not impersonated")
        .endsWith("\n");
  }

  @Test
  void prettyJsonIsJavaScriptsStringifyWithTwoSpaces() {
    Map<String, Object> inner = new LinkedHashMap<>();
    Map<String, Object> outer = new LinkedHashMap<>();
    outer.put("a", "x\"y");
    outer.put("empty", inner);
    outer.put("n", null);

    assertThat(Subcommands.pretty(outer))
        .isEqualTo("{\n  \"a\": \"x\\\"y\",\n  \"empty\": {},\n  \"n\": null\n}\n");
    assertThat(Subcommands.pretty(inner)).isEqualTo("{}\n");
  }
}
