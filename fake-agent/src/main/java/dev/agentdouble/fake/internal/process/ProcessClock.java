package dev.agentdouble.fake.internal.process;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

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
      stat = read("/proc/self/stat");
    }
    return stat;
  }

  /**
   * A small file of {@code /proc}, whole. Through {@link FileInputStream}, which the JVM has loaded
   * before {@code main}: {@code Files.readString} loads some forty classes of NIO's channels, a
   * millisecond and more of every run's start-up.
   */
  static String read(String file) throws IOException {
    try (FileInputStream in = new FileInputStream(file)) {
      byte[] bytes = new byte[1024];
      int length = 0;
      for (int n; (n = in.read(bytes, length, bytes.length - length)) > 0; ) {
        length += n;
        if (length == bytes.length) {
          bytes = Arrays.copyOf(bytes, length * 2);
        }
      }
      return new String(bytes, 0, length, StandardCharsets.US_ASCII);
    }
  }

  /**
   * The seconds of {@code /proc/uptime}'s first field ({@code 12345.67}) in nanoseconds, read
   * without {@code Double.parseDouble} and the classes it loads.
   */
  static long uptimeNanos(String uptime) {
    long nanos = 0;
    boolean fraction = false;
    long unit = 1_000_000_000L; // the nanoseconds of the next digit after the point
    for (int i = 0; i < uptime.length(); i++) {
      char c = uptime.charAt(i);
      if (c == '.' && !fraction) {
        fraction = true;
      } else if (c < '0' || c > '9') {
        break;
      } else if (!fraction) {
        nanos = Math.addExact(Math.multiplyExact(nanos, 10), (c - '0') * 1_000_000_000L);
      } else {
        unit /= 10;
        nanos += (c - '0') * unit;
      }
    }
    return nanos;
  }

  /** {@link System#nanoTime()} at the process start (as near as can be told). */
  public static long originNanos() {
    try {
      String stat = stat();
      String uptime = read("/proc/uptime");
      // read after the uptime: the uptime read is no later than this moment
      long now = System.nanoTime();
      // field 22 (starttime, clock ticks since boot) counted after the ')' closing the command
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long startTicks = Long.parseLong(fields[19]);
      // both readings are floored to 10 ms: take the shortest elapsed time they allow, so a frame
      // is never written before its time (at worst some 20 ms after it)
      long elapsedNanos = uptimeNanos(uptime) - (startTicks + 1) * 10_000_000L;
      if (elapsedNanos < 0 || elapsedNanos > 5_000_000_000L) {
        return now;
      }
      return now - elapsedNanos;
    } catch (IOException | RuntimeException e) {
      return System.nanoTime();
    }
  }
}
