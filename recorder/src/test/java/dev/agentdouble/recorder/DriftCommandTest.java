package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.drift.Drift;
import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriftCommandTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
  static final String INIT =
      "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
          + "\"cwd\":\"/w\",\"session_id\":\""
          + SID
          + "\",\"model\":\"Auto\"}";
  static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":5,"
          + "\"is_error\":false,\"result\":\"hello\",\"session_id\":\""
          + SID
          + "\"}";
  static final String RESULT_WITH_USAGE = RESULT.replace("}", ",\"usage\":{\"inputTokens\":7}}");

  @TempDir Path dir;

  /** A tape of these stdout events, ending with exit 0. */
  static String tape(String... events) {
    StringBuilder sb = new StringBuilder("{\"tape\":1}\n");
    for (String e : events) {
      sb.append("{\"t\":0,\"out\":").append(e).append("}\n");
    }
    return sb.append("{\"t\":0,\"exit\":0}\n").toString();
  }

  @Test
  void tapesOfTheSameShapeHaveNoDriftAndExit0() {
    Path old = Cli.write(dir, "old.tape.ndjson", tape(INIT, RESULT));
    Path now =
        Cli.write(
            dir,
            "new.tape.ndjson",
            tape(INIT.replace("/w", "/elsewhere"), RESULT.replace("hello", "bye")));

    Cli.Result r = Cli.run("drift", old.toString(), now.toString());

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.out()).isEqualTo("no drift\n");
    assertThat(r.err())
        .isEqualTo("agentdouble: no drift from " + old + " (1 tape) to " + now + " (1 tape)\n");
  }

  @Test
  void driftPrintsTheReportOnStdoutAndExits1() {
    Path old = Cli.write(dir, "old.tape.ndjson", tape(INIT, RESULT));
    Path now =
        Cli.write(
            dir,
            "new.tape.ndjson",
            tape(
                INIT.replace(",\"model\":\"Auto\"", ""),
                "{\"type\":\"thinking\",\"subtype\":\"delta\",\"text\":\"hm\"}",
                RESULT_WITH_USAGE));

    Cli.Result r = Cli.run("drift", old.toString(), now.toString());

    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out())
        .isEqualTo(
            """
        new event kinds
          + thinking/delta

        result/success
          + usage              object
          + usage.inputTokens  integer

        system/init
          - model  string
        """);
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: drift from "
                + old
                + " (1 tape) to "
                + now
                + " (1 tape): 1 new event kind, 2 added fields, 1 removed field\n");
  }

  @Test
  void aFolderMeansEveryTapeInItAndItsSubfolders() throws IOException {
    Path old = Files.createDirectories(dir.resolve("old/auth"));
    Cli.write(old, "login.tape.ndjson", tape(INIT));
    Cli.write(old.getParent(), "run.tape.ndjson", tape(RESULT));
    Cli.write(old.getParent(), "notes.txt", "not a tape");
    Cli.write(old.getParent(), "captured.ndjson", RESULT_WITH_USAGE + "\n");
    Path now = Files.createDirectories(dir.resolve("new"));
    Cli.write(now, "run.tape.ndjson", tape(INIT, RESULT));

    Cli.Result r = Cli.run("drift", old.getParent().toString(), now.toString());

    assertThat(r.exit()).as(r.toString()).isZero();
    assertThat(r.err()).contains("(2 tapes) to ");
  }

  @Test
  void withStdoutTheSidesAreCapturedStdoutFilesOrFoldersOfThem() throws IOException {
    Path old = Cli.write(dir, "old.ndjson", "Update available!\n" + INIT + "\n" + RESULT + "\n");
    Path now = Files.createDirectories(dir.resolve("new/run-1"));
    Cli.write(now, "stdout.ndjson", INIT + "\n" + RESULT_WITH_USAGE + "\n");
    Cli.write(now, "stderr.txt", "warning\n");

    Cli.Result r = Cli.run("drift", "--stdout", old.toString(), now.getParent().toString());

    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out())
        .isEqualTo(
            "result/success\n  + usage              object\n" + "  + usage.inputTokens  integer\n");
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: drift from "
                + old
                + " (1 capture) to "
                + now.getParent()
                + " (1 capture): 2 added fields\n");
  }

  @Test
  void aPathThatIsNotThereExits2() {
    Path old = Cli.write(dir, "old.tape.ndjson", tape(INIT));

    Cli.Result r = Cli.run("drift", old.toString(), dir.resolve("nope").toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("agentdouble: " + dir.resolve("nope") + ": no such file or folder\n");
  }

  @Test
  void aFolderWithoutTapesExits2AndMentionsStdout() throws IOException {
    Path old = Cli.write(dir, "old.tape.ndjson", tape(INIT));
    Path now = Files.createDirectories(dir.resolve("captures"));
    Cli.write(now, "run.ndjson", INIT + "\n");

    Cli.Result r = Cli.run("drift", old.toString(), now.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + now
                + ": no *.tape.ndjson files in this "
                + "folder; for captured stdout, add --stdout\n");
  }

  @Test
  void aMalformedTapeExits2NamingItsLine() {
    Path old = Cli.write(dir, "old.tape.ndjson", tape(INIT));
    Path now = Cli.write(dir, "new.tape.ndjson", "{\"tape\":1}\n{\"t\":0,\"note\":1}\n");

    Cli.Result r = Cli.run("drift", old.toString(), now.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("agentdouble: " + now + ":2: unknown frame key \"note\"");
  }

  @Test
  void aCaptureGivenAsATapeExits2AndMentionsStdout() {
    Path old = Cli.write(dir, "old.tape.ndjson", tape(INIT));
    Path now = Cli.write(dir, "run.ndjson", INIT + "\n");

    Cli.Result r = Cli.run("drift", old.toString(), now.toString());

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("agentdouble: " + now + ":1: not a tape")
        .endsWith("; for captured stdout, add --stdout\n");
  }

  @Test
  void anythingButTwoPathsIsAUsageError() {
    Cli.Result one = Cli.run("drift", "old.tape.ndjson");
    Cli.Result three = Cli.run("drift", "a", "b", "c");

    assertThat(one.exit()).isEqualTo(2);
    assertThat(one.err())
        .isEqualTo(
            "agentdouble: drift takes OLD and NEW, was 1 path\n"
                + "Run 'agentdouble drift --help' for usage.\n");
    assertThat(three.exit()).isEqualTo(2);
    assertThat(three.err()).startsWith("agentdouble: drift takes OLD and NEW, was 3 paths\n");
  }

  @Test
  void helpExplainsTheSidesAndTheExitStatus() {
    Cli.Result r = Cli.run("drift", "--help");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .startsWith("usage: agentdouble drift [--stdout] OLD NEW")
        .contains("*.tape.ndjson", "--stdout", "0 no drift, 1 drift, 2 trouble");
    assertThat(r.err()).isEmpty();
  }

  /**
   * The corpus's 2026.01.28 captures against its 2026.07.20 one, given as folders of links to the
   * captured stdout (read in place): the report the library gives for the same captures.
   */
  @Test
  void theCorpusShowsTheToolCallSiblingsAndUsageAddedIn2026() throws IOException {
    Path corpus = Cli.shared().resolve("conformance");
    assumeTrue(Files.isDirectory(corpus), corpus + " not found: conformance test skipped");
    Path old = Files.createDirectories(dir.resolve("2026.01.28"));
    Path now = Files.createDirectories(dir.resolve("2026.07.20"));
    List<Tape> oldTapes = new ArrayList<>();
    List<Tape> newTapes = new ArrayList<>();
    List<Path> links = new ArrayList<>();
    try (Stream<Path> cases = Files.list(corpus)) {
      for (Path c : cases.sorted().toList()) {
        String version =
            Files.isRegularFile(c.resolve("case.json"))
                ? JSON.readTree(c.resolve("case.json").toFile()).path("cliVersion").asText()
                : "";
        Path side =
            version.startsWith("2026.01.28") ? old : version.startsWith("2026.07.20") ? now : null;
        if (side != null) {
          Path stdout = c.resolve("stdout.ndjson");
          links.add(Files.createSymbolicLink(side.resolve(c.getFileName() + ".ndjson"), stdout));
          (side == old ? oldTapes : newTapes)
              .add(
                  Importer.importRun(
                      Capture.exited(Files.readAllBytes(stdout), new byte[0], 0),
                      ImportOptions.builder().raw(true).build()));
        }
      }
    }
    assumeTrue(
        !oldTapes.isEmpty() && !newTapes.isEmpty(),
        "no 2026.01.28 and 2026.07.20 " + "captures in " + corpus + ": conformance test skipped");

    Cli.Result r = Cli.run("drift", "--stdout", old.toString(), now.toString());
    for (Path link : links) {
      Files.delete(link); // JUnit warns about links out of the folder it deletes
    }

    assertThat(r.exit()).as(r.toString()).isEqualTo(1);
    assertThat(r.out())
        .isEqualTo(Drift.compare(Drift.schema(oldTapes), Drift.schema(newTapes)).render());
    assertThat(r.out())
        .containsPattern("\\+ tool_call\\.hookAdditionalContexts +array\n")
        .containsPattern("\\+ tool_call\\.toolCallId +string\n")
        .containsPattern("\\+ tool_call\\.startedAtMs +string\n")
        .containsPattern("\\+ tool_call\\.completedAtMs +string\n")
        .containsPattern("(?m)^result/success\n  \\+ usage +object$");
    assertThat(r.err()).contains("(" + oldTapes.size() + " captures) to ");
  }
}
