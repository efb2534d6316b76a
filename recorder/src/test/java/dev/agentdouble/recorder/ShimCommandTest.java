package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.script.Script;
import dev.agentdouble.testing.TestProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Replay shims: the fake with its configuration baked in, found on PATH by scrubbed consumers. */
@Timeout(120)
class ShimCommandTest {
  @TempDir Path dir;

  @Test
  void aReplayShimWorksForAConsumerThatScrubsItsEnvironment() throws Exception {
    Path tape = dir.resolve("hello.tape.ndjson");
    Script.of("hi")
        .init()
        .user()
        .assistant("Hello from the shim.")
        .result()
        .exit(0)
        .build()
        .write(tape);
    Path journal = dir.resolve("journal.ndjson");
    Path bin = dir.resolve("bin");

    Cli.Result made =
        Cli.runInstalled(
            "shim",
            "--tape",
            tape.toString(),
            "--timing",
            "fast",
            "--journal",
            journal.toString(),
            "--bin",
            bin.toString());

    assertThat(made.exit()).isZero();
    assertThat(bin.resolve("cursor-agent")).isExecutable();
    assertThat(bin.resolve("agent")).isExecutable();
    // env -i: nothing but PATH reaches the shim, as with consumers that scrub their children
    TestProcess.Result r =
        TestProcess.command(
                "env",
                "-i",
                "PATH=" + bin + ":/usr/bin:/bin",
                "agent",
                "-p",
                "--trust",
                "--output-format",
                "json",
                "hi")
            .noStdin()
            .patience(Duration.ofSeconds(60))
            .run();
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("\"result\":\"Hello from the shim.\"");
    assertThat(Files.readString(journal)).contains("\"prompt\":\"hi\"");
  }

  @Test
  void aShimNeedsExactlyOneSourceAndABinFolder() {
    Cli.Result none = Cli.runInstalled("shim", "--bin", dir.toString());
    Cli.Result noBin = Cli.runInstalled("shim", "--tape", "x.tape.ndjson");
    Cli.Result missing =
        Cli.runInstalled(
            "shim",
            "--tape",
            dir.resolve("nope.tape.ndjson").toString(),
            "--bin",
            dir.resolve("bin").toString());

    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err())
        .startsWith(
            "agentdouble: shim needs exactly one of --record-into DIR, --tape FILE, --tapes DIR");
    assertThat(noBin.exit()).isEqualTo(2);
    assertThat(noBin.err()).startsWith("agentdouble: shim needs --bin BINDIR");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("nope.tape.ndjson: no such tape");
  }
}
