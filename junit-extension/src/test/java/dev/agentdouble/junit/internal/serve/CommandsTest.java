package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.recorder.AgentDoubleCommand;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble} with this module on the classpath, as the launcher runs it: {@code serve} is
 * one of its commands, found through {@code META-INF/services}, listed in the help and run by the
 * same registry as the others.
 */
class CommandsTest {
  @TempDir Path dir;

  record Result(int exit, String out, String err) {}

  private static Result run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        AgentDoubleCommand.run(
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            args);
    return new Result(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void theHelpListsServeAndModelApiAfterTheRecordersCommands() {
    Result r = run("--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
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
          model-api --tape FILE [--port N] [--timing T]
                                    serve a Claude Code tape as Anthropic's Messages API, for
                                    the real claude to run against; prints ANTHROPIC_BASE_URL=...
          serve [--tapes DIR] [--port N] [--timing T]
                                    answer fake agents over HTTP from a folder of tapes and what
                                    its API is sent, for test runners not on the JVM; prints
                                    AGENTDOUBLE_URL=... (see `agentdouble serve --help`)

        Run `agentdouble <command> --help` for a command's details, `agentdouble --version` for the version.
        """);
    assertThat(r.err()).isEmpty();
  }

  @Test
  void anUnknownCommandListsServeAndModelApiToo() {
    Result r = run("record-all");

    assertThat(r.exit()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: unknown command 'record-all'; commands are demo, "
                + "record, shim, replay, import, lint, show, diff, vary, drift, catalog, model-api,"
                + " serve\n"
                + "Run 'agentdouble --help' for usage.\n");
  }

  @Test
  void serveExplainsItselfThroughTheRegistry() {
    Result r = run("serve", "--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo(Serve.HELP);
    assertThat(r.err()).isEmpty();
  }

  @Test
  void servesUsageErrorsExit2() {
    Result r = run("serve", "--port", "80000", "--tapes", dir.toString());

    assertThat(r.exit()).isEqualTo(ExitStatus.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: --port must be a number from 0 to 65535 "
                + "(0: a free port), was '80000'\nRun 'agentdouble serve --help' for usage.\n");
  }

  @Test
  void serveFailsWithoutTapesWithoutServing() {
    Result r = run("serve", "--tapes", dir.toString());

    assertThat(r.exit()).isEqualTo(ExitStatus.FAILED);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("agentdouble: " + dir + ": no *.tape.ndjson files in the folder\n");
  }
}
