package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.Release;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Help, and command lines that cannot be run: exit 2, one clear line, never a stack trace. */
class UsageTest {

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h", "help"})
  void helpListsEveryCommandOnStdout(String flag) {
    Cli.Result r = Cli.run(flag);

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .startsWith("usage: agentdouble <command> [options]")
        .contains(
            "demo",
            "replay TAPE",
            "import --stdout FILE",
            "lint TAPE...",
            "show TAPE...",
            "diff A B [--timing]",
            "drift [--stdout] OLD NEW",
            "catalog [--show NAME | --write NAME --out FILE]");
    assertThat(r.err()).isEmpty();
  }

  /** {@code serve} comes from the JUnit extension, not on this module's classpath. */
  @Test
  void helpIsTheRegistrysOwnCommandsLaidOutInColumns() {
    assertThat(Cli.run("--help").out())
        .isEqualTo(
            """
        usage: agentdouble <command> [options]

        Commands:
          demo                      replay a built-in run in every output format, and a failure
          record [options] -- COMMAND ARGS...
                                    run a command (the real cursor-agent) and record it as a tape
          shim --record-into DIR | --tape FILE | --tapes DIR  --bin BINDIR
                                    write cursor-agent/agent scripts that record or replay
          replay TAPE [options]     play a tape (a file or builtin:NAME) through the fake agent, as a
                                    consumer would see it
              --output-format F       text, json or stream-json (default: the tape's own)
              --timing T              fast, recorded (default), scale:F or max-gap:MS
              --prompt P              the prompt to pass (default: the tape's vars.prompt)
          import --stdout FILE [--stderr FILE] [--exit N | --signal NAME] [--raw] --out TAPE
                                    turn a captured run into a tape
          lint TAPE...              check tapes against the format and the CLI's protocol
          show TAPE...              print a readable timeline of each tape
          diff A B [--timing]       show what differs between two tapes (timing ignored unless
                                    --timing); exit 0 when the same, 1 when they differ
          vary TAPE --variant NAME [--seed N] [--out FILE]
                                    derive a damaged variant (re-chunked, cut, noisy, ...); --list
          drift [--stdout] OLD NEW  compare the events' fields and types in two tapes or folders
          catalog [--show NAME | --write NAME --out FILE]
                                    list the built-in tapes; print one, or write it to a file

        Run `agentdouble <command> --help` for a command's details, `agentdouble --version` for the version.
        """);
  }

  @Test
  void noCommandPrintsTheUsageOnStderrAndExits2() {
    Cli.Result r = Cli.run();

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("usage: agentdouble <command> [options]");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"demo", "replay", "import", "lint", "show", "diff", "vary", "drift", "catalog"})
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
    assertThat(Cli.run("import", "--help").out())
        .contains(
            "--stdout FILE",
            "--stderr FILE",
            "--exit N",
            "--signal NAME",
            "--raw",
            "--output-format F",
            "--cli-version V",
            "--out TAPE");
    assertThat(Cli.run("replay", "--help").out())
        .contains("--output-format F", "--timing T", "--prompt P", "128 + n");
    assertThat(Cli.run("lint", "--help").out())
        .contains("--excerpt", "FILE:LINE: error|warning [code] message");
    assertThat(Cli.run("demo", "--help").out()).contains("--timing T");
  }

  /** The JUnit extension's CommandsTest runs it with the extension on the classpath. */
  @Test
  void serveIsACommandOnlyWhereAModuleProvidesIt() {
    Cli.Result r = Cli.run("serve", "--tapes", "tapes");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith("agentdouble: unknown command 'serve'; commands are demo, ")
        .doesNotContain("Exception");
  }

  @Test
  void anUnknownCommandExits2AndListsTheCommands() {
    Cli.Result r = Cli.run("record-all");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: unknown command 'record-all'; commands are demo, "
                + "record, shim, replay, import, lint, show, diff, vary, drift, catalog\n"
                + "Run 'agentdouble --help' for usage.\n");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"demo", "replay", "import", "lint", "show", "diff", "vary", "drift", "catalog"})
  void anUnknownOptionExits2AndPointsAtTheCommandsHelp(String command) {
    Cli.Result r = Cli.run(command, "--verbose", "x.tape.ndjson");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: unknown option '--verbose'\n"
                + "Run 'agentdouble "
                + command
                + " --help' for usage.\n");
  }

  @Test
  void aMistypedCommandOrOptionGetsTheClosestNames() {
    Cli.Result command = Cli.run("recrod");
    Cli.Result option = Cli.run("lint", "--exerpt", "x.tape.ndjson");
    Cli.Result far = Cli.run("lint", "--verbose", "x.tape.ndjson");

    assertThat(command.exit()).isEqualTo(2);
    assertThat(command.err())
        .isEqualTo(
            "agentdouble: unknown command 'recrod'; did you mean record?\n"
                + "Run 'agentdouble --help' for usage.\n");
    assertThat(option.exit()).isEqualTo(2);
    assertThat(option.err())
        .isEqualTo(
            "agentdouble: unknown option '--exerpt'; did you mean --excerpt?\n"
                + "Run 'agentdouble lint --help' for usage.\n");
    assertThat(far.err()).startsWith("agentdouble: unknown option '--verbose'\n");
  }

  @Test
  void versionPrintsTheVersionOnStdout() {
    for (String flag : List.of("--version", "-V", "version")) {
      Cli.Result r = Cli.run(flag);

      assertThat(r.exit()).isZero();
      assertThat(r.out()).isEqualTo("agentdouble " + Release.VERSION + "\n");
      assertThat(r.err()).isEmpty();
    }
  }

  @Test
  void aFlagGivenAValueIsAnUnknownOption() {
    Cli.Result r = Cli.run("lint", "--excerpt=yes", "x.tape.ndjson");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: unknown option '--excerpt=yes'; --excerpt takes no value\n"
                + "Run 'agentdouble lint --help' for usage.\n");
  }

  @Test
  void anOptionWithoutItsValueSaysSo() {
    Cli.Result atTheEnd = Cli.run("replay", "x.tape.ndjson", "--timing");
    Cli.Result beforeAnotherOption =
        Cli.run("import", "--stdout", "s.ndjson", "--exit", "--out", "t.tape.ndjson");

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
    assertThat(format.err())
        .startsWith("agentdouble: --output-format must be text, json or stream-json, was 'yaml'\n");
    assertThat(timing.exit()).isEqualTo(2);
    assertThat(timing.err())
        .startsWith("agentdouble: --timing must be fast, recorded, scale:F")
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
      {"bogus"},
      {"import"},
      {"import", "--stdout"},
      {"import", "--stdout", "a", "--out", "b", "--exit", "x"},
      {"import", "--stdout", "a", "--out", "b", "--signal", "99999999999"},
      {"lint", "--"},
      {"show", "-x"},
      {"replay", "--prompt"},
      {"demo", "--timing", "max-gap:x"},
      {"diff", "a"},
      {"diff", "--timing"}
    };
    for (String[] line : lines) {
      Cli.Result r = Cli.run(line);

      assertThat(r.exit()).as("exit of %s", String.join(" ", line)).isEqualTo(2);
      assertThat(r.err())
          .as("stderr of %s", String.join(" ", line))
          .startsWith("agentdouble: ")
          .doesNotContain("Exception", "\tat ");
    }
  }
}
