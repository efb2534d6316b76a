package dev.agentdouble.fake.internal.cli;

import static dev.agentdouble.fake.internal.cli.Argv.parsed;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.fake.internal.profile.BuiltIn;
import dev.agentdouble.fake.internal.profile.CliOption;
import dev.agentdouble.fake.internal.profile.CliOption.Arity;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class CliParserTest {

  static Stream<CliOption> optionsWithAValue() {
    return BuiltIn.root(BuiltIn.CLI_2026_10).options().stream()
        .filter(o -> o.arity() == Arity.REQUIRED);
  }

  static Stream<CliOption> flags() {
    return BuiltIn.root(BuiltIn.CLI_2026_10).options().stream()
        .filter(o -> o.arity() == Arity.NONE && !o.name().equals("version"));
  }

  private static String valueFor(CliOption o) {
    return o.choices().isEmpty() ? "some-value" : o.choices().get(0);
  }

  @ParameterizedTest
  @MethodSource("optionsWithAValue")
  void anOptionWithAValueTakesTheNextArgumentAndNeverTheFollowingWord(CliOption option) {
    CliArgs args = parsed("-p", option.longFlag(), valueFor(option), "the", "prompt");

    assertThat(args.option(option.name())).contains(valueFor(option));
    assertThat(args.promptWords()).containsExactly("the", "prompt");
  }

  @ParameterizedTest
  @MethodSource("optionsWithAValue")
  void aShortOptionWithAValueTakesTheNextArgument(CliOption option) {
    if (option.shortFlag().isEmpty()) {
      return;
    }
    CliArgs args = parsed(option.shortFlag(), "v1", "word");

    assertThat(args.option(option.name())).contains("v1");
    assertThat(args.promptWords()).containsExactly("word");
  }

  @ParameterizedTest
  @MethodSource("flags")
  void aFlagTakesNoValue(CliOption flag) {
    CliArgs args = parsed(flag.longFlag(), "word");

    assertThat(args.has(flag.name())).isTrue();
    assertThat(args.option(flag.name())).contains("true");
    assertThat(args.promptWords()).containsExactly("word");
  }

  @Test
  void aRequiredValueIsTakenEvenWhenItLooksLikeAnOption() {
    CliArgs args = parsed("--model", "--force", "hi");

    assertThat(args.model()).contains("--force");
    assertThat(args.force()).isFalse();
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void readsTheCommonPrintInvocation() {
    CliArgs args =
        parsed(
            "-p",
            "--output-format",
            "stream-json",
            "--force",
            "--model",
            "gpt-5",
            "--resume",
            "0a1b",
            "--workspace",
            "/w",
            "fix the bug");

    assertThat(args.print()).isTrue();
    assertThat(args.outputFormat()).contains(OutputFormat.STREAM_JSON);
    assertThat(args.force()).isTrue();
    assertThat(args.model()).contains("gpt-5");
    assertThat(args.resume()).isTrue();
    assertThat(args.resumeId()).contains("0a1b");
    assertThat(args.workspace()).contains("/w");
    assertThat(args.prompt()).contains("fix the bug");
    assertThat(args.subcommand()).isEmpty();
  }

  @Test
  void promptWordsAreJoinedWithSingleSpaces() {
    CliArgs args = parsed("-p", "say", "two  spaces", "here");

    assertThat(args.promptWords()).containsExactly("say", "two  spaces", "here");
    assertThat(args.prompt()).contains("say two  spaces here");
  }

  @Test
  void noPositionalWordsMeansNoPrompt() {
    assertThat(parsed("-p", "--trust").prompt()).isEmpty();
  }

  @Test
  void aLoneDashIsAPromptWord() {
    assertThat(parsed("-p", "-").promptWords()).containsExactly("-");
  }

  @Test
  void optionsMayFollowPositionalWords() {
    CliArgs args = parsed("hello", "-p", "world", "--model", "m", "--trust");

    assertThat(args.promptWords()).containsExactly("hello", "world");
    assertThat(args.print()).isTrue();
    assertThat(args.model()).contains("m");
    assertThat(args.trust()).isTrue();
  }

  @Test
  void doubleDashEndsOptions() {
    CliArgs args = parsed("-p", "--", "--force", "-x", "status");

    assertThat(args.force()).isFalse();
    assertThat(args.promptWords()).containsExactly("--force", "-x", "status");
  }

  @Test
  void optionsBeforeDoubleDashStillCount() {
    CliArgs args = parsed("--model", "m", "-p", "--", "hi");

    assertThat(args.model()).contains("m");
    assertThat(args.print()).isTrue();
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void resumeAloneResumesWithoutAnIdAndLeavesAFollowingOptionAlone() {
    CliArgs args = parsed("--resume", "-p", "hi");

    assertThat(args.resume()).isTrue();
    assertThat(args.resumeId()).isEmpty();
    assertThat(args.print()).isTrue();
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void resumeTakesTheNextWordAsItsIdWhenItIsNotAnOption() {
    CliArgs args = parsed("-p", "--resume", "chat-1", "hi");

    assertThat(args.resumeId()).contains("chat-1");
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void resumeAsTheLastArgumentHasNoId() {
    CliArgs args = parsed("-p", "hi", "--resume");

    assertThat(args.resume()).isTrue();
    assertThat(args.resumeId()).isEmpty();
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void resumeTakesAnIdAfterAnEqualsSign() {
    assertThat(parsed("--resume=chat-2").resumeId()).contains("chat-2");
    assertThat(parsed("--resume=").resumeId()).isEmpty();
    assertThat(parsed("--resume=").resume()).isTrue();
  }

  @Test
  void resumeTakesANegativeNumberAsItsId() {
    CliArgs args = parsed("--resume", "-1", "-p");

    assertThat(args.resumeId()).contains("-1");
    assertThat(args.print()).isTrue();
  }

  @Test
  void continueResumesTheLatestSession() {
    CliArgs args = parsed("--continue", "-p", "hi");

    assertThat(args.resume()).isTrue();
    assertThat(args.resumeId()).isEmpty();
  }

  @Test
  void worktreeNameIsOptional() {
    assertThat(parsed("-w", "-p").option("worktree")).contains("true");
    assertThat(parsed("-w", "feature", "-p").option("worktree")).contains("feature");
    assertThat(parsed("-wfeature").option("worktree")).contains("feature");
    assertThat(parsed("--worktree=feature").option("worktree")).contains("feature");
  }

  @Test
  void theAgentWordBeforeTheOptionsIsTheSameRun() {
    CliArgs plain = parsed("-p", "--force", "hi");
    CliArgs withWord = parsed("agent", "-p", "--force", "hi");

    assertThat(withWord.subcommand()).isEmpty();
    assertThat(withWord.commandPath()).containsExactly("agent");
    assertThat(withWord.print()).isEqualTo(plain.print()).isTrue();
    assertThat(withWord.force()).isEqualTo(plain.force()).isTrue();
    assertThat(withWord.promptWords()).isEqualTo(plain.promptWords()).containsExactly("hi");
  }

  @Test
  void theAgentWordMayComeAfterOptions() {
    CliArgs args = parsed("-p", "agent", "hi");

    assertThat(args.subcommand()).isEmpty();
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void onlyTheFirstPositionalWordCanNameACommand() {
    CliArgs args = parsed("-p", "hello", "status");

    assertThat(args.subcommand()).isEmpty();
    assertThat(args.prompt()).contains("hello status");
  }

  @Test
  void repeatedHeadersAndDirectoriesAreAllKeptInOrder() {
    CliArgs args =
        parsed(
            "-H",
            "a: 1",
            "--header",
            "b: 2",
            "-Hc: 3",
            "--header=d: 4",
            "--add-dir",
            "/x",
            "--add-dir=/y",
            "-p",
            "hi");

    assertThat(args.headers()).containsExactly("a: 1", "b: 2", "c: 3", "d: 4");
    assertThat(args.addDirs()).containsExactly("/x", "/y");
    assertThat(args.options().get("header")).hasSize(4);
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void aRepeatedSingleValueOptionKeepsTheLastValue() {
    CliArgs args = parsed("--model", "a", "--model", "b");

    assertThat(args.model()).contains("b");
    assertThat(args.options().get("model")).containsExactly("a", "b");
  }

  @Test
  void longOptionsTakeTheirValueAfterAnEqualsSign() {
    CliArgs args = parsed("--model=gpt-5", "--output-format=json", "--workspace=/a=b");

    assertThat(args.model()).contains("gpt-5");
    assertThat(args.outputFormat()).contains(OutputFormat.JSON);
    assertThat(args.workspace()).contains("/a=b");
  }

  @Test
  void shortFlagsCombine() {
    CliArgs args = parsed("-pf", "hi");

    assertThat(args.print()).isTrue();
    assertThat(args.force()).isTrue();
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void aCombinedShortOptionWithAValueTakesTheRestOfTheArgument() {
    CliArgs args = parsed("-pfHx: 1", "hi");

    assertThat(args.print()).isTrue();
    assertThat(args.force()).isTrue();
    assertThat(args.headers()).containsExactly("x: 1");
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void yoloIsForce() {
    assertThat(parsed("--yolo").force()).isTrue();
    assertThat(parsed("-p").force()).isFalse();
  }

  @Test
  void theHiddenOptionsWork() {
    CliArgs args =
        parsed(
            "--new-session-id",
            "5f0c3c3e-3c43-4a8e-9f55-1f8f3b8d0c11",
            "--show-thinking",
            "--allowed-tools",
            "read,grep",
            "--exclude-tools",
            "shell",
            "--auth-token",
            "tok",
            "-p",
            "hi");

    assertThat(args.newSessionId()).contains("5f0c3c3e-3c43-4a8e-9f55-1f8f3b8d0c11");
    assertThat(args.has("show-thinking")).isTrue();
    assertThat(args.option("allowed-tools")).contains("read,grep");
    assertThat(args.option("exclude-tools")).contains("shell");
    assertThat(args.option("auth-token")).contains("tok");
    assertThat(args.prompt()).contains("hi");
  }

  @Test
  void theHiddenOptionsOf2026TakeTheirArity() {
    CliArgs args =
        parsed(
            "--single-turn",
            "--printenv",
            "--background-shell-timeout",
            "30",
            "--conversation-history-file",
            "h.json",
            "--system-prompt",
            "-sys.md",
            "--exclude-workspace-context",
            "-p",
            "hi");

    assertThat(args.option("single-turn")).contains("true");
    assertThat(args.option("printenv")).contains("true");
    assertThat(args.option("background-shell-timeout")).contains("30");
    assertThat(args.option("conversation-history-file")).contains("h.json");
    assertThat(args.option("system-prompt")).contains("-sys.md");
    assertThat(args.option("exclude-workspace-context")).contains("true");
    assertThat(args.promptWords()).containsExactly("hi");
  }

  @Test
  void theToolListsKeepEveryValueGiven() {
    CliArgs args =
        parsed(
            "--allowed-tools",
            "read_tool_call,grep_tool_call",
            "-p",
            "--allowed-tools=shell_tool_call",
            "--exclude-tools",
            "edit_tool_call",
            "hi",
            "--exclude-tools",
            " ls_tool_call , ,delete_tool_call");

    assertThat(args.options().get("allowed-tools"))
        .containsExactly("read_tool_call,grep_tool_call", "shell_tool_call");
    assertThat(args.commaSeparated("allowed-tools"))
        .containsExactly("read_tool_call", "grep_tool_call", "shell_tool_call");
    assertThat(args.commaSeparated("exclude-tools"))
        .containsExactly("edit_tool_call", "ls_tool_call", "delete_tool_call");
    assertThat(args.commaSeparated("bogus")).isEmpty();
    assertThat(args.promptWords()).containsExactly("hi");
  }

  @ParameterizedTest
  @MethodSource("dev.agentdouble.fake.internal.profile.BuiltIn#surfaces")
  void everyTreeAcceptsTheHiddenOptions(Profile.Surface surface) {
    for (String flags : BuiltIn.HIDDEN) {
      CliOption hidden = CliOption.hidden(flags);
      List<String> argv = new ArrayList<>(List.of(hidden.longFlag()));
      if (hidden.arity() == Arity.REQUIRED) {
        argv.add("v");
      }
      argv.add("word");
      CliArgs args = parsed(surface, argv.toArray(String[]::new));

      assertThat(surface.root().findOption(hidden.longFlag())).isNotNull();
      assertThat(args.has(hidden.name())).as(hidden.flags()).isTrue();
      assertThat(args.promptWords()).as(hidden.flags()).containsExactly("word");
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "persist",
        "install-shell-integration",
        "uninstall-shell-integration",
        "plugin",
        "worker",
        "team",
        "bedrock",
        "generate-rule"
      })
  void theCommandsNewIn2026AreCommandsThereAndPromptWordsInTheDocumentedTree(String name) {
    CliArgs cli202610 = parsed(name);
    CliArgs documented = parsed(BuiltIn.surface(BuiltIn.DOCUMENTED), name);

    assertThat(cli202610.subcommand()).contains(name);
    assertThat(cli202610.commandPath()).containsExactly(name);
    assertThat(documented.subcommand()).isEmpty();
    assertThat(documented.promptWords()).containsExactly(name);
  }

  @Test
  void ruleIsGenerateRule() {
    assertThat(parsed("rule").subcommand()).contains("generate-rule");
  }

  @Test
  void theWorkerTakesItsOwnOptions() {
    CliArgs args = parsed("worker", "--pool", "--name", "box", "--worker-dir", "/r");

    assertThat(args.subcommand()).contains("worker");
    assertThat(args.has("pool")).isTrue();
    assertThat(args.option("name")).contains("box");
    assertThat(args.option("worker-dir")).contains("/r");
  }

  @Test
  void optionsAreKeyedByLongNameInOrderOfFirstUse() {
    CliArgs args = parsed("-f", "--model", "m", "-p", "--api-key", "k", "--stream-partial-output");

    assertThat(args.options())
        .containsOnlyKeys("force", "model", "print", "api-key", "stream-partial-output");
    assertThat(new ArrayList<>(args.options().keySet()))
        .containsExactly("force", "model", "print", "api-key", "stream-partial-output");
    assertThat(args.apiKey()).contains("k");
    assertThat(args.streamPartialOutput()).isTrue();
  }

  @Test
  void keepsTheArgvAndTheProgramName() {
    ParseResult result = CliParser.parse("cursor-agent", List.of("-p", "hi"));

    CliArgs args = ((ParseResult.Parsed) result).args();
    assertThat(args.programName()).isEqualTo("cursor-agent");
    assertThat(args.argv()).containsExactly("-p", "hi");
    assertThat(parsed("-p").programName()).isEqualTo("agent");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "status",
        "create-chat",
        "models",
        "about",
        "ls",
        "resume",
        "login",
        "logout",
        "update"
      })
  void aFirstPositionalWordNamingACommandSelectsIt(String name) {
    CliArgs args = parsed(name);

    assertThat(args.subcommand()).contains(name);
    assertThat(args.commandPath()).containsExactly(name);
    assertThat(args.promptWords()).isEmpty();
  }

  @Test
  void whoamiIsStatus() {
    assertThat(parsed("whoami").subcommand()).contains("status");
  }

  @Test
  void mcpCommandsCarryTheirPathAndArguments() {
    CliArgs list = parsed("mcp", "list");
    CliArgs login = parsed("mcp", "login", "github");

    assertThat(list.subcommand()).contains("mcp");
    assertThat(list.commandPath()).containsExactly("mcp", "list");
    assertThat(login.commandPath()).containsExactly("mcp", "login");
    assertThat(login.commandArgs()).containsExactly("github");
  }

  @Test
  void statusTakesItsFormatOptionAndRootOptionsAnywhere() {
    CliArgs args = parsed("status", "--format", "json", "--api-key", "k");

    assertThat(args.subcommand()).contains("status");
    assertThat(args.option("format")).contains("json");
    assertThat(args.apiKey()).contains("k");
    assertThat(parsed("whoami", "--format=json").option("format")).contains("json");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h"})
  void helpFlagsAskForTheRootHelp(String flag) {
    CliArgs args = parsed(flag);

    assertThat(args.help()).isTrue();
    assertThat(args.commandPath()).isEmpty();
  }

  @Test
  void helpWinsWhereverItIsAndOverUnknownOptions() {
    assertThat(parsed("-p", "hi", "--help").help()).isTrue();
    assertThat(parsed("--bogus", "--help").help()).isTrue();
    assertThat(parsed("-ph").help()).isTrue();
  }

  @Test
  void theHelpCommandAsksForTheHelpOfItsArgument() {
    assertThat(parsed("help").help()).isTrue();
    assertThat(parsed("help").commandPath()).isEmpty();
    assertThat(parsed("help", "status").commandPath()).containsExactly("status");
    assertThat(parsed("help", "whoami").commandPath()).containsExactly("status");
    assertThat(parsed("mcp", "help", "list").commandPath()).containsExactly("mcp", "list");
  }

  @Test
  void aHelpFlagAfterACommandAsksForThatCommandsHelp() {
    CliArgs status = parsed("status", "--help");
    CliArgs agent = parsed("agent", "-h");

    assertThat(status.help()).isTrue();
    assertThat(status.commandPath()).containsExactly("status");
    assertThat(agent.help()).isTrue();
    assertThat(agent.commandPath()).containsExactly("agent");
  }

  @Test
  void versionEndsTheParseWhereItStands() {
    CliArgs args = parsed("--model", "m", "-v", "--bogus", "--model");

    assertThat(args.version()).isTrue();
    assertThat(args.model()).contains("m");
    assertThat(parsed("status", "--version").version()).isTrue();
    assertThat(parsed("-pv").version()).isTrue();
  }

  @Test
  void listModelsIsAFlagOfTheRun() {
    CliArgs args = parsed("--list-models", "--model", "gpt-5");

    assertThat(args.listModels()).isTrue();
    assertThat(args.model()).contains("gpt-5");
  }

  @Test
  void recognisesNegativeNumbersAsCommanderDoes() {
    assertThat(CliParser.negativeNumber("-1")).isTrue();
    assertThat(CliParser.negativeNumber("-.5")).isTrue();
    assertThat(CliParser.negativeNumber("-2.5e+3")).isTrue();
    assertThat(CliParser.negativeNumber("-5.")).isFalse();
    assertThat(CliParser.negativeNumber("-e5")).isFalse();
    assertThat(CliParser.negativeNumber("-p")).isFalse();
    assertThat(CliParser.negativeNumber("-")).isFalse();
  }
}
