package dev.agentdouble.fake.internal.process;

import dev.agentdouble.contract.FakeEnvironment;
import java.io.FileDescriptor;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Whom a run lives for: the process that started it (its parent at start) and, when {@value #ENV}
 * names one, an owner further up (the JUnit extension names its test JVM, so a fake started by a
 * consumer's child process is still tied to the test). A run that waits — a {@code hang} ending, a
 * step gate, a long pause of its timing, stdin — is watched from then on: once either of them has
 * ended, it says so on stderr and dies by SIGHUP within {@value #PERIOD_MS} ms or so. A run that
 * does not wait starts no thread and reads nothing more.
 *
 * <p>On Linux the parent is read from {@code /proc/self/stat} (a parent that dies leaves its child
 * to init or a subreaper, which changes it) and the owner from {@code /proc/PID/stat} (gone, a
 * zombie, or another process's since its start time changed); elsewhere from {@link ProcessHandle}.
 */
public final class Owner {
  /** The environment variable naming the owner's process id. */
  public static final String ENV = FakeEnvironment.OWNER_PID;

  /** How often a waiting run looks at its parent and owner. */
  static final long PERIOD_MS = 200;

  private static boolean enabled;
  private static long owner;
  private static Thread watcher;

  private Owner() {}

  /**
   * Called by the process's own invocation: from now on its waits are watched. Runs made in process
   * (tests, the class-data sharing training) are never watched.
   */
  public static void enable() {
    enabled = true;
  }

  /** Reads {@value #ENV}; a value that is not a process id is refused. */
  public static void configure(Map<String, String> env) {
    String value = env.get(ENV);
    if (value == null || value.isBlank()) {
      return;
    }
    long pid;
    try {
      pid = Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      pid = -1;
    }
    if (pid <= 0) {
      throw new IllegalArgumentException(
          ENV + "=" + value + ": use the process id of the process the run belongs to, e.g. 4242");
    }
    owner = pid;
  }

  /** Starts watching, once; called before any wait that may last. */
  public static synchronized void watch() {
    if (!enabled || watcher != null) {
      return;
    }
    watcher = new Thread(new Watcher(ProcessClock.parentPid(), owner), "agentdouble-owner");
    watcher.setDaemon(true);
    watcher.start();
  }

  /**
   * Starts watching unless reading stdin cannot block: stdin is {@code /dev/null} or a regular file
   * (the common case of a short run, which then starts no thread).
   */
  public static void watchBeforeReadingStdin() {
    // looked at even when not enabled: the class-data sharing training then loads what it needs
    if (watcher != null) {
      return;
    }
    try {
      Path stdin = Files.readSymbolicLink(Path.of("/proc/self/fd/0"));
      if (stdin.toString().equals("/dev/null")
          || stdin.isAbsolute() && Files.isRegularFile(stdin)) {
        return;
      }
    } catch (IOException | UnsupportedOperationException e) {
      // not Linux: it may block
    }
    watch();
  }

  /** Looks at the parent and the owner every {@link #PERIOD_MS}; ends the run when one is gone. */
  private static final class Watcher implements Runnable {
    private final long parent;
    private final long owner;
    private String ownerStart;

    Watcher(long parent, long owner) {
      this.parent = parent;
      this.owner = owner;
    }

    @Override
    public void run() {
      long startParent = parent >= 0 ? parent : parentPid();
      while (true) {
        // first a pause: a short wait ends before the first look, which then costs it nothing
        try {
          Thread.sleep(PERIOD_MS);
        } catch (InterruptedException e) {
          return;
        }
        String gone = gone(startParent);
        if (gone != null) {
          end(gone);
        }
      }
    }

    /** What ended, or {@code null} while the parent and the owner are there. */
    private String gone(long startParent) {
      long now = parentPid();
      if (startParent > 0 && now >= 0 && now != startParent) {
        return "the process that started this run (" + startParent + ") has ended";
      }
      if (owner > 0 && !ownerAlive()) {
        return "the owner of this run (" + ENV + "=" + owner + ") has ended";
      }
      return null;
    }

    private boolean ownerAlive() {
      Optional<String[]> stat = stat(owner);
      if (stat == null) {
        return ProcessHandle.of(owner).map(ProcessHandle::isAlive).orElse(false);
      }
      if (stat.isEmpty()) {
        return false;
      }
      String[] fields = stat.get();
      String state = fields[0];
      String start = fields[19];
      if (ownerStart == null) {
        ownerStart = start;
      }
      // a zombie has ended; another start time is another process under a reused id
      return !state.equals("Z") && !state.equals("X") && start.equals(ownerStart);
    }

    private static void end(String reason) {
      try {
        new FileOutputStream(FileDescriptor.err)
            .write(
                ("agentdouble: " + reason + ": ending the run by SIGHUP\n")
                    .getBytes(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // no one reads stderr any more
      }
      Death.byHangup();
    }
  }

  /** The parent's id now: from {@code /proc/self/stat}, else from {@link ProcessHandle}. */
  private static long parentPid() {
    Optional<String[]> stat = stat(-1);
    if (stat != null && stat.isPresent()) {
      return Long.parseLong(stat.get()[1]);
    }
    return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
  }

  /**
   * The fields of {@code /proc/PID/stat} after the command ({@code state ppid ...}; -1: this
   * process); empty when there is no such process; {@code null} where there is no {@code /proc}.
   */
  private static Optional<String[]> stat(long pid) {
    String file = pid < 0 ? "/proc/self/stat" : "/proc/" + pid + "/stat";
    try {
      String stat = ProcessClock.read(file);
      return Optional.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
    } catch (FileNotFoundException e) {
      return Files.isDirectory(Path.of("/proc/self")) ? Optional.empty() : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
