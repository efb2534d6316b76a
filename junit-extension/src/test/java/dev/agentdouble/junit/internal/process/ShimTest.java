package dev.agentdouble.junit.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class ShimTest {
  @TempDir Path dir;

  private final ShimWriter writer = new ShimWriter();

  @AfterEach
  void endTheWriter() {
    writer.close();
  }

  /**
   * A shim written while other threads start processes runs at once: a process forked while this
   * JVM held the script open for writing would make executing it fail with "Text file busy".
   */
  @Test
  void aShimJustWrittenRunsWhileOtherThreadsStartProcesses() throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService spawners = Executors.newFixedThreadPool(3);
    List<Future<?>> running = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      running.add(
          spawners.submit(
              () -> {
                while (!stop.get()) {
                  new ProcessBuilder("true").start().waitFor(10, TimeUnit.SECONDS);
                }
                return null;
              }));
    }
    List<String> failures = new ArrayList<>();
    try {
      for (int i = 0; i < 150; i++) {
        Path bin = Files.createDirectories(dir.resolve("bin" + i));
        Shim.install(writer, bin, "#!/bin/sh\nexit 7\n");
        try {
          Process shim = new ProcessBuilder(bin.resolve("cursor-agent").toString()).start();
          assertThat(shim.waitFor(10, TimeUnit.SECONDS)).isTrue();
          assertThat(shim.exitValue()).isEqualTo(7);
        } catch (IOException e) {
          failures.add("run " + i + ": " + e.getMessage());
        }
      }
    } finally {
      stop.set(true);
      for (Future<?> f : running) {
        f.get(30, TimeUnit.SECONDS);
      }
      spawners.shutdown();
    }

    assertThat(failures).as("shims that could not be run").isEmpty();
    assertThat(Files.readString(dir.resolve("bin0/agent"))).isEqualTo("#!/bin/sh\nexit 7\n");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("bin0/cursor-agent"))))
        .isEqualTo("rwx------");
  }

  /** Claude's name gets the shim too, and a shim of its own when its script differs. */
  @Test
  void claudeIsInstalledBesideCursorsNamesWithAScriptOfItsOwnWhenGiven() throws Exception {
    Path same = Files.createDirectories(dir.resolve("same"));
    Path apart = Files.createDirectories(dir.resolve("apart"));
    Shim.install(writer, same, "#!/bin/sh\nexit 7\n");
    Shim.install(
        writer,
        apart,
        Map.of(
            "cursor-agent", "#!/bin/sh\nexit 7\n",
            "agent", "#!/bin/sh\nexit 7\n",
            "claude", Shim.notFound("claude", "claude")));

    TestProcess.Result missing =
        TestProcess.command(List.of(apart.resolve("claude").toString())).noStdin().run();

    assertThat(Files.readString(same.resolve("claude"))).isEqualTo("#!/bin/sh\nexit 7\n");
    assertThat(Files.readString(apart.resolve("agent"))).isEqualTo("#!/bin/sh\nexit 7\n");
    assertThat(missing.exit()).isEqualTo(70);
    assertThat(missing.err())
        .isEqualTo(
            "agentdouble: recording needs the real claude: none on PATH; name it with"
                + " -Dagentdouble.claude=PATH\n");
  }
}
