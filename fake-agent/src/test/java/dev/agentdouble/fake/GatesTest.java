package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class GatesTest {
  @TempDir Path dir;

  private Path gatedTape() {
    return write(
        dir,
        "gated.tape.ndjson",
        String.join(
            "\n",
            "{\"tape\":1}",
            "{\"t\":0,\"outRaw\":\"before\\n\"}",
            "{\"t\":0,\"gate\":\"mid\"}",
            "{\"t\":0,\"outRaw\":\"after\\n\"}",
            "{\"t\":0,\"exit\":0}",
            ""));
  }

  @Test
  void holdsAtAGateUntilTheTestReleasesIt() throws Exception {
    Path gates = Files.createDirectory(dir.resolve("gates"));
    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env(
                    "AGENTDOUBLE_TAPE",
                    gatedTape().toString(),
                    "AGENTDOUBLE_TIMING",
                    "fast",
                    "AGENTDOUBLE_GATES",
                    gates.toString()),
                List.of("-p", "x"))
            .start();
    try {
      p.getOutputStream().close();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("before");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> Files.exists(gates.resolve("mid.reached")));
      CompletableFuture<String> next =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return out.readLine();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      assertThat(p.waitFor(300, TimeUnit.MILLISECONDS)).as("held at the gate").isFalse();
      assertThat(next).isNotDone();

      Files.createFile(gates.resolve("mid.release"));

      assertThat(next.get(20, TimeUnit.SECONDS)).isEqualTo("after");
      assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).isZero();
    } finally {
      FakeProcess.kill(p);
    }
  }

  @Test
  void aGateNobodyReleasesEndsTheRunWithExit70() {
    Path gates = dir.resolve("gates");
    FakeProcess.Result r =
        FakeProcess.run(
            env(
                "AGENTDOUBLE_TAPE",
                gatedTape().toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_GATES",
                mkdir(gates).toString(),
                "AGENTDOUBLE_GATE_TIMEOUT_MS",
                "200"),
            "-p",
            "x");

    assertThat(r.out()).isEqualTo("before\n");
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: gate \"mid\" was not released within 200 ms "
                + "(AGENTDOUBLE_GATE_TIMEOUT_MS); the test must release it\n");
    assertThat(r.exit()).isEqualTo(70);
  }

  @Test
  void withoutAGatesFolderGatesPassStraightThrough() {
    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", gatedTape().toString(), "AGENTDOUBLE_TIMING", "fast"),
            "-p",
            "x");

    assertThat(r.out()).isEqualTo("before\nafter\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void aMissingGatesFolderIsNamedWithTheFix() {
    Path missing = dir.resolve("no-such-folder");
    FakeProcess.Result r =
        FakeProcess.run(
            env(
                "AGENTDOUBLE_TAPE",
                gatedTape().toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_GATES",
                missing.toString()),
            "-p",
            "x");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err())
        .startsWith(
            "agentdouble: AGENTDOUBLE_GATES=" + missing + ": cannot mark gate \"mid\" as reached")
        .contains("the folder must exist and be writable");
  }

  private static Path mkdir(Path dir) {
    try {
      return Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
