package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ImportCommandTest {
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
  static final String INIT =
      "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
          + "\"cwd\":\"/home/dev/shop\",\"session_id\":\""
          + SID
          + "\",\"model\":\"Auto\","
          + "\"permissionMode\":\"default\"}";
  static final String USER =
      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
          + "[{\"type\":\"text\",\"text\":\"What does cart.ts export?\"}]},\"session_id\":\""
          + SID
          + "\"}";
  static final String THINKING =
      "{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"Looking\","
          + "\"session_id\":\""
          + SID
          + "\",\"timestamp_ms\":1790000000600}";
  static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":900,"
          + "\"duration_api_ms\":900,\"is_error\":false,\"result\":\"Item and total\",\"session_id\":\""
          + SID
          + "\",\"request_id\":\"r-1\",\"timestamp_ms\":1790000001500}";
  static final String STDOUT = INIT + "\n" + USER + "\n" + THINKING + "\n" + RESULT + "\n";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private Path stdout(String text) {
    return Cli.write(dir, "stdout.ndjson", text);
  }

  private List<String> lines(Path tape) {
    return List.of(Cli.read(tape).split("\n"));
  }

  @Test
  void rawImportKeepsEveryByteAndDeclaresNoVars() throws Exception {
    Path tape = dir.resolve("run.tape.ndjson");

    Cli.Result r =
        Cli.run("import", "--raw", "--stdout", stdout(STDOUT).toString(), "--out", tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("agentdouble: wrote " + tape + " (5 frames, raw)\n");
    List<String> lines = lines(tape);
    JsonNode header = JSON.readTree(lines.get(0));
    assertThat(header.get("tape").asInt()).isEqualTo(1);
    assertThat(header.get("source").asText()).isEqualTo("imported");
    assertThat(header.get("recorder").asText()).startsWith("agentdouble-fixtures ");
    assertThat(header.get("importedAt").asText())
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(header.has("vars")).isFalse();
    assertThat(lines.subList(1, lines.size()))
        .containsExactly(
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":0,\"out\":" + USER + "}",
            "{\"t\":0,\"out\":" + THINKING + "}",
            "{\"t\":900,\"out\":" + RESULT + "}",
            "{\"t\":900,\"exit\":0}");
  }

  @Test
  void normalisingImportDeclaresTheVolatileValuesWithoutChangingThem() throws Exception {
    Path tape = dir.resolve("run.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(STDOUT).toString(),
            "--out",
            tape.toString(),
            "--cli-version",
            "2026.10.01-e373342");

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: wrote " + tape + " (5 frames, vars: sessionId cwd prompt epochMs)\n");
    JsonNode header = JSON.readTree(lines(tape).get(0));
    assertThat(header.get("cliVersion").asText()).isEqualTo("2026.10.01-e373342");
    JsonNode vars = header.get("vars");
    assertThat(vars.get("sessionId").asText()).isEqualTo(SID);
    assertThat(vars.get("cwd").asText()).isEqualTo("/home/dev/shop");
    assertThat(vars.get("prompt").asText()).isEqualTo("What does cart.ts export?");
    assertThat(vars.get("epochMs").asLong()).isEqualTo(1790000000600L);
    assertThat(lines(tape).get(1)).isEqualTo("{\"t\":0,\"out\":" + INIT + "}");
  }

  @Test
  void stderrAndTheExitCodeEndTheTape() {
    Path err = Cli.write(dir, "stderr.txt", "Error: Authentication required.\n");
    Path tape = dir.resolve("auth.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout("").toString(),
            "--stderr",
            err.toString(),
            "--exit",
            "1",
            "--out",
            tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(lines(tape).subList(1, 3))
        .containsExactly(
            "{\"t\":0,\"err\":\"Error: Authentication required.\\n\"}", "{\"t\":0,\"exit\":1}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"KILL", "9", "SIGKILL", "kill", "sigkill"})
  void aSignalCanBeNamedWithOrWithoutSigOrByNumber(String signal) {
    Path tape = dir.resolve("killed.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--raw",
            "--stdout",
            stdout(INIT + "\n{\"type\":\"tool_call\",\"subt").toString(),
            "--signal",
            signal,
            "--out",
            tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    List<String> lines = lines(tape);
    assertThat(lines.get(2))
        .isEqualTo("{\"t\":0,\"outRaw\":\"{\\\"type\\\":\\\"tool_call\\\",\\\"subt\"}");
    assertThat(lines.get(lines.size() - 1)).isEqualTo("{\"t\":0,\"kill\":\"SIGKILL\"}");
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "99", "SIGSEGV", "STOP", "", "99999999999"})
  void aSignalNoTapeCanEndWithIsAUsageErrorListingTheOnesThatCan(String signal) {
    Path tape = dir.resolve("killed.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(STDOUT).toString(),
            "--signal",
            signal,
            "--out",
            tape.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "agentdouble: --signal '"
                + signal
                + "' is not a signal a "
                + "tape can end with; use one of SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGKILL, SIGUSR1, "
                + "SIGUSR2, SIGPIPE, SIGALRM, SIGTERM")
        .doesNotContain("Exception");
    assertThat(tape).doesNotExist();
  }

  @ParameterizedTest
  @ValueSource(strings = {"256", "-1", "one"})
  void anExitCodeOutside0To255IsAUsageError(String code) {
    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(STDOUT).toString(),
            "--exit",
            code,
            "--out",
            dir.resolve("t.tape.ndjson").toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("agentdouble: --exit must be a code from 0 to 255, was '" + code + "'\n");
  }

  @Test
  void exitAndSignalTogetherAreAUsageError() {
    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(STDOUT).toString(),
            "--exit",
            "1",
            "--signal",
            "KILL",
            "--out",
            dir.resolve("t.tape.ndjson").toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).startsWith("agentdouble: give --exit or --signal, not both\n");
  }

  @Test
  void withoutStdoutOrOutItSaysWhichIsMissing() {
    Cli.Result noStdout = Cli.run("import", "--out", dir.resolve("t.tape.ndjson").toString());
    Cli.Result noOut = Cli.run("import", "--stdout", stdout(STDOUT).toString());

    assertThat(noStdout.exit()).isEqualTo(2);
    assertThat(noStdout.err())
        .isEqualTo(
            "agentdouble: import needs --stdout FILE\n"
                + "Run 'agentdouble import --help' for usage.\n");
    assertThat(noOut.exit()).isEqualTo(2);
    assertThat(noOut.err()).startsWith("agentdouble: import needs --out TAPE\n");
  }

  @Test
  void aPositionalFileSuggestsTheOptionThatIsMissing() {
    Cli.Result forStdout = Cli.run("import", "captured.ndjson", "--out", "t.tape.ndjson");
    Cli.Result forOut = Cli.run("import", "--stdout", "captured.ndjson", "t.tape.ndjson");

    assertThat(forStdout.err())
        .startsWith(
            "agentdouble: import takes no positional arguments, "
                + "was 'captured.ndjson'; did you mean --stdout captured.ndjson?\n");
    assertThat(forOut.err())
        .startsWith(
            "agentdouble: import takes no positional arguments, "
                + "was 't.tape.ndjson'; did you mean --out t.tape.ndjson?\n");
  }

  @Test
  void anUnknownOutputFormatIsAUsageError() {
    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(STDOUT).toString(),
            "--output-format",
            "ndjson",
            "--out",
            dir.resolve("t.tape.ndjson").toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "agentdouble: --output-format must be text, json, stream-json or acp, was 'ndjson'\n");
  }

  @Test
  void anAgentSideAcpTranscriptImportsWithTheClientsMessagesInferred() throws Exception {
    Path transcript =
        Cli.write(
            dir,
            "acp.ndjson",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":1}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32603,\"message\":"
                + "\"Internal error\"}}\n");
    Path tape = dir.resolve("acp.tape.ndjson");
    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            transcript.toString(),
            "--output-format",
            "acp",
            "--out",
            tape.toString());

    assertThat(r.exit()).as(r.err()).isZero();
    Tape imported = Tape.read(tape);
    assertThat(imported.header().format()).isEqualTo(OutputFormat.ACP);
    assertThat(imported.frames())
        .extracting(f -> f.getClass().getSimpleName())
        .containsExactly("In", "Out", "In", "Out", "Exit");
    assertThat(((Frame.In) imported.frames().get(2)).json())
        .contains("\"method\":\"authenticate\"");
  }

  @Test
  void theOutputFormatGoesIntoTheHeader() throws Exception {
    Path tape = dir.resolve("json.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(RESULT + "\n").toString(),
            "--output-format",
            "json",
            "--out",
            tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(JSON.readTree(lines(tape).get(0)).get("outputFormat").asText()).isEqualTo("json");
  }

  @Test
  void aMissingInputFileIsNamedAndExits1() {
    Path missing = dir.resolve("no-such-capture.ndjson");
    Path tape = dir.resolve("t.tape.ndjson");

    Cli.Result r = Cli.run("import", "--stdout", missing.toString(), "--out", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("agentdouble: " + missing + ": no such file\n");
    assertThat(tape).doesNotExist();
  }

  @Test
  void aFolderGivenAsStderrIsNamedAndExits1() {
    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            stdout(STDOUT).toString(),
            "--stderr",
            dir.toString(),
            "--out",
            dir.resolve("t.tape.ndjson").toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("agentdouble: " + dir + ": is a directory, not a file\n");
  }

  @Test
  void anUnreadableFileIsNamedAndExits1() throws Exception {
    // /proc/self/mem exists but a plain read of it fails, also for root
    Path unreadable = Path.of("/proc/self/mem");
    Assumptions.assumeTrue(Files.exists(unreadable), "no /proc");

    Cli.Result r =
        Cli.run(
            "import",
            "--stdout",
            unreadable.toString(),
            "--out",
            dir.resolve("t.tape.ndjson").toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("agentdouble: /proc/self/mem: cannot read: ")
        .doesNotContain("Exception");
  }

  @Test
  void aTapeThatCannotBeWrittenIsNamedAndExits1() {
    Path notAFolder = Cli.write(dir, "plain-file", "x");
    Path tape = notAFolder.resolve("t.tape.ndjson");

    Cli.Result r =
        Cli.run("import", "--stdout", stdout(STDOUT).toString(), "--out", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("agentdouble: " + tape + ": cannot write the tape: ")
        .contains(notAFolder.toString());
  }

  @Test
  void aLineThatIsNotJsonIsKeptVerbatim() {
    Path tape = dir.resolve("t.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--raw",
            "--stdout",
            stdout(INIT + "\nnot json\n" + RESULT + "\n").toString(),
            "--out",
            tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(lines(tape).get(2)).isEqualTo("{\"t\":0,\"outRaw\":\"not json\\n\"}");
  }

  @Test
  void theCommandLineAfterDashesGoesIntoTheHeaderWithItsSecretsRedacted() throws Exception {
    Path tape = dir.resolve("run.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--raw",
            "--stdout",
            stdout(STDOUT).toString(),
            "--out",
            tape.toString(),
            "--",
            "/usr/local/bin/cursor-agent",
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "--api-key",
            "key-0123456789abcdef",
            "What does cart.ts export?");

    assertThat(r.exit()).as("%s", r).isZero();
    Tape imported = Tape.read(tape);
    assertThat(imported.header().cli()).contains("cursor-agent");
    assertThat(imported.header().argv())
        .containsExactly(
            "-p",
            "--output-format",
            "stream-json",
            "--stream-partial-output",
            "--api-key",
            "REDACTED:api-key",
            "What does cart.ts export?");
    assertThat(Cli.read(tape)).doesNotContain("key-0123456789abcdef");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "-p"})
  void dashesNeedACommandLineThatBeginsWithItsProgram(String first) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "import",
                "--stdout",
                stdout(STDOUT).toString(),
                "--out",
                dir.resolve("t.tape.ndjson").toString(),
                "--"));
    if (!first.isEmpty()) {
      args.addAll(List.of(first, "--output-format", "stream-json", "hi"));
    }

    Cli.Result r = Cli.run(args.toArray(String[]::new));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            first.isEmpty()
                ? "agentdouble: after -- give the command line the capture was made with, "
                    + "e.g. -- cursor-agent -p --output-format stream-json PROMPT\n"
                : "agentdouble: the command line after -- begins with the program that made "
                    + "the run (cursor-agent -p ...), was '-p'\n");
    assertThat(dir.resolve("t.tape.ndjson")).doesNotExist();
  }

  /** A case folder as {@code ../shared/conformance/} lays them out. */
  private Path caseFolder(String caseJson) throws IOException {
    Path folder = Files.createDirectories(dir.resolve("usage-limit"));
    Cli.write(folder, "stdout.ndjson", INIT + "\n" + USER + "\n");
    Cli.write(folder, "stderr.txt", "ActionRequiredError: You've hit your usage limit\n");
    Cli.write(folder, "case.json", caseJson);
    return folder;
  }

  @Test
  void aCaseFolderGivesTheCaptureItsEndingItsVersionItsFormatAndItsCommandLine() throws Exception {
    Path folder =
        caseFolder(
            "{\"exit\":1,\"cliVersion\":\"2026.07.09-a3815c0\",\"outputFormat\":\"stream-json\","
                + "\"source\":\"a design document\",\"excerpt\":false,"
                + "\"argv\":[\"agent\",\"-p\",\"--output-format\",\"stream-json\",\"hi\"]}");
    Path fromCase = dir.resolve("case.tape.ndjson");
    Path fromOptions = dir.resolve("options.tape.ndjson");

    Cli.Result r =
        Cli.run("import", "--raw", "--case", folder.toString(), "--out", fromCase.toString());
    Cli.Result o =
        Cli.run(
            "import",
            "--raw",
            "--stdout",
            folder.resolve("stdout.ndjson").toString(),
            "--stderr",
            folder.resolve("stderr.txt").toString(),
            "--exit",
            "1",
            "--out",
            fromOptions.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(o.exit()).as("%s", o).isZero();
    Tape imported = Tape.read(fromCase);
    assertThat(imported.frames()).isEqualTo(Tape.read(fromOptions).frames());
    assertThat(imported.header().cli()).contains("agent");
    assertThat(imported.header().argv())
        .containsExactly("-p", "--output-format", "stream-json", "hi");
    assertThat(imported.header().cliVersion()).contains("2026.07.09-a3815c0");
    assertThat(JSON.readTree(lines(fromCase).get(0)).get("outputFormat").asText())
        .isEqualTo("stream-json");
  }

  @Test
  void aCaseFolderWithoutArgvTakesTheCommandLineAfterDashesAndOneWithArgvRefusesIt()
      throws Exception {
    Path withoutArgv = caseFolder("{\"exit\":1}");
    Path tape = dir.resolve("t.tape.ndjson");

    Cli.Result r =
        Cli.run(
            "import",
            "--case",
            withoutArgv.toString(),
            "--out",
            tape.toString(),
            "--",
            "cursor-agent",
            "-p",
            "hi");
    Path withArgv = caseFolder("{\"exit\":1,\"argv\":[\"cursor-agent\",\"-p\",\"hi\"]}");
    Cli.Result both =
        Cli.run(
            "import",
            "--case",
            withArgv.toString(),
            "--out",
            tape.toString(),
            "--",
            "cursor-agent",
            "hi");

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(Tape.read(tape).header().argv()).containsExactly("-p", "hi");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err())
        .startsWith(
            "agentdouble: "
                + withArgv
                + "/case.json gives the command line (argv) already; give none after --\n");
  }

  @Test
  void aCaseWhoseExitIsNotKnownTakesItFromExitOrSaysHowToGiveIt() throws IOException {
    Path folder = caseFolder("{\"exit\":null,\"argv\":[\"claude\",\"-p\",\"hi\"]}");
    Path tape = dir.resolve("t.tape.ndjson");

    Cli.Result unknown = Cli.run("import", "--case", folder.toString(), "--out", tape.toString());
    Cli.Result given =
        Cli.run("import", "--case", folder.toString(), "--exit", "1", "--out", tape.toString());

    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err())
        .isEqualTo(
            "agentdouble: "
                + folder.resolve("case.json")
                + ": \"exit\" must be the run's exit code, from 0 to 255, was null; where the"
                + " capture does not say, give it: --exit N or --signal NAME\n");
    assertThat(given.exit()).as("%s", given).isZero();
    List<String> lines = lines(tape);
    assertThat(lines.get(lines.size() - 1)).isEqualTo("{\"t\":0,\"exit\":1}");
    assertThat(JSON.readTree(lines.get(0)).get("cli").asText()).isEqualTo("claude");
  }

  @Test
  void cliNamesTheProgramOfACaptureWithoutACommandLine() throws IOException {
    String tape = dir.resolve("t.tape.ndjson").toString();
    String empty = stdout("").toString();

    Cli.Result r = Cli.run("import", "--stdout", empty, "--cli", "claude", "--out", tape);
    Cli.Result both =
        Cli.run(
            "import",
            "--stdout",
            empty,
            "--cli",
            "claude",
            "--out",
            tape,
            "--",
            "cursor-agent",
            "-p");

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(JSON.readTree(lines(Path.of(tape)).get(0)).get("cli").asText()).isEqualTo("claude");
    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.err())
        .startsWith(
            "agentdouble: --cli claude names another program than the command line's,"
                + " cursor-agent; give one of them\n");
  }

  @Test
  void aCaseFolderWithTheCapturesOwnOptionsIsAUsageError() throws IOException {
    Path folder = caseFolder("{\"exit\":1}");

    Cli.Result r =
        Cli.run(
            "import",
            "--case",
            folder.toString(),
            "--exit",
            "0",
            "--out",
            dir.resolve("t.tape.ndjson").toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "agentdouble: --case DIR reads the capture and its facts from DIR; give --case or "
                + "--stdout, --stderr, --exit, --signal, --output-format, --cli-version, not both "
                + "(--exit was given)\n");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"exit\":1,|: not valid JSON: ",
        "{\"cliVersion\":\"x\"}|: \"exit\" must be the run's exit code, from 0 to 255, was missing",
        "{\"exit\":null}|: \"exit\" must be the run's exit code, from 0 to 255, was null",
        "{\"exit\":0,\"outputFormat\":\"ndjson\"}|: \"outputFormat\" must be text, json,"
            + " stream-json or acp, was 'ndjson'",
        "{\"exit\":0,\"cliVersion\":7}|: \"cliVersion\" must be a string, was 7",
        "{\"exit\":0,\"argv\":\"cursor-agent -p\"}|: \"argv\" must be the command line as it was"
            + " run, an array of strings, the program first (\"cursor-agent\", \"-p\", ...), was"
            + " \"cursor-agent -p\"",
        "{\"exit\":0,\"argv\":[\"-p\",\"hi\"]}|: \"argv\" begins with the program that made the"
            + " run (cursor-agent -p ...), was '-p'"
      })
  void aCaseJsonThatCannotBeReadIsNamedWithWhatIsWrongAndExits1(String example) throws IOException {
    String[] parts = example.split("\\|");
    Path folder = caseFolder(parts[0]);
    Path tape = dir.resolve("t.tape.ndjson");

    Cli.Result r = Cli.run("import", "--case", folder.toString(), "--out", tape.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).startsWith("agentdouble: " + folder.resolve("case.json") + parts[1]);
    assertThat(r.err().lines()).hasSize(1);
    assertThat(tape).doesNotExist();
  }

  @Test
  void aCaseThatIsNotAFolderIsNamedAndExits1() {
    Path missing = dir.resolve("no-such-case");

    Cli.Result r =
        Cli.run("import", "--case", missing.toString(), "--out", dir.resolve("t").toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + missing
                + ": no such folder; give the folder of a captured run "
                + "(case.json, stdout.ndjson, stderr.txt)\n");
  }
}
