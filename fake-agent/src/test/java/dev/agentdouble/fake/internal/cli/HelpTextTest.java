package dev.agentdouble.fake.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.fake.internal.profile.BuiltIn;
import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliOption;
import dev.agentdouble.fake.internal.profile.Profile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class HelpTextTest {
  /** The width of the terms in the 2026.07 CLI's help, whose lines these tests compare with. */
  private static final int TERMS_2026_07 = 27;

  private static String item(String flags) {
    for (CliOption o : BuiltIn.root(BuiltIn.CLI_2026_10).options()) {
      if (o.flags().equals(flags)) {
        return HelpText.formatItem(o.flags(), TERMS_2026_07, o.help());
      }
    }
    throw new AssertionError("no option " + flags);
  }

  @Test
  void wrapsADescriptionAsTheRealHelpDoes() {
    assertThat(item("-p, --print"))
        .isEqualTo(
            "  -p, --print                  Print responses to console (for scripts or\n"
                + "                               non-interactive use). Has access to all tools,\n"
                + "                               including write and shell. (default: false)");
    assertThat(item("--auto-review"))
        .isEqualTo(
            "  --auto-review                Use Auto-review (Smart Auto): a server classifier\n"
                + "                               auto-runs safe tool calls and prompts for the\n"
                + "                               rest (default: false)");
  }

  @Test
  void putsAWordLongerThanTheColumnOnALineOfItsOwn() {
    assertThat(item("--model <model>"))
        .isEqualTo(
            "  --model <model>              Model to use (e.g., gpt-5, sonnet-4-thinking).\n"
                + "                               Parameterized models accept quoted bracket\n"
                + "                               overrides, e.g.\n"
                + "                               'claude-opus-4-8[context=1m,effort=high,"
                + "fast=false]'");
  }

  @Test
  void leavesAShortDescriptionOnOneLine() {
    assertThat(item("-v, --version"))
        .isEqualTo("  -v, --version                Output the version number");
  }

  @Test
  void doesNotWrapWhenTheColumnIsNarrowerThanForty() {
    String description = "word ".repeat(20).trim();

    assertThat(HelpText.formatItem("--x", 50, description)).doesNotContain("\n");
  }

  @Test
  void rootHelpHasUsageDescriptionArgumentsOptionsAndCommands() {
    String help = HelpText.render(List.of(BuiltIn.root(BuiltIn.DOCUMENTED)));

    assertThat(help)
        .startsWith(
            "Usage: agent [options] [command] [prompt...]\n\n"
                + "Start the Cursor Agent\n\n"
                + "Arguments:\n"
                + "  prompt                      Initial prompt for the agent\n\n"
                + "Options:\n"
                + "  -v, --version               Output the version number\n");
    assertThat(help)
        .contains("\nCommands:\n  login ")
        .endsWith("  help [command]              Display help for command\n");
  }

  @ParameterizedTest
  @MethodSource("dev.agentdouble.fake.internal.profile.BuiltIn#surfaces")
  void rootHelpListsEveryVisibleOptionAndCommandButNoHiddenOption(Profile.Surface surface) {
    CliCommand root = surface.root();
    String help = HelpText.render(List.of(root));

    for (CliOption o : root.options()) {
      if (o.hidden()) {
        assertThat(help).doesNotContain(o.longFlag());
      } else {
        assertThat(help).contains("\n  " + o.flags() + " ");
      }
    }
    assertThat(help).contains("\n  -h, --help ");
    for (String term :
        List.of(
            "login",
            "logout",
            "mcp",
            "status|whoami [options]",
            "models",
            "about [options]",
            "update",
            "create-chat",
            "agent [prompt...]",
            "ls",
            "resume",
            "help [command]")) {
      assertThat(help).contains("\n  " + term + " ");
    }
  }

  @ParameterizedTest
  @MethodSource("dev.agentdouble.fake.internal.profile.BuiltIn#surfaces")
  void everyLineFitsTheWidthUnlessItIsOneLongWord(Profile.Surface surface) {
    String help = HelpText.render(List.of(surface.root()));

    for (String line : help.split("\n")) {
      if (!line.strip().contains(" ")) {
        continue;
      }
      assertThat(line.length()).as(line).isLessThanOrEqualTo(HelpText.WIDTH);
    }
  }

  @Test
  void usageNamesTheCommandPathAndTheAlias() {
    CliCommand root = BuiltIn.root(BuiltIn.CLI_2026_10);
    CliCommand status = root.findSubcommand("status");
    CliCommand mcp = root.findSubcommand("mcp");
    CliCommand agent = root.findSubcommand("agent");

    assertThat(HelpText.usage(List.of(root, status))).isEqualTo("agent status|whoami [options]");
    assertThat(HelpText.usage(List.of(root, agent))).isEqualTo("agent agent [options] [prompt...]");
    assertThat(HelpText.usage(List.of(root, mcp, mcp.findSubcommand("login"))))
        .isEqualTo("agent mcp login [options] <identifier>");
    assertThat(HelpText.usage(List.of(root, root.findSubcommand("rule"))))
        .isEqualTo("agent generate-rule|rule [options]");
  }

  @Test
  void aLeafCommandsHelpListsItsOptionsAndTheHelpOption() {
    CliCommand status = BuiltIn.root(BuiltIn.CLI_2026_10).findSubcommand("status");

    assertThat(HelpText.render(List.of(BuiltIn.root(BuiltIn.CLI_2026_10), status)))
        .isEqualTo(
            "Usage: agent status|whoami [options]\n\n"
                + "View authentication status\n\n"
                + "Options:\n"
                + "  --format <format>  Output format: text or json (default: \"text\")\n"
                + "  -h, --help         Display help for command\n");
  }

  @Test
  void the2026HelpIsTheReferenceByteForByte() throws IOException {
    Path reference = shared().resolve("reference/help-2026.10.01.txt");
    Assumptions.assumeTrue(
        Files.isRegularFile(reference),
        "the 2026.10.01 help is compared"
            + " where ../shared is beside the project (as in CI); "
            + reference
            + " is absent");

    byte[] expected = Files.readAllBytes(reference);

    assertThat(
            HelpText.render(List.of(BuiltIn.root(BuiltIn.CLI_2026_10)))
                .getBytes(StandardCharsets.UTF_8))
        .isEqualTo(expected);
  }

  @Test
  void the2026HelpListsTheCommandsInTheRealOrder() {
    String help = HelpText.render(List.of(BuiltIn.root(BuiltIn.CLI_2026_10)));
    List<String> terms = new ArrayList<>();
    for (String line : help.substring(help.indexOf("Commands:\n")).split("\n")) {
      if (line.startsWith("  ") && !line.startsWith("   ")) {
        terms.add(line.strip().split("  ")[0]);
      }
    }

    assertThat(terms)
        .containsExactly(
            "persist",
            "install-shell-integration",
            "uninstall-shell-integration",
            "login",
            "logout",
            "mcp",
            "plugin",
            "worker [options]",
            "status|whoami [options]",
            "models",
            "team",
            "bedrock",
            "about [options]",
            "update",
            "create-chat",
            "generate-rule|rule",
            "agent [prompt...]",
            "ls",
            "resume",
            "help [command]");
  }

  @Test
  void the2026HelpHasTheNewEndpointAndTrustTexts() {
    String help = HelpText.render(List.of(BuiltIn.root(BuiltIn.CLI_2026_10)));

    assertThat(help)
        .contains(
            "  -e, --endpoint <url>         Target API endpoint URL (can also use\n"
                + "                               CURSOR_API_ENDPOINT env var) (default:\n"
                + "                               \"https://api2.cursor.sh\", env:\n"
                + "                               CURSOR_API_ENDPOINT)\n",
            "  --trust                      Trust the current workspace without prompting\n"
                + "                               (default: false)\n",
            "(default: \"text\")");
  }

  @Test
  void theDocumentedHelpStatesItsOwnDefaultOutputFormat() {
    String help = HelpText.render(List.of(BuiltIn.root(BuiltIn.DOCUMENTED)));

    assertThat(help)
        .contains(
            "  --output-format <format>    Output format (only works with --print): text |\n"
                + "                              json | stream-json (default: \"stream-json\")\n")
        .doesNotContain("  persist ")
        .doesNotContain("  worker ");
  }

  @Test
  void theHelpOfANewCommandIsCommandersHelpOfALeaf() {
    CliCommand root = BuiltIn.root(BuiltIn.CLI_2026_10);

    assertThat(HelpText.render(List.of(root, root.findSubcommand("generate-rule"))))
        .isEqualTo(
            "Usage: agent generate-rule|rule [options]\n\n"
                + "Generate a new Cursor rule with interactive prompts\n\n"
                + "Options:\n"
                + "  -h, --help  Display help for command\n");
    assertThat(HelpText.render(List.of(root, root.findSubcommand("worker"))))
        .isEqualTo(
            "Usage: agent worker [options]\n\n"
                + "Run a self-hosted Cloud Agent worker that connects to Cursor and executes agent\n"
                + "tool calls on this machine. Without --pool it is a personal My Machines worker\n"
                + "(no Enterprise plan needed); with --pool it joins a team Self-Hosted Pool\n"
                + "(Enterprise plan + service account API key).\n\n"
                + "Options:\n"
                + "  -h, --help  Display help for command\n");
  }

  /** The shared reference corpus beside the project, as {@code FakeProcess.shared()} finds it. */
  static Path shared() {
    Path root = Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath();
    return Path.of(System.getProperty("agentdouble.shared", root.resolve("../shared").toString()))
        .toAbsolutePath()
        .normalize();
  }

  /** The help of every command of {@code chain}'s last and of those under it, in order. */
  private static List<String> helps(List<CliCommand> chain) {
    List<String> helps = new ArrayList<>();
    helps.add(HelpText.render(chain));
    for (CliCommand sub : chain.get(chain.size() - 1).subcommands()) {
      List<CliCommand> longer = new ArrayList<>(chain);
      longer.add(sub);
      helps.addAll(helps(longer));
    }
    return helps;
  }

  /**
   * Every built-in's help, of every command (and {@code acp}'s), is what its whole file rendered
   * before profiles named a base (ProfileOverlayTest compares every other value).
   */
  @ParameterizedTest
  @ValueSource(strings = {BuiltIn.DOCUMENTED, BuiltIn.CLI_2026_10, BuiltIn.CLI_2026_09})
  void everyCommandsHelpIsWhatItsWholeFileRendered(String name) {
    Profile.Surface before = BuiltIn.wholeFile(name).behaviour().surface();
    Profile.Surface now = BuiltIn.surface(name);

    List<String> helps = helps(List.of(now.root()));
    assertThat(helps).hasSizeGreaterThan(10).isEqualTo(helps(List.of(before.root())));
    assertThat(HelpText.render(List.of(now.root(), now.acp())))
        .isEqualTo(HelpText.render(List.of(before.root(), before.acp())));
  }
}
