package dev.agentdouble.fake.internal.run;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.fake.internal.process.Owner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * Step gates, through a folder the test owns ({@code AGENTDOUBLE_GATES}): at a gate the fake writes
 * {@code NAME.reached} and waits, writing nothing, until {@code NAME.release} appears. A gate not
 * released within the timeout ({@code AGENTDOUBLE_GATE_TIMEOUT_MS}, 30 s by default) ends the run
 * with exit 70, so a forgotten release never hangs a suite.
 */
public final class Gates {
  static final long DEFAULT_TIMEOUT_MS = GateFiles.DEFAULT_TIMEOUT_MS;

  private final Path dir;
  private final long timeoutMs;

  private Gates(Path dir, long timeoutMs) {
    this.dir = dir;
    this.timeoutMs = timeoutMs;
  }

  /**
   * Gates as the environment configures them, with {@code timeoutMs} ({@code
   * AGENTDOUBLE_GATE_TIMEOUT_MS}, checked by {@link FakeEnvironment}); {@code null} when gates pass
   * straight through.
   */
  public static Gates fromEnv(Map<String, String> env, long timeoutMs) {
    String dir = env.get(FakeEnvironment.GATES);
    if (dir == null || dir.isBlank()) {
      return null;
    }
    return new Gates(Path.of(dir), timeoutMs);
  }

  /**
   * Marks, in the gates folder of {@code env} if there is one, that the run {@code pid} waits for
   * its stdin to end; the returned file is to be deleted once it has. Best effort: a marker that
   * cannot be written only costs a diagnosis.
   */
  public static Path markStdinOpen(Map<String, String> env, long pid) {
    String dir = env.get(FakeEnvironment.GATES);
    if (dir == null || dir.isBlank()) {
      return null;
    }
    try {
      return Files.write(Path.of(dir, GateFiles.stdinOpen(pid)), new byte[0]);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Deletes a marker of {@link #markStdinOpen}, if any. */
  public static void stdinEnded(Path marker) {
    if (marker != null) {
      try {
        Files.deleteIfExists(marker);
      } catch (IOException e) {
        // best effort
      }
    }
  }

  /** Thrown when a gate is not released in time. */
  public static final class NotReleased extends Exception {
    private static final long serialVersionUID = 1L;

    NotReleased(String message) {
      super(message);
    }
  }

  /** Announces that the run reached {@code name} and waits for its release. */
  public void pass(String name, long pid) throws IOException, NotReleased {
    Path reached = dir.resolve(GateFiles.reached(name));
    Path tmp = dir.resolve("." + GateFiles.reached(name) + "." + pid);
    try {
      Files.writeString(tmp, GateFiles.mark(pid), StandardCharsets.US_ASCII);
      Files.move(tmp, reached, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new NotReleased(
          FakeEnvironment.GATES
              + "="
              + dir
              + ": cannot mark gate \""
              + name
              + "\" as reached ("
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage()
              + "); the folder must exist and be writable");
    }
    Path release = dir.resolve(GateFiles.release(name));
    Owner.watch();
    long start = System.nanoTime();
    while (!Files.exists(release)) {
      // counted in milliseconds from the start: a timeout near the long range cannot wrap round
      if ((System.nanoTime() - start) / 1_000_000L > timeoutMs) {
        throw new NotReleased(
            "gate \""
                + name
                + "\" was not released within "
                + timeoutMs
                + " ms ("
                + FakeEnvironment.GATE_TIMEOUT_MS
                + "); the test must release it");
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NotReleased("interrupted at gate \"" + name + "\"");
      }
    }
  }
}
