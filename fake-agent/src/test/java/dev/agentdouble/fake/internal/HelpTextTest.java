package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HelpTextTest {
  /** The width of the terms in the 2026.07 CLI's help, whose lines these tests compare with. */
  private static final int TERMS_2026_07 = 27;

  private static String item(String flags) {
    for (CliOption o : CursorCommands.ROOT.options()) {
      if (o.flags().equals(flags)) {
        return HelpText.formatItem(o.flags(), TERMS_2026_07, o.help());
      }
    }
    throw new AssertionError("no option " + flags);
  }

  @Test
  void wrapsADescriptionAsTheRealHelpDoes() {
    assertThat(item("-p, --print")).isEqualTo(
        "  -p, --print                  Print responses to console (for scripts or\n"
            + "                               non-interactive use). Has access to all tools,\n"
            + "                               including write and shell. (default: false)");
    assertThat(item("--auto-review")).isEqualTo(
        "  --auto-review                Use Auto-review (Smart Auto): a server classifier\n"
            + "                               auto-runs safe tool calls and prompts for the\n"
            + "                               rest (default: false)");
  }

  @Test
  void putsAWordLongerThanTheColumnOnALineOfItsOwn() {
    assertThat(item("--model <model>")).isEqualTo(
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
    String help = HelpText.render("agent", List.of(CursorCommands.ROOT));

    assertThat(help).startsWith("Usage: agent [options] [command] [prompt...]\n\n"
        + "Start the Cursor Agent\n\n"
        + "Arguments:\n"
        + "  prompt                      Initial prompt for the agent\n\n"
        + "Options:\n"
        + "  -v, --version               Output the version number\n");
    assertThat(help).contains("\nCommands:\n  login ")
        .endsWith("  help [command]              Display help for command\n");
  }

  @Test
  void rootHelpListsEveryVisibleOptionAndCommandButNoHiddenOption() {
    String help = HelpText.render("agent", List.of(CursorCommands.ROOT));

    for (CliOption o : CursorCommands.ROOT.options()) {
      if (o.hidden()) {
        assertThat(help).doesNotContain(o.longFlag());
      } else {
        assertThat(help).contains("\n  " + o.flags() + " ");
      }
    }
    assertThat(help).contains("\n  -h, --help ");
    for (String term : List.of("login", "logout", "mcp", "status|whoami [options]", "models",
        "about [options]", "update", "create-chat", "agent [prompt...]", "ls", "resume",
        "help [command]")) {
      assertThat(help).contains("\n  " + term + " ");
    }
  }

  @Test
  void everyLineFitsTheWidthUnlessItIsOneLongWord() {
    String help = HelpText.render("agent", List.of(CursorCommands.ROOT));

    for (String line : help.split("\n")) {
      if (!line.strip().contains(" ")) {
        continue;
      }
      assertThat(line.length()).as(line).isLessThanOrEqualTo(HelpText.WIDTH);
    }
  }

  @Test
  void usageNamesTheCommandPathAndTheAlias() {
    CliCommand status = CursorCommands.ROOT.findSubcommand("status");
    CliCommand mcp = CursorCommands.ROOT.findSubcommand("mcp");
    CliCommand agent = CursorCommands.ROOT.findSubcommand("agent");

    assertThat(HelpText.usage("agent", List.of(CursorCommands.ROOT, status)))
        .isEqualTo("agent status|whoami [options]");
    assertThat(HelpText.usage("cursor-agent", List.of(CursorCommands.ROOT, agent)))
        .isEqualTo("cursor-agent agent [options] [prompt...]");
    assertThat(HelpText.usage("agent",
        List.of(CursorCommands.ROOT, mcp, mcp.findSubcommand("login"))))
        .isEqualTo("agent mcp login [options] <identifier>");
  }

  @Test
  void aLeafCommandsHelpListsItsOptionsAndTheHelpOption() {
    CliCommand status = CursorCommands.ROOT.findSubcommand("status");

    assertThat(HelpText.render("agent", List.of(CursorCommands.ROOT, status))).isEqualTo(
        "Usage: agent status|whoami [options]\n\n"
            + "View authentication status\n\n"
            + "Options:\n"
            + "  --format <format>  Output format: text or json (default: \"text\")\n"
            + "  -h, --help         Display help for command\n");
  }
}
