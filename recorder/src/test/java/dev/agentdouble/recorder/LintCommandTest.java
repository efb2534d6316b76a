package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LintCommandTest {
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
  static final String INIT =
      "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
          + "\"cwd\":\"/w\",\"session_id\":\""
          + SID
          + "\",\"model\":\"Auto\",\"permissionMode\":\"default\"}";
  static final String USER =
      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
          + "[{\"type\":\"text\",\"text\":\"hi\"}]},\"session_id\":\""
          + SID
          + "\"}";
  static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":5,"
          + "\"duration_api_ms\":5,\"is_error\":false,\"result\":\"hello\",\"session_id\":\""
          + SID
          + "\",\"request_id\":\"r-1\"}";
  static final String CLEAN =
      String.join(
              "\n",
              "{\"tape\":1}",
              "{\"t\":0,\"out\":" + INIT + "}",
              "{\"t\":1,\"out\":" + USER + "}",
              "{\"t\":5,\"out\":" + RESULT + "}",
              "{\"t\":5,\"exit\":0}")
          + "\n";

  @TempDir Path dir;

  @Test
  void aCleanTapeHasNoFindingsAndASummaryOnStderr() {
    Path tape = Cli.write(dir, "clean.tape.ndjson", CLEAN);

    Cli.Result r = Cli.run("lint", tape.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: linted 1 tape: 0 errors, 0 warnings\n");
  }

  @Test
  void aProtocolErrorIsOneLineNamingFileLineAndRule() {
    // exit 0 without a result event; the result would be on line 4
    Path tape =
        Cli.write(
            dir,
            "no-result.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":1,\"out\":" + USER + "}",
                    "{\"t\":5,\"exit\":0}")
                + "\n");

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
        Cli.write(
            dir,
            "failed.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"out\":" + USER + "}",
                    "{\"t\":0,\"err\":\"boom\\n\"}",
                    "{\"t\":0,\"exit\":1}")
                + "\n");

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
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":1,\"note\":\"hi\"}",
                    "{\"t\":5,\"exit\":0}")
                + "\n");

    Cli.Result r = Cli.run("lint", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out())
        .isEqualTo(
            tape
                + ":3: error [format] unknown frame key \"note\"; a frame "
                + "has \"t\" and one of out, outRaw, outB64, err, errB64, gate, exit, kill or hang\n");
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
    Path clean = Cli.write(dir, "a.tape.ndjson", CLEAN);
    Path twoInits =
        Cli.write(
            dir,
            "b.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":0,\"out\":" + INIT + "}",
                    "{\"t\":1,\"out\":" + USER + "}",
                    "{\"t\":5,\"out\":" + RESULT + "}",
                    "{\"t\":5,\"exit\":0}")
                + "\n");
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
    String other = USER.replace(SID, "9e3a7c1d-aaaa-bbbb-cccc-000000000001");
    Path tape =
        Cli.write(
            dir,
            "excerpt.tape.ndjson",
            String.join(
                    "\n",
                    "{\"tape\":1}",
                    "{\"t\":0,\"out\":" + INIT + "}",
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
