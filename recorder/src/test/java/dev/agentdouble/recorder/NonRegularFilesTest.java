package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every command that reads a file refuses a FIFO at once, with a message, where opening it would
 * wait for a writer that never comes. A command that did open it would fail this test at its
 * {@code @Timeout} (in a thread of its own, so the blocked open cannot hold the test up), and the
 * FIFO is then given a writer, so that nothing stays blocked after the test.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NonRegularFilesTest {
  private static final String TAPE =
      "{\"tape\":1,\"outputFormat\":\"stream-json\"}\n{\"t\":0,\"exit\":0}\n";

  @TempDir Path dir;

  private Path fifo;
  private Path tape;

  @BeforeEach
  void makeAFifoAndATape() throws IOException, InterruptedException {
    fifo = dir.resolve("pipe.tape.ndjson");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("mkfifo ended").isTrue();
    assertThat(p.exitValue()).as("mkfifo").isZero();
    tape = Cli.write(dir, "good.tape.ndjson", TAPE);
  }

  /** Gives a command blocked opening the FIFO a writer (O_RDWR never blocks), then the end. */
  @AfterEach
  void releaseTheFifo() throws IOException {
    FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
  }

  private String[] args(String line) {
    return Arrays.stream(line.split(" "))
        .map(a -> a.replace("FIFO", fifo.toString()).replace("TAPE", tape.toString()))
        .map(a -> a.replace("OUT", dir.resolve("out.tape.ndjson").toString()))
        .toArray(String[]::new);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      show FIFO                                  | 1
      lint FIFO                                  | 1
      diff FIFO TAPE                             | 2
      diff TAPE FIFO                             | 2
      vary FIFO --variant rechunk                | 1
      drift FIFO TAPE                            | 2
      """)
  void aCommandRefusesAFifoTapeAtOnceNamingIt(String line, int exit) {
    Cli.Result r = Cli.run(args(line));

    assertThat(r.exit()).as("%s", r).isEqualTo(exit);
    assertThat(r.err())
        .as("%s", r)
        .contains(
            "agentdouble: "
                + fifo
                + ": not a regular file (a FIFO, a socket or a device); give a tape file\n");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      import --stdout FIFO --out OUT             | 1
      import --stdout TAPE --stderr FIFO --out OUT | 1
      drift --stdout FIFO TAPE                   | 2
      """)
  void aCommandRefusesAFifoCaptureAtOnceNamingIt(String line, int exit) {
    Cli.Result r = Cli.run(args(line));

    assertThat(r.exit()).as("%s", r).isEqualTo(exit);
    assertThat(r.err())
        .as("%s", r)
        .contains(
            "agentdouble: "
                + fifo
                + ": not a regular file (a FIFO, a socket or a device); save the output to a"
                + " file and give that\n");
  }

  @Test
  void replayRefusesAFifoAtOnceWithTheFakesStatus() {
    Cli.Result r = Cli.runInstalled("replay", "--timing", "fast", fifo.toString());

    assertThat(r.exit()).as("%s", r).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + fifo
                + ": not a regular file (a FIFO, a socket or a device); give a tape file\n");
  }
}
