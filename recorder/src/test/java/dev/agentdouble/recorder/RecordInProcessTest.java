package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * {@code record} through {@link AgentDoubleCommand#run} inside a JVM that does other things: while
 * it records, SIGINT and SIGTERM are the recorder's to forward; afterwards they are the JVM's
 * again, however recordings overlapped. Isolated: it looks at this JVM's signal handlers, which any
 * other in-process recording would change meanwhile.
 */
@Isolated
@Timeout(value = 2, unit = TimeUnit.MINUTES)
@SuppressWarnings("removal")
class RecordInProcessTest {
  @TempDir Path dir;

  @Test
  void overlappingRecordingsGiveTheJvmItsOwnSignalHandlersBack() throws Exception {
    assertThat(owner("TERM")).as("SIGTERM before").isNotEqualTo(RECORDER);
    assertThat(owner("INT")).as("SIGINT before").isNotEqualTo(RECORDER);
    Path first = Child.script(dir, "first.sh", "#!/bin/sh\nsleep 2\necho first\n");
    Path second = Child.script(dir, "second.sh", "#!/bin/sh\nsleep 4\necho second\n");

    // first starts, second starts while first runs, first ends while second runs
    CompletableFuture<Cli.Result> a =
        CompletableFuture.supplyAsync(
            () ->
                Cli.run(
                    "record",
                    "--quiet",
                    "--out",
                    dir.resolve("first.tape.ndjson").toString(),
                    "--",
                    first.toString()));
    // the recorder takes SIGTERM over once its child runs (first.sh runs for 2 s)
    Awaitility.await("the recorder's SIGTERM handler")
        .atMost(Duration.ofSeconds(30))
        .until(() -> owner("TERM").equals(RECORDER));
    CompletableFuture<Cli.Result> b =
        CompletableFuture.supplyAsync(
            () ->
                Cli.run(
                    "record",
                    "--quiet",
                    "--out",
                    dir.resolve("second.tape.ndjson").toString(),
                    "--",
                    second.toString()));

    assertThat(a.get(60, TimeUnit.SECONDS).out()).isEqualTo("first\n");
    assertThat(b.get(60, TimeUnit.SECONDS).out()).isEqualTo("second\n");
    assertThat(owner("TERM")).as("SIGTERM after both").isNotEqualTo(RECORDER);
    assertThat(owner("INT")).as("SIGINT after both").isNotEqualTo(RECORDER);
  }

  private static final String RECORDER = "the recorder";

  /**
   * Whose handler of signal {@code name} this JVM has: {@link #RECORDER}, or the handler's class
   * (the JVM's own wraps differ from call to call, so they are not compared by identity).
   */
  private static String owner(String name) {
    Signal signal = new Signal(name);
    SignalHandler current = Signal.handle(signal, SignalHandler.SIG_DFL);
    Signal.handle(signal, current);
    String type = current.getClass().getName();
    return type.startsWith("dev.agentdouble.recorder.internal.process.") ? RECORDER : type;
  }
}
