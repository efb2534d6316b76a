package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.Release;
import dev.agentdouble.testing.TestProcess;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The distribution archive as a user of another language gets it: unpacked into a folder of its
 * own, away from the source tree, and run with a {@code mvn} on PATH that fails if anything calls
 * it. The commands, the fake under both names, {@code demo} and {@code serve} work from there.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class DistributionIT {
  static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();
  static final String NAME = "agentdouble-" + Release.VERSION;
  static final Path TARGET = ROOT.resolve("junit-extension/target");

  @TempDir Path dir;
  private Path home;
  private String path;

  @BeforeEach
  void unpack() throws Exception {
    Path tar = TARGET.resolve(NAME + ".tar.gz");
    assertThat(tar).as("built by the package phase").isRegularFile();
    Path into = Files.createDirectory(dir.resolve("opt"));
    Run untar = run(List.of("tar", "xzf", tar.toString(), "-C", into.toString()), Map.of());
    assertThat(untar.exit()).as("tar: %s", untar.err()).isZero();
    home = into.resolve(NAME);
    Path bin = Files.createDirectory(dir.resolve("path"));
    Path mvn = bin.resolve("mvn");
    Files.writeString(mvn, "#!/bin/sh\necho 'the distribution called Maven' >&2\nexit 97\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    path = bin + File.pathSeparator + System.getenv("PATH");
  }

  @Test
  void holdsTheCommandsTheJarsAndTheDocs() throws IOException {
    for (String command : List.of("agentdouble", "cursor-agent", "agent", "claude")) {
      assertThat(home.resolve("bin").resolve(command)).isExecutable();
    }
    assertThat(home.resolve("lib/agentdouble.jar")).isRegularFile();
    assertThat(home.resolve("lib/fake-agent.jar")).isRegularFile();
    assertThat(home.resolve("lib/serve/agentdouble-junit-" + Release.VERSION + ".jar"))
        .isRegularFile();
    assertThat(home.resolve("README.md")).isRegularFile();
    assertThat(home.resolve("LICENSE")).isRegularFile();
    assertThat(home.resolve("docs/cli.md")).isRegularFile();
  }

  @Test
  void theZipHoldsWhatTheTarHolds() throws Exception {
    TreeSet<String> inTar = new TreeSet<>();
    try (Stream<Path> all = Files.walk(home)) {
      all.filter(Files::isRegularFile)
          .forEach(f -> inTar.add(NAME + "/" + home.relativize(f).toString()));
    }
    inTar.removeIf(f -> f.endsWith(".jsa") || f.endsWith(".jsa.java")); // made by a first run
    TreeSet<String> inZip = new TreeSet<>();
    try (ZipFile zip = new ZipFile(TARGET.resolve(NAME + ".zip").toFile())) {
      zip.stream().filter(e -> !e.isDirectory()).forEach(e -> inZip.add(e.getName()));
    }

    assertThat(inZip).isEqualTo(inTar);
  }

  @Test
  void agentdoubleSaysItsVersionAndSuggestsWhatWasMeant() throws Exception {
    Run version = agentdouble("--version");
    Run typo = agentdouble("replya", "x.tape.ndjson");

    assertThat(version.exit()).as(version.err()).isZero();
    assertThat(version.out()).isEqualTo("agentdouble " + Release.VERSION + "\n");
    assertThat(typo.exit()).isEqualTo(2);
    assertThat(typo.err())
        .isEqualTo(
            "agentdouble: unknown command 'replya'; did you mean replay?\n"
                + "Run 'agentdouble --help' for usage.\n");
  }

  @Test
  void theFakeReplaysUnderBothNames() throws Exception {
    for (String name : List.of("cursor-agent", "agent")) {
      Run run =
          run(
              List.of(
                  home.resolve("bin").resolve(name).toString(),
                  "-p",
                  "--trust",
                  "--output-format",
                  "text",
                  "Say hello"),
              Map.of("AGENTDOUBLE_TAPE", "builtin:documented-minimal"));

      assertThat(run.exit()).as("%s: %s", name, run.err()).isZero();
      assertThat(run.out()).as(name).isNotEmpty();
      assertThat(run.err()).as(name).isEmpty();
    }
  }

  @Test
  void theFakeIsClaudeCodeUnderThatName() throws Exception {
    Run version = run(List.of(home.resolve("bin/claude").toString(), "--version"), Map.of());

    assertThat(version.exit()).as(version.err()).isZero();
    assertThat(version.out()).isEqualTo("2.1.328 (Claude Code)\n");
  }

  @Test
  void demoRunsFromTheArchive() throws Exception {
    Run demo = agentdouble("demo");

    assertThat(demo.exit()).as(demo.err()).isZero();
    assertThat(demo.err()).doesNotContain("the distribution called Maven");
    assertThat(demo.out() + demo.err()).contains("agentdouble replay");
  }

  @Test
  void serveAnswersTheFakeFromTheArchive() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    Run write =
        agentdouble(
            "catalog",
            "--write",
            "documented-minimal",
            "--out",
            tapes.resolve("hello.tape.ndjson").toString());
    assertThat(write.exit()).as(write.err()).isZero();

    List<String> command =
        List.of(home.resolve("bin/agentdouble").toString(), "serve", "--tapes", tapes.toString());
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    environment(pb, Map.of());
    pb.redirectError(dir.resolve("serve.err").toFile());
    Process serve = pb.start();
    try {
      Map<String, String> env = new HashMap<>();
      BufferedReader lines =
          new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
      for (int i = 0; i < 2; i++) {
        String line = lines.readLine();
        assertThat(line).as("serve's line %d; stderr: %s", i + 1, serveErr()).isNotNull();
        env.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
      Run run =
          run(
              List.of(
                  home.resolve("bin/cursor-agent").toString(),
                  "-p",
                  "--trust",
                  "--output-format",
                  "text",
                  "Say hello"),
              env);

      assertThat(run.exit()).as(run.err()).isZero();
      assertThat(run.out()).isNotEmpty();
    } finally {
      serve.destroy();
      if (!serve.waitFor(30, TimeUnit.SECONDS)) {
        serve.destroyForcibly();
      }
    }
  }

  /** {@code <!-- suite: FILE -->}, then a fenced block: a test suite of another language. */
  private static final Pattern SUITE =
      Pattern.compile("<!-- suite: ([\\w.-]+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);

  /**
   * The suites the docs show in other languages, as shown, against the archive: docs/cookbook.md's
   * (Python's unittest and a shell script on the fake alone) and docs/cli.md's (pytest and Node's
   * test runner on {@code serve}'s API). A user of another language follows the pages with the
   * archive alone.
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "docs/cookbook.md test_agent_failures.py",
        "docs/cookbook.md agent_failures_test.sh",
        "docs/cli.md test_serve.py",
        "docs/cli.md serve.test.mjs"
      })
  void theDocsSuitesInOtherLanguagesPassAgainstTheArchive(String docAndSuite) throws Exception {
    String doc = docAndSuite.split(" ")[0];
    String file = docAndSuite.split(" ")[1];
    Matcher m = SUITE.matcher(Files.readString(ROOT.resolve(doc)));
    String text = null;
    while (m.find()) {
      if (m.group(1).equals(file)) {
        assertThat(text).as("%s: a second suite named %s", doc, file).isNull();
        text = m.group(2);
      }
    }
    assertThat(text).as("%s: a block marked <!-- suite: %s -->", doc, file).isNotNull();
    Path suites = Files.createDirectory(dir.resolve("suites"));
    Files.writeString(suites.resolve(file), text);
    List<String> command;
    if (file.endsWith(".mjs")) {
      command = List.of("node", "--test", file);
    } else if (file.endsWith(".sh")) {
      command = List.of("sh", file);
    } else if (text.contains("import pytest")) {
      command = List.of("python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", file);
    } else {
      command = List.of("python3", "-m", "unittest", "-v", file.replaceFirst("\\.py$", ""));
    }

    Run run =
        run(
            command,
            suites,
            Map.of(
                "CURSOR_AGENT",
                home.resolve("bin/cursor-agent").toString(),
                "AGENTDOUBLE",
                home.resolve("bin/agentdouble").toString()));

    assertThat(run.exit()).as("%s:\n%s%s", file, run.out(), run.err()).isZero();
    assertThat(run.out() + run.err()).doesNotContain("the distribution called Maven");
  }

  private String serveErr() throws IOException {
    return Files.readString(dir.resolve("serve.err"));
  }

  record Run(int exit, String out, String err) {}

  private Run agentdouble(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(home.resolve("bin/agentdouble").toString()));
    command.addAll(List.of(args));
    return run(command, Map.of());
  }

  private void environment(ProcessBuilder pb, Map<String, String> env) {
    pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_"));
    pb.environment().put("PATH", path);
    pb.environment().putAll(env);
  }

  /** Runs {@code command} in the temp folder, stdin closed, bounded; its stdout and stderr. */
  private Run run(List<String> command, Map<String, String> env) throws Exception {
    return run(command, dir, env);
  }

  /** Runs {@code command} in {@code folder}, stdin closed, bounded; its stdout and stderr. */
  private Run run(List<String> command, Path folder, Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(folder.toFile());
    if (path != null) {
      environment(pb, env);
    }
    TestProcess.Result r = TestProcess.of(pb).noStdin().patience(Duration.ofMinutes(2)).run();
    return new Run(r.exit(), r.out(), r.err());
  }
}
