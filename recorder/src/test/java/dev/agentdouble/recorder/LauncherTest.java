package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.Launch;
import dev.agentdouble.script.Script;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code ./agentdouble} launcher as a user runs it: a real process, its real exit status. A
 * stand-in {@code mvn} that fails comes first on PATH, so a launcher that finds the jars stale
 * fails the test instead of starting a nested build.
 */
@Timeout(120)
class LauncherTest {
  @TempDir Path dir;
  private Path bin;

  record Result(byte[] stdout, String err, int exit) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }
  }

  @BeforeEach
  void noNestedBuild() throws IOException {
    bin = Files.createDirectory(dir.resolve("bin"));
    Path mvn =
        Cli.write(
            bin,
            "mvn",
            "#!/bin/sh\necho 'stale jars: the launcher tried to build "
                + "during a test' >&2\nexit 1\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private Result agentdouble(String... args) {
    return run(Cli.root().resolve("agentdouble"), args);
  }

  private Result run(Path launcher, String... args) {
    List<String> command = new ArrayList<>();
    command.add(launcher.toString());
    command.addAll(List.of(args));
    Child c = Child.start(command, dir, Map.of("PATH", bin + ":" + System.getenv("PATH")));
    int exit = c.waitFor(Duration.ofSeconds(60));
    return new Result(c.stdout(), c.err(), exit);
  }

  @Test
  void recordRunsWithTheSameJvmOptionsAsRecordingShims() throws IOException {
    String launcher = Files.readString(Cli.root().resolve("agentdouble"));

    assertThat(launcher)
        .contains(
            "[ \"${1:-}\" = record ] && opts=\""
                + Launch.joined(Launch.RECORDER_JVM_OPTIONS)
                + "\"");
  }

  /**
   * The first build, in a copy of the launcher whose jars do not exist yet, with a stand-in Maven
   * that prints what Maven prints (colour codes included) and fails: a line per module as it goes,
   * then Maven's output without a colour code, then what failed.
   */
  @Test
  void theFirstBuildSaysWhereItIsAndAFailedBuildShowsMavensOutputWithoutColourCodes()
      throws IOException {
    Path home = Files.createDirectory(dir.resolve("home"));
    Path launcher = home.resolve("agentdouble");
    Files.copy(Cli.root().resolve("agentdouble"), launcher);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("pom.xml"), "<project/>\n");
    Path mvn =
        Cli.write(
            bin,
            "mvn",
            "#!/bin/sh\n"
                + "printf '\\033[1m[INFO] Building AgentDouble fixtures 0.1.0"
                + "                    [2/7]\\033[m\\n'\n"
                + "printf '[INFO] Building AgentDouble fake agent 0.1.0                  [3/7]\\n'\n"
                + "printf '\\033[1;31m[ERROR] COMPILATION ERROR\\033[m\\n'\n"
                + "exit 1\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));

    Result r = run(launcher, "catalog");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .doesNotContain("\u001b")
        .contains(
            "agentdouble: building AgentDouble fixtures 0.1.0 [2/7]\n",
            "agentdouble: building AgentDouble fake agent 0.1.0 [3/7]\n",
            "[ERROR] COMPILATION ERROR\n",
            "agentdouble: the build failed (Maven exit 1); see Maven's output above\n")
        .startsWith("agentdouble: building with Maven (first use, or sources changed)");
  }

  @Test
  void worksThroughASymbolicLink() throws IOException {
    Path link = Files.createSymbolicLink(bin.resolve("ad"), Cli.root().resolve("agentdouble"));

    Result r = run(link, "catalog");
    Files.delete(link); // JUnit warns about links out of the folder it deletes

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("usage-limit");
  }

  @Test
  void helpExits0() {
    Result r = agentdouble("--help");

    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("usage: agentdouble <command> [options]");
  }

  @Test
  void aUsageErrorExits2WithoutAStackTrace() {
    Result r = agentdouble("lint", "--fix");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: unknown option '--fix'\n" + "Run 'agentdouble lint --help' for usage.\n");
  }

  @Test
  void replayFindsTheFakeAgentAndEndsAsTheTape() {
    String init =
        "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
            + "\"cwd\":\"/w\",\"session_id\":\"4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27\","
            + "\"model\":\"Auto\",\"permissionMode\":\"default\"}";
    Path tape =
        Cli.write(
            dir,
            "killed.tape.ndjson",
            "{\"tape\":1}\n"
                + "{\"t\":0,\"out\":"
                + init
                + "}\n"
                + "{\"t\":0,\"err\":\"dying\\n\"}\n"
                + "{\"t\":1,\"kill\":\"SIGKILL\"}\n");

    Result r = agentdouble("replay", "--timing", "fast", tape.toString());

    assertThat(r.out()).isEqualTo(init + "\n");
    assertThat(r.err()).isEqualTo("dying\n");
    assertThat(r.exit()).isEqualTo(137);
  }

  /**
   * SIGINT and SIGTERM to {@code agentdouble replay} reach the fake it runs, which ends as it takes
   * them (an abort, or a death by SIGTERM), and replay ends with it: when replay has ended, so has
   * the fake. (A perl parent gives SIGINT back its default action: the build may run this test with
   * SIGINT ignored, which a JVM started from it would keep.)
   */
  @ParameterizedTest(name = "SIG{0}")
  @ValueSource(strings = {"INT", "TERM"})
  void replayPassesSigintAndSigtermToTheFakeAndEndsWithIt(String signal) throws Exception {
    Path tape = dir.resolve("hang.tape.ndjson");
    Script.of("say hi").init().hang().build().write(tape);
    List<String> command =
        new ArrayList<>(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die"));
    command.addAll(Child.agentdouble("replay", "--timing", "fast", tape.toString()));
    try (Child replay = Child.start(command, dir, Child.noBuild(dir))) {
      replay.awaitOut("\"subtype\":\"init\"");
      List<ProcessHandle> fakes = replay.process().children().toList();
      assertThat(fakes).as("the fake replay runs").hasSize(1);

      Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(replay.pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
      int exit = replay.waitFor();

      assertThat(fakes.get(0).isAlive()).as("the fake, once replay has ended").isFalse();
      if (signal.equals("INT")) {
        assertThat(replay.err()).isEqualTo("Aborting operation...\n");
        assertThat(exit).isEqualTo(130);
      } else {
        assertThat(replay.err()).isEmpty();
        assertThat(exit).isEqualTo(143);
      }
    }
  }

  /**
   * The launcher and the fake's give SIGINT back its default action with the same block (one copy
   * in each file, which is a program of its own in the distribution archive).
   */
  @Test
  void bothLaunchersResetAnIgnoredSigintTheSameWay() throws IOException {
    String ours = sigintReset(Files.readString(Cli.root().resolve("agentdouble")));
    String fakes = sigintReset(Files.readString(Cli.root().resolve("fake-agent/bin/cursor-agent")));

    assertThat(ours).contains("env --default-signal=INT").isEqualTo(fakes);
  }

  /** The launcher's block that finds whether SIGINT is ignored: from "reset=" to its "fi". */
  private static String sigintReset(String launcher) {
    int start = launcher.indexOf("\nreset=\n");
    int end = launcher.indexOf("done < \"/proc/$$/status\"\nfi\n", start);
    assertThat(start).as("the reset block").isPositive();
    assertThat(end).as("the reset block's end").isPositive();
    return launcher.substring(start, end);
  }

  /**
   * Started as a background job of a non-interactive shell ({@code sh -c 'agentdouble ... &'}),
   * which starts it with SIGINT ignored, replay and record take SIGINT as they do otherwise: it
   * reaches the command they run (here the fake, held mid-run), which aborts, and they end with it
   * (exit 130), leaving nothing running.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"replay", "record"})
  void sigintStopsACommandStartedInTheBackgroundOfAShell(String name) throws Exception {
    Path tape = dir.resolve("hang.tape.ndjson");
    Script.of("say hi").init().hang().build().write(tape);
    List<String> command = new ArrayList<>(List.of("sh", "-c", "\"$@\" & wait $!", "sh"));
    if (name.equals("replay")) {
      command.addAll(Child.agentdouble("replay", "--timing", "fast", tape.toString()));
    } else {
      command.addAll(
          Child.agentdouble(
              "record",
              "--quiet",
              "--out",
              dir.resolve("run.tape.ndjson").toString(),
              "--",
              Cli.root().resolve("fake-agent/bin/cursor-agent").toString(),
              "-p",
              "--output-format",
              "stream-json",
              "say hi"));
    }
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("AGENTDOUBLE_TAPE", tape.toString());
    try (Child shell = Child.start(command, dir, env)) {
      shell.awaitOut("\"subtype\":\"init\"");
      List<ProcessHandle> started = shell.process().children().toList();
      assertThat(started).as("%s, the shell's background job", name).hasSize(1);
      List<ProcessHandle> runs = started.get(0).descendants().toList();
      assertThat(runs).as("what %s runs", name).isNotEmpty();

      Process kill =
          new ProcessBuilder("kill", "-s", "INT", Long.toString(started.get(0).pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
      int exit = shell.waitFor(Duration.ofSeconds(60));

      assertThat(exit).as("%s's exit status, as the shell's wait tells", name).isEqualTo(130);
      assertThat(shell.err()).isEqualTo("Aborting operation...\n");
      assertThat(runs).as("what %s ran, once it has ended", name).noneMatch(ProcessHandle::isAlive);
    }
  }

  @Test
  void theDemoIgnoresTheCallersProfile() throws IOException {
    Path loggedOut = Cli.write(dir, "profile.json", "{\"loggedIn\":false}");
    List<String> command =
        List.of(Cli.root().resolve("agentdouble").toString(), "demo", "--timing", "fast");
    TestProcess.Result demo =
        TestProcess.command(command)
            .directory(dir)
            .env("PATH", bin + ":" + System.getenv("PATH"))
            .env("AGENTDOUBLE_PROFILE", loggedOut.toString())
            .env("AGENTDOUBLE_TEXT_STYLE", "final")
            .patience(Duration.ofSeconds(60))
            .run();
    assertThat(demo.exit()).as(demo.err()).isZero();
  }
}
