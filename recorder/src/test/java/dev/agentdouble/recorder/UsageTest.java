package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Help, and command lines that cannot be run: exit 2, one clear line, never a stack trace. */
class UsageTest {

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h", "help"})
  void helpListsEveryCommandOnStdout(String flag) {
    Cli.Result r = Cli.run(flag);

    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("usage: agentdouble <command> [options]")
        .contains("demo", "replay TAPE", "import --stdout FILE", "lint TAPE...", "show TAPE...",
            "diff A B [--timing]", "drift [--stdout] OLD NEW",
            "catalog [--show NAME | --write NAME --out FILE]", "serve --tapes DIR [--port N] [--timing T]");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void noCommandPrintsTheUsageOnStderrAndExits2() {
    Cli.Result r = Cli.run();

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("usage: agentdouble <command> [options]");
  }

  @ParameterizedTest
  @ValueSource(strings = {"demo", "replay", "import", "lint", "show", "diff", "vary", "drift", "catalog"})
  void everyCommandExplainsItselfWithHelp(String command) {
    Cli.Result longFlag = Cli.run(command, "--help");
    Cli.Result shortFlag = Cli.run(command, "-h");

    assertThat(longFlag.exit()).isZero();
    assertThat(longFlag.out()).startsWith("usage: agentdouble " + command);
    assertThat(longFlag.err()).isEmpty();
    assertThat(shortFlag.out()).isEqualTo(longFlag.out());
  }

  @Test
  void commandHelpNamesEveryOption() {
    assertThat(Cli.run("import", "--help").out()).contains("--stdout FILE", "--stderr FILE",
        "--exit N", "--signal NAME", "--raw", "--output-format F", "--cli-version V", "--out TAPE");
    assertThat(Cli.run("replay", "--help").out()).contains("--output-format F", "--timing T",
        "--prompt P", "128 + n");
    assertThat(Cli.run("lint", "--help").out()).contains("--excerpt",
        "FILE:LINE: error|warning [code] message");
    assertThat(Cli.run("demo", "--help").out()).contains("--timing T");
  }

  @Test
  void serveRunInTheRecordersJvmPointsAtTheLauncher() {
    Cli.Result r = Cli.run("serve", "--tapes", "tapes");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("agentdouble: serve is started by the ./agentdouble launcher")
        .doesNotContain("Exception");
  }

  @Test
  void anUnknownCommandExits2AndListsTheCommands() {
    Cli.Result r = Cli.run("record-all");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: unknown command 'record-all'; commands are demo, "
        + "record, shim, replay, import, lint, show, diff, vary, drift, catalog, serve\nRun 'agentdouble --help' for usage.\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"demo", "replay", "import", "lint", "show", "diff", "vary", "drift", "catalog"})
  void anUnknownOptionExits2AndPointsAtTheCommandsHelp(String command) {
    Cli.Result r = Cli.run(command, "--verbose", "x.tape.ndjson");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: unknown option '--verbose'\n"
        + "Run 'agentdouble " + command + " --help' for usage.\n");
  }

  @Test
  void aFlagGivenAValueIsAnUnknownOption() {
    Cli.Result r = Cli.run("lint", "--excerpt=yes", "x.tape.ndjson");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("agentdouble: unknown option '--excerpt=yes'\n");
  }

  @Test
  void anOptionWithoutItsValueSaysSo() {
    Cli.Result atTheEnd = Cli.run("replay", "x.tape.ndjson", "--timing");
    Cli.Result beforeAnotherOption = Cli.run("import", "--stdout", "s.ndjson", "--exit", "--out",
        "t.tape.ndjson");

    assertThat(atTheEnd.exit()).isEqualTo(2);
    assertThat(atTheEnd.err()).startsWith("agentdouble: --timing needs a value\n");
    assertThat(beforeAnotherOption.exit()).isEqualTo(2);
    assertThat(beforeAnotherOption.err()).startsWith("agentdouble: --exit needs a value\n");
  }

  @Test
  void missingOperandsAreUsageErrors() {
    assertThat(Cli.run("lint").err()).startsWith("agentdouble: lint needs at least one TAPE\n");
    assertThat(Cli.run("show").err()).startsWith("agentdouble: show needs at least one TAPE\n");
    assertThat(Cli.run("replay").err()).startsWith("agentdouble: replay takes one TAPE\n");
    assertThat(Cli.run("replay", "a.tape.ndjson", "b.tape.ndjson").exit()).isEqualTo(2);
    assertThat(Cli.run("demo", "now").err()).startsWith("agentdouble: demo takes no arguments\n");
  }

  @Test
  void badValuesAreUsageErrorsNamingTheOption() {
    Cli.Result format = Cli.run("replay", "--output-format", "yaml", "x.tape.ndjson");
    Cli.Result timing = Cli.run("replay", "--timing", "slow", "x.tape.ndjson");
    Cli.Result demoTiming = Cli.run("demo", "--timing", "scale:-1");

    assertThat(format.exit()).isEqualTo(2);
    assertThat(format.err()).startsWith(
        "agentdouble: --output-format must be text, json or stream-json, was 'yaml'\n");
    assertThat(timing.exit()).isEqualTo(2);
    assertThat(timing.err()).startsWith("agentdouble: --timing must be fast, recorded, scale:F")
        .contains("was 'slow'");
    assertThat(demoTiming.exit()).isEqualTo(2);
    assertThat(demoTiming.err()).contains("was 'scale:-1'");
  }

  @Test
  void aPathThatCannotBeOneIsAUsageError() {
    Cli.Result r = Cli.run("lint", "bad\0name.tape.ndjson");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("agentdouble: not a valid path: ");
  }

  @Test
  void noUsageErrorPrintsAStackTrace() {
    String[][] lines = {
        {"bogus"}, {"import"}, {"import", "--stdout"}, {"import", "--stdout", "a", "--out", "b",
            "--exit", "x"}, {"import", "--stdout", "a", "--out", "b", "--signal", "99999999999"},
        {"lint", "--"}, {"show", "-x"}, {"replay", "--prompt"}, {"demo", "--timing", "max-gap:x"},
        {"diff", "a"}, {"diff", "--timing"}};
    for (String[] line : lines) {
      Cli.Result r = Cli.run(line);

      assertThat(r.exit()).as("exit of %s", String.join(" ", line)).isEqualTo(2);
      assertThat(r.err()).as("stderr of %s", String.join(" ", line))
          .startsWith("agentdouble: ").doesNotContain("Exception", "\tat ");
    }
  }
}
