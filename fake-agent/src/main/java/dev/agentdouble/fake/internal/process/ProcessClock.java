package dev.agentdouble.fake.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a tape's {@code t = 0} lies: the moment the process started, so JVM start-up counts as the
 * time the real CLI also takes before its first event. Read from {@code /proc} (10 ms resolution);
 * elsewhere, the moment {@code main} began.
 */
public final class ProcessClock {
  private static long pid = -1;
  private static String stat;

  private ProcessClock() {}

  /**
   * This process's id, read from {@code /proc/self/stat} where there is one: {@link
   * ProcessHandle#current()} would start a thread pool, a cost paid by every invocation.
   */
  public static long pid() {
    if (pid < 0) {
      try {
        pid = Long.parseLong(stat().substring(0, stat().indexOf(' ')));
      } catch (IOException | RuntimeException e) {
        pid = ProcessHandle.current().pid();
      }
    }
    return pid;
  }

  /**
   * The parent's id as it was when this process read its {@code /proc/self/stat} at start; -1 where
   * there is none.
   */
  static long parentPid() {
    try {
      String stat = stat();
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 3);
      return Long.parseLong(fields[1]);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static String stat() throws IOException {
    if (stat == null) {
      stat = Files.readString(Path.of("/proc/self/stat"), StandardCharsets.US_ASCII);
    }
    return stat;
  }

  /** {@link System#nanoTime()} at the process start (as near as can be told). */
  public static long originNanos() {
    try {
      String stat = stat();
      String uptime = Files.readString(Path.of("/proc/uptime"), StandardCharsets.US_ASCII);
      // read after the uptime: the uptime read is no later than this moment
      long now = System.nanoTime();
      // field 22 (starttime, clock ticks since boot) counted after the ')' closing the command
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long startTicks = Long.parseLong(fields[19]);
      double upSeconds = Double.parseDouble(uptime.substring(0, uptime.indexOf(' ')));
      // both readings are floored to 10 ms: take the shortest elapsed time they allow, so a frame
      // is never written before its time (at worst some 20 ms after it)
      long elapsedNanos = (long) (upSeconds * 1e9) - (startTicks + 1) * 10_000_000L;
      if (elapsedNanos < 0 || elapsedNanos > 5_000_000_000L) {
        return now;
      }
      return now - elapsedNanos;
    } catch (IOException | RuntimeException e) {
      return System.nanoTime();
    }
  }
}
