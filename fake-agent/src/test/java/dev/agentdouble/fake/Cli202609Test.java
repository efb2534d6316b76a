package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.cursor.CursorMessages;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code AGENTDOUBLE_PROFILE=2026.09}, the CLI of the 2026.09.x captures, through the real
 * launcher: its version line, its help (the 2026.10.01 help without the commands that help added,
 * but for {@code persist}), and a 2026.10 command it does not have, which is a prompt word there.
 * The sources are in the header of {@code profile-2026.09.txt}; the captures of 2026.09 replay
 * under it in {@link ConformanceTest}.
 */
@Timeout(120)
class Cli202609Test {
  static final Map<String, String> CLI_2026_09 = env("AGENTDOUBLE_PROFILE", "2026.09");

  /** The commands of the 2026.10.01 help that 2026.09 does not have, as its help lists them. */
  static final List<String> NEW_IN_2026_10 =
      List.of(
          "install-shell-integration",
          "uninstall-shell-integration",
          "plugin",
          "worker [options]",
          "team",
          "bedrock",
          "generate-rule|rule");

  /** The terms of a help section ({@code Options:}, {@code Commands:}), in order. */
  static List<String> terms(String help, String section) {
    List<String> terms = new ArrayList<>();
    boolean in = false;
    for (String line : help.split("\n")) {
      if (line.equals(section)) {
        in = true;
      } else if (in && line.isEmpty()) {
        break;
      } else if (in && line.startsWith("  ") && line.charAt(2) != ' ') {
        int gap = line.indexOf("  ", 2);
        terms.add(gap < 0 ? line.substring(2) : line.substring(2, gap));
      }
    }
    return terms;
  }

  @Test
  void versionPrintsThe2026_09VersionLine() {
    FakeProcess.Result r = run(CLI_2026_09, "--version");

    assertThat(r.out()).isEqualTo("2026.09.28-64d2043\n");
    assertThat(r.exit()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h", "help"})
  void theHelpIsThe2026_10HelpWithoutTheCommandsItAdded(String ask) throws IOException {
    String reference = new String(HelpAndSubcommandsTest.referenceHelp(), StandardCharsets.UTF_8);
    List<String> commands = new ArrayList<>(terms(reference, "Commands:"));
    commands.removeAll(NEW_IN_2026_10);

    FakeProcess.Result r = run(CLI_2026_09, ask);

    assertThat(r.out()).startsWith("Usage: agent [options] [command] [prompt...]\n");
    assertThat(terms(r.out(), "Options:")).isEqualTo(terms(reference, "Options:"));
    assertThat(terms(r.out(), "Commands:")).isEqualTo(commands).contains("persist");
    for (String line : r.out().split("\n")) {
      if (line.strip().contains(" ")) { // a word longer than the column has a line of its own
        assertThat(line.length()).as(line).isLessThanOrEqualTo(80);
      }
    }
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();
  }

  /**
   * A word that names no command of 2026.09 is a prompt word, as commander gives an operand that
   * names no command to the root's action; under 2026.10 the same word is a command.
   */
  @Test
  void aCommandOf2026_10IsAPromptWordUnder2026_09() {
    Map<String, String> replay =
        env(
            "AGENTDOUBLE_PROFILE",
            "2026.09",
            "AGENTDOUBLE_TAPE",
            "builtin:documented-minimal",
            "AGENTDOUBLE_TIMING",
            "fast");

    FakeProcess.Result asPrompt = run(replay, "-p", "--trust", "bedrock");
    FakeProcess.Result asCommand = run(env("AGENTDOUBLE_PROFILE", "2026.10"), "-p", "bedrock");

    assertThat(asPrompt.out()).isNotEmpty();
    assertThat(asPrompt.exit()).isZero();
    assertThat(asCommand.err()).isEqualTo(CursorMessages.RAW_MODE_UNSUPPORTED);
    assertThat(asCommand.exit()).isEqualTo(1);
  }

  @Test
  void persistIsACommandOf2026_09() {
    FakeProcess.Result r = run(CLI_2026_09, "persist");

    assertThat(r.err()).isEqualTo(CursorMessages.RAW_MODE_UNSUPPORTED);
    assertThat(r.exit()).isEqualTo(1);
  }

  @Test
  void statusAsJsonHasTheUserInfoKeysObservedOn2026_09() {
    FakeProcess.Result r = run(CLI_2026_09, "status", "--format", "json");

    assertThat(r.out())
        .contains("\"userId\": ", "\"firstName\": ", "\"createdAt\": ")
        .doesNotContain("lastName");
    assertThat(r.exit()).isZero();
  }
}
