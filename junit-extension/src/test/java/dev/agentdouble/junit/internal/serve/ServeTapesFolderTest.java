package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble serve --tapes DIR} refuses a FIFO among the tapes at once, as the fake does
 * for {@code AGENTDOUBLE_TAPES}, where reading it would wait for a writer. Were it opened, the test
 * would fail at its {@code @Timeout} (in a thread of its own), and the FIFO is then given a writer
 * so that nothing stays blocked.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ServeTapesFolderTest {
  @TempDir Path dir;

  private Path fifo;

  /** Gives a reader blocked opening the FIFO a writer (O_RDWR never blocks), then the end. */
  @AfterEach
  void releaseTheFifo() throws IOException {
    if (fifo != null) {
      FileChannel.open(fifo, StandardOpenOption.READ, StandardOpenOption.WRITE).close();
    }
  }

  @Test
  void aFifoAmongTheTapesIsRefusedAtOnceNamingIt() throws IOException, InterruptedException {
    Files.writeString(dir.resolve("a.tape.ndjson"), "{\"tape\":1}\n{\"t\":0,\"exit\":0}\n");
    fifo = dir.resolve("b.tape.ndjson");
    Process p = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("mkfifo ended").isTrue();
    assertThat(p.exitValue()).as("mkfifo").isZero();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    Serve.Started s =
        Serve.start(
            new String[] {"--tapes", dir.toString()},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));

    if (s.serve() != null) {
      s.serve().close();
    }
    assertThat(s.status()).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "agentdouble: "
                + fifo
                + ": not a regular file (a folder, a FIFO or a device); a tapes folder holds tape"
                + " files: move it away, or rename it to end in something else than .tape.ndjson\n");
  }
}
