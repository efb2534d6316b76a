package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An option with choices takes what the real Claude Code 2.1.328 takes beyond the list its help and
 * its refusal show (runs of the real CLI, docs/claude.md "Argument checks"): {@code
 * --permission-mode default} (the Agent SDK passes exactly that), {@code --prompt-suggestions} in
 * any case with blanks around; and only that: what the real CLI refuses gets commander's refusal
 * with the listed choices. The run goes on to the tape, here {@code builtin:claude-not-logged-in}.
 */
@Timeout(120)
class ClaudeUnlistedChoicesTest {
  private static final String NOT_LOGGED_IN = "Not logged in · Please run /login\n";

  private static FakeProcess.Result claude(String... args) {
    List<String> argv = new ArrayList<>(List.of("-p"));
    argv.addAll(List.of(args));
    argv.add("hi");
    return FakeProcess.run(
        ClaudeArgvTest.claude(),
        Map.of("AGENTDOUBLE_TAPE", "builtin:claude-not-logged-in", "AGENTDOUBLE_TIMING", "fast"),
        new byte[0],
        argv.toArray(String[]::new));
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--permission-mode|default",
        "--permission-mode|manual",
        "--inherit-permission-mode|default",
        "--prompt-suggestions=|FALSE",
        "--prompt-suggestions=|Off",
        "--prompt-suggestions=|' no '",
        "--thinking|adaptive",
      })
  void aValueTheRealCliAcceptsGoesOnToTheTape(String option, String value) {
    FakeProcess.Result r = option.endsWith("=") ? claude(option + value) : claude(option, value);

    assertThat(r.err()).as("stderr").isEmpty();
    assertThat(r.out()).as("stdout").isEqualTo(NOT_LOGGED_IN);
    assertThat(r.exit()).as("exit").isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "--permission-mode|Default|acceptEdits, auto, bypassPermissions, manual, dontAsk, plan",
        "--permission-mode|bubble|acceptEdits, auto, bypassPermissions, manual, dontAsk, plan",
        "--prompt-suggestions [value]|y|true, false, 1, 0, yes, no, on, off",
        "--thinking <mode>|Enabled|enabled, adaptive, disabled",
        "--teammate-mode <mode>|bogus|auto, tmux, iterm2, in-process",
      })
  void aValueTheRealCliRefusesIsRefusedWithTheListedChoices(
      String flags, String value, String listed) {
    String option = flags.split(" ")[0];
    String declared = flags.contains(" ") ? flags : flags + " <mode>";
    FakeProcess.Result r =
        option.equals("--prompt-suggestions")
            ? claude(option + "=" + value)
            : claude(option, value);

    assertThat(r.err())
        .as("stderr")
        .isEqualTo(
            "error: option '"
                + declared
                + "' argument '"
                + value
                + "' is invalid. Allowed choices are "
                + listed
                + ".\n");
    assertThat(r.out()).as("stdout").isEmpty();
    assertThat(r.exit()).as("exit").isEqualTo(1);
  }
}
