package dev.agentdouble.fake.internal.cursor;

import static dev.agentdouble.fake.internal.cli.Argv.parsed;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.fake.internal.cli.Answer;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.CliParser;
import dev.agentdouble.fake.internal.cli.HelpText;
import dev.agentdouble.fake.internal.cli.ParseResult;
import dev.agentdouble.fake.internal.profile.BuiltIn;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.json.Json;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TextStyle;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SubcommandsTest {
  private static final Profile PROFILE = BuiltIn.profile(BuiltIn.DOCUMENTED);
  private static final Profile LOGGED_OUT =
      new Profile(
          "out",
          "2026.10.01-e373342",
          false,
          "dev@example.com",
          OutputFormat.STREAM_JSON,
          TextStyle.ACTIONS,
          "Auto",
          PROFILE.models(),
          Optional.empty(),
          BuiltIn.profile(BuiltIn.DOCUMENTED).behaviour());

  private static Answer answer(Profile profile, String... argv) {
    Optional<Answer> outcome =
        Subcommands.answer(parsed(profile.behaviour().surface(), argv), profile);
    assertThat(outcome).as("answer to %s", List.of(argv)).isPresent();
    return outcome.get();
  }

  private static Answer answer(String... argv) {
    return answer(PROFILE, argv);
  }

  private static CliArgs documented(String... argv) {
    return parsed(BuiltIn.surface(BuiltIn.DOCUMENTED), argv);
  }

  @Test
  void aPrintRunIsLeftToTheReplay() {
    assertThat(Subcommands.answer(documented("-p", "--output-format", "json", "hi"), PROFILE))
        .isEmpty();
    assertThat(Subcommands.answer(documented("agent", "-p", "hi"), PROFILE)).isEmpty();
  }

  @Test
  void aRunWithoutPrintIsLeftToTheCaller() {
    assertThat(Subcommands.answer(documented("hi"), PROFILE)).isEmpty();
    assertThat(Subcommands.answer(documented(), PROFILE)).isEmpty();
  }

  @Test
  void versionPrintsTheProfilesVersionLine() {
    Profile other =
        new Profile(
            "p",
            "2026.11.30-0123abc",
            true,
            "a@b.c",
            OutputFormat.TEXT,
            TextStyle.FINAL,
            "Auto",
            List.of(),
            Optional.empty(),
            BuiltIn.profile(BuiltIn.DOCUMENTED).behaviour());

    assertThat(answer("--version")).isEqualTo(new Answer("2026.10.01-e373342\n", "", 0));
    assertThat(answer(other, "-v")).isEqualTo(new Answer("2026.11.30-0123abc\n", "", 0));
  }

  @Test
  void versionWinsOverASubcommand() {
    assertThat(answer("status", "-v").stdout()).isEqualTo("2026.10.01-e373342\n");
  }

  @Test
  void helpPrintsTheRootHelpOnStdout() {
    Answer help = answer("--help");

    assertThat(help.exit().code()).isZero();
    assertThat(help.stderr()).isEmpty();
    assertThat(help.stdout())
        .startsWith("Usage: agent [options] [command] [prompt...]\n")
        .contains("  --output-format <format>");
    assertThat(answer("help")).isEqualTo(help);
    assertThat(answer("-p", "hi", "-h")).isEqualTo(help);
  }

  @Test
  void helpSaysAgentWhateverNameTheProgramWasInvokedAs() {
    CliArgs args =
        ((ParseResult.Parsed)
                CliParser.parse("cursor-agent", List.of("-h"), BuiltIn.surface(BuiltIn.DOCUMENTED)))
            .args();

    assertThat(args.programName()).isEqualTo("cursor-agent");
    assertThat(Subcommands.answer(args, PROFILE).orElseThrow().stdout())
        .startsWith("Usage: agent [options] [command] [prompt...]\n");
  }

  @Test
  void helpIsTheDocumentedTreesWithItsOwnDefaultOutputFormat() {
    String help = answer("--help").stdout();

    assertThat(help)
        .isEqualTo(HelpText.render(List.of(BuiltIn.root(BuiltIn.DOCUMENTED))))
        .contains("(default: \"stream-json\")")
        .doesNotContain("  persist ");
  }

  @Test
  void helpOfACommandIsThatCommandsHelp() {
    assertThat(answer("help", "status").stdout())
        .startsWith("Usage: agent status|whoami [options]\n\nView authentication status\n");
    assertThat(answer("whoami", "--help")).isEqualTo(answer("help", "status"));
    assertThat(answer("agent", "--help").stdout())
        .startsWith("Usage: agent agent [options] [prompt...]\n");
    assertThat(answer("mcp", "list", "-h").stdout())
        .startsWith("Usage: agent mcp list [options]\n");
    assertThat(answer("mcp", "help").stdout()).startsWith("Usage: agent mcp [options] [command]\n");
  }

  @Test
  void statusSaysWhoIsLoggedIn() {
    assertThat(answer("status")).isEqualTo(new Answer("✓ Logged in as dev@example.com\n", "", 0));
    assertThat(answer("whoami")).isEqualTo(answer("status"));
    assertThat(answer(LOGGED_OUT, "status")).isEqualTo(new Answer("Not logged in\n", "", 0));
  }

  @Test
  void statusAsJsonIsOneCompactObject() {
    Answer in = answer("status", "--format", "json");
    Answer out = answer(LOGGED_OUT, "whoami", "--format=json");

    assertThat(in.stdout()).endsWith("}\n").doesNotContain(" ").hasLineCount(1);
    JsonNode json = Json.tree(in.stdout());
    assertThat(json.get("status").asText()).isEqualTo("authenticated");
    assertThat(json.get("isAuthenticated").asBoolean()).isTrue();
    assertThat(json.at("/userInfo/email").asText()).isEqualTo("dev@example.com");
    JsonNode none = Json.tree(out.stdout());
    assertThat(none.get("status").asText()).isEqualTo("unauthenticated");
    assertThat(none.get("isAuthenticated").asBoolean()).isFalse();
    assertThat(none.has("userInfo")).isFalse();
    assertThat(out.exit().code()).isZero();
  }

  @Test
  void statusAsJsonEscapesTheEmail() {
    Profile odd =
        new Profile(
            "p",
            "v",
            true,
            "a\"b@c",
            OutputFormat.TEXT,
            TextStyle.FINAL,
            "Auto",
            List.of(),
            Optional.empty(),
            BuiltIn.profile(BuiltIn.DOCUMENTED).behaviour());

    assertThat(
            Json.tree(answer(odd, "status", "--format", "json").stdout())
                .at("/userInfo/email")
                .asText())
        .isEqualTo("a\"b@c");
  }

  @Test
  void createChatPrintsAFreshUuid() {
    Answer first = answer("create-chat");
    Answer second = answer("create-chat");

    assertThat(first.stdout()).endsWith("\n").hasLineCount(1);
    UUID id = UUID.fromString(first.stdout().strip());
    assertThat(id.version()).isEqualTo(4);
    assertThat(second.stdout()).isNotEqualTo(first.stdout());
    assertThat(first.exit().code()).isZero();
  }

  @Test
  void modelsListsIdsAndNamesWithATip() {
    Answer models = answer("models");

    assertThat(models.exit().code()).isZero();
    assertThat(models.stderr()).isEmpty();
    List<String> lines = models.stdout().lines().toList();
    assertThat(lines.get(0)).isEqualTo("Available models");
    assertThat(lines.get(1)).isEmpty();
    assertThat(lines.get(2)).isEqualTo("auto - Auto (current, default)");
    assertThat(lines).contains("claude-4.6-sonnet-medium - Sonnet 4.6 1M");
    assertThat(lines.get(lines.size() - 2)).isEmpty();
    assertThat(lines.get(lines.size() - 1)).startsWith("Tip: ");
    assertThat(lines).hasSize(PROFILE.models().size() + 4);
  }

  @Test
  void listModelsIsTheSameAsModels() {
    assertThat(answer("--list-models")).isEqualTo(answer("models"));
    assertThat(answer("-p", "--list-models", "hi")).isEqualTo(answer("models"));
  }

  @Test
  void modelsMarksTheChosenModelCurrent() {
    List<String> lines =
        answer("--list-models", "--model", "gpt-5.5-medium").stdout().lines().toList();

    assertThat(lines).contains("auto - Auto (default)", "gpt-5.5-medium - GPT-5.5 1M (current)");
  }

  @Test
  void modelsWithoutModelsSaysSo() {
    Profile none =
        new Profile(
            "p",
            "v",
            true,
            "a@b.c",
            OutputFormat.TEXT,
            TextStyle.FINAL,
            "Auto",
            List.of(),
            Optional.empty(),
            BuiltIn.profile(BuiltIn.DOCUMENTED).behaviour());

    assertThat(answer(none, "models"))
        .isEqualTo(new Answer("No models available for this account.\n", "", 0));
  }

  @Test
  void modelsNeedsAnAccount() {
    Answer outcome = answer(LOGGED_OUT, "models");

    assertThat(outcome.exit().code()).isEqualTo(1);
    assertThat(outcome.stdout()).isEmpty();
    assertThat(outcome.stderr()).startsWith("Error: Authentication required.").endsWith("\n");
  }

  @Test
  void aboutShowsVersionModelAndAccountInAlignedRows() {
    Answer about = answer("about");

    assertThat(about.exit().code()).isZero();
    assertThat(about.stdout())
        .startsWith(
            "About Cursor CLI\n\n"
                + "CLI Version         2026.10.01-e373342\n"
                + "Model               Auto\n"
                + "Subscription Tier   Pro\n"
                + "OS                  ")
        .endsWith("User Email          dev@example.com\n");
    assertThat(answer(LOGGED_OUT, "about").stdout())
        .contains("Subscription Tier   Unknown\n")
        .endsWith("User Email          Not logged in\n");
  }

  @Test
  void aboutPrintsTheProfilesTextVerbatim() {
    Profile custom =
        new Profile(
            "p",
            "v",
            true,
            "a@b.c",
            OutputFormat.TEXT,
            TextStyle.FINAL,
            "Auto",
            List.of(),
            Optional.of("About Cursor CLI\n\nCLI Version  x"),
            BuiltIn.profile(BuiltIn.DOCUMENTED).behaviour());

    assertThat(answer(custom, "about").stdout()).isEqualTo("About Cursor CLI\n\nCLI Version  x\n");
  }

  @Test
  void aboutAsJsonHasTheCliFields() {
    JsonNode json = Json.tree(answer("about", "--format", "json").stdout());

    assertThat(json.get("cliVersion").asText()).isEqualTo("2026.10.01-e373342");
    assertThat(json.get("model").asText()).isEqualTo("Auto");
    assertThat(json.get("userEmail").asText()).isEqualTo("dev@example.com");
    assertThat(json.has("osPlatform")).isTrue();
    assertThat(json.get("lastRequestId").isNull()).isTrue();
    assertThat(
            Json.tree(answer(LOGGED_OUT, "about", "--format", "json").stdout())
                .get("userEmail")
                .isNull())
        .isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ls", "resume"})
  void theSessionPickersFailWithoutATerminal(String command) {
    Answer outcome = answer(command);

    assertThat(outcome.exit().code()).isEqualTo(1);
    assertThat(outcome.stdout()).isEmpty();
    assertThat(outcome.stderr()).startsWith("Error: ").contains("stdin").endsWith("\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"login", "logout", "update"})
  void accountAndUpdateCommandsAnswerWithoutFailing(String command) {
    Answer outcome = answer(command);

    assertThat(outcome.exit().code()).isZero();
    assertThat(outcome.stderr()).isEmpty();
    assertThat(outcome.stdout()).isNotBlank().endsWith("\n");
  }

  @Test
  void loginAndLogoutDependOnTheAccount() {
    assertThat(answer("login").stdout()).contains("dev@example.com");
    assertThat(answer(LOGGED_OUT, "login").stdout()).contains("Login successful");
    assertThat(answer(LOGGED_OUT, "logout").stdout()).isEqualTo("Not logged in\n");
    assertThat(answer("update").stdout()).contains("2026.10.01-e373342");
  }

  @Test
  void mcpListsNoServers() {
    assertThat(answer("mcp", "list")).isEqualTo(new Answer("No MCP servers configured\n", "", 0));
  }

  @ParameterizedTest
  @ValueSource(strings = {"login", "list-tools", "enable", "disable"})
  void mcpServerCommandsFindNoSuchServer(String command) {
    Answer outcome = answer("mcp", command, "github");

    assertThat(outcome.exit().code()).isEqualTo(1);
    assertThat(outcome.stdout()).isEmpty();
    assertThat(outcome.stderr()).contains("\"github\"").endsWith("\n");
  }
}
