package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LintCommandTest {
  /** A run that lints clean: init, the prompt, the answer, exit 0. */
  static Tape clean() {
    return Script.of("hi").cwd("/w").init().user().assistant("hello").result().exit(0).build();
  }

  /** The first event a scripted run writes, as its line. */
  private static String firstEvent(Tape tape) {
    return ((Frame.Out) tape.frames().get(0)).json();
  }

  private Path write(String name, Tape tape) {
    return Cli.write(dir, name, TapeWriter.toText(tape));
  }

  @TempDir Path dir;

  @Test
  void aCleanTapeHasNoFindingsAndASummaryOnStderr() {
    Path tape = write("clean.tape.ndjson", clean());

    Cli.Result r = Cli.run("lint", tape.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: linted 1 tape: 0 errors, 0 warnings\n");
  }

  @Test
  void aProtocolErrorIsOneLineNamingFileLineAndRule() {
    // exit 0 without a result event: the exit is on line 4, after the header, init and user
    Path tape = write("no-result.tape.ndjson", Script.of("hi").init().user().exit(0).build());

    Cli.Result r = Cli.run("lint", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out())
        .startsWith(tape + ":4: error [missing-result] the run exits 0 without a " + "result event")
        .endsWith("\n");
    assertThat(r.out().lines()).hasSize(1);
    assertThat(r.err()).isEqualTo("agentdouble: linted 1 tape: 1 error, 0 warnings\n");
  }

  @Test
  void warningsAloneDoNotFail() {
    // a failing run whose stdout lacks init: only a warning, as real failures do that
    Path tape =
        write("failed.tape.ndjson", Script.of("hi").user().stderr("boom\n").exit(1).build());

    Cli.Result r = Cli.run("lint", tape.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith(tape + ":2: warning [missing-init] ");
    assertThat(r.err()).isEqualTo("agentdouble: linted 1 tape: 0 errors, 1 warning\n");
  }

  @Test
  void aMalformedTapeIsAFormatErrorNamingItsLine() {
    Path tape =
        Cli.write(
            dir,
            "bad.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"out\":{\"type\":\"system\",\"subtype\":\"init\"}}",
                    "{\"t\":1,\"note\":\"hi\"}",
                    "{\"t\":5,\"exit\":0}")
                + "\n");

    Cli.Result r = Cli.run("lint", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out())
        .isEqualTo(
            tape
                + ":3: error [format] unknown frame key \"note\"; a frame "
                + "has \"t\" and one of out, outRaw, outB64, err, errB64, gate, in, exit, kill or hang\n");
  }

  @Test
  void aDuplicateKeyInVarsOrMatchIsAFormatErrorOnLine1() {
    Path vars =
        Cli.write(
            dir,
            "vars.tape.ndjson",
            "{\"tape\":1,\"vars\":{\"prompt\":\"a\","
                + "\"prompt\":\"b\"}}\n{\"t\":0,\"exit\":1}\n");
    Path match =
        Cli.write(
            dir,
            "match.tape.ndjson",
            "{\"tape\":1,\"match\":{\"model\":\"a\","
                + "\"model\":\"b\"}}\n{\"t\":0,\"exit\":1}\n");

    Cli.Result r = Cli.run("lint", vars.toString(), match.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out().lines())
        .containsExactly(
            vars + ":1: error [format] duplicate key \"prompt\" in \"vars\"; keep one",
            match + ":1: error [format] duplicate key \"model\" in \"match\"; keep one");
  }

  @Test
  void aFileThatIsNotATapeAtAllIsAFormatErrorOnLine1() {
    Path notJson = Cli.write(dir, "notes.txt", "hello\n");
    Path empty = Cli.write(dir, "empty.tape.ndjson", "");

    Cli.Result r = Cli.run("lint", notJson.toString(), empty.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out().lines())
        .satisfiesExactly(
            line ->
                assertThat(line)
                    .startsWith(notJson + ":1: error [format] header is not valid JSON"),
            line ->
                assertThat(line)
                    .isEqualTo(
                        empty
                            + ":1: error [format] empty file: a tape starts "
                            + "with a header line {\"tape\":1,...}"));
  }

  @Test
  void severalTapesAreLintedInOrderAndCountedTogether() {
    Path clean = write("a.tape.ndjson", clean());
    // init written twice (the second as a plain event): the second is on line 3
    String init = firstEvent(Script.of("hi").init().exit(0).build());
    Path twoInits =
        write(
            "b.tape.ndjson",
            Script.of("hi").init().event(init).user().assistant("hello").result().exit(0).build());
    Path malformed = Cli.write(dir, "c.tape.ndjson", "{\"tape\":2}\n{\"t\":0,\"exit\":0}\n");
    Path missing = dir.resolve("d.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "lint",
            clean.toString(),
            twoInits.toString(),
            malformed.toString(),
            missing.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out().lines())
        .satisfiesExactly(
            line -> assertThat(line).startsWith(twoInits + ":3: error [init-repeated] "),
            line ->
                assertThat(line)
                    .startsWith(malformed + ":1: error [format] tape format version 2"));
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + missing
                + ": no such file\n"
                + "agentdouble: linted 4 tapes: 3 errors, 0 warnings\n");
  }

  @Test
  void aFolderIsNamedAsNotAFile() {
    Cli.Result r = Cli.run("lint", dir.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("agentdouble: " + dir + ": is a directory, not a file\n");
  }

  @Test
  void anExcerptOnlyWarnsAboutRulesOfTheWholeRun() {
    // two lines from different runs: a session change and no result
    String init = firstEvent(Script.of("hi").init().exit(0).build());
    String other =
        firstEvent(
            Script.of("hi")
                .sessionId("9e3a7c1d-aaaa-bbbb-cccc-000000000001")
                .user()
                .exit(0)
                .build());
    Path tape =
        Cli.write(
            dir,
            "excerpt.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"out\":" + init + "}",
                    "{\"t\":1,\"out\":" + other + "}",
                    "{\"t\":5,\"exit\":0}")
                + "\n");

    Cli.Result asRun = Cli.run("lint", tape.toString());
    Cli.Result asExcerpt = Cli.run("lint", "--excerpt", tape.toString());

    assertThat(asRun.exit()).isEqualTo(1);
    assertThat(asRun.out()).contains("error [session-changed]", "error [missing-result]");
    assertThat(asExcerpt.exit()).isZero();
    assertThat(asExcerpt.out())
        .contains("warning [session-changed]", "warning [missing-result]")
        .doesNotContain(": error [");
  }

  @Test
  void aLineThatIsNotJsonStaysAnErrorInAnExcerpt() {
    Path tape =
        Cli.write(
            dir,
            "raw.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"outRaw\":\"Loading...\\n\"}",
                    "{\"t\":5,\"exit\":0}")
                + "\n");

    Cli.Result r = Cli.run("lint", "--excerpt", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).contains(tape + ":2: error [not-json] ");
  }

  @Test
  void lintsABuiltInTape() {
    Cli.Result r = Cli.run("lint", "builtin:tool-shell");

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: linted 1 tape: 0 errors, 0 warnings\n");
  }
}
