package dev.agentdouble.junit.internal.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The folder a test JVM keeps its fakes in: {@code agentdouble-*} in the system's temporary folder,
 * holding one folder per fake, the class-data sharing archive, and an {@value #OWNER} file naming
 * the JVM (its pid and start time).
 *
 * <p>{@code ModelApi}'s folders ({@code agentdouble-model-*}) are made and cleaned the same way.
 *
 * <p>The folder of a failed test is kept on purpose, marked by a {@value #KEPT} file saying why;
 * everything else goes: a passed test's folder at its end, the rest when the JVM ends normally
 * ({@link #close}). A JVM killed outright cannot clean up, so {@link #create} first cleans the
 * folders of JVMs no longer alive, kept folders excepted.
 */
public final class WorkFolder {
  static final String PREFIX = "agentdouble-";
  static final String OWNER = "owner";
  static final String KEPT = "KEPT.txt";

  private WorkFolder() {}

  /** Cleans stale folders in the temporary folder, then makes this JVM's. */
  public static Path create() throws IOException {
    return create(PREFIX);
  }

  /**
   * Cleans stale folders in the temporary folder, then makes one of this JVM's named {@code
   * prefix}{@code *} ({@code prefix} starts with {@value #PREFIX}, so that a later start cleans it
   * too if this JVM is killed): {@code ModelApi}'s {@code agentdouble-model-*}.
   */
  public static Path create(String prefix) throws IOException {
    if (!prefix.startsWith(PREFIX)) {
      throw new IllegalArgumentException("a work folder's name starts with " + PREFIX);
    }
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    cleanStale(tmp);
    Path work = Files.createTempDirectory(prefix);
    ProcessHandle self = ProcessHandle.current();
    Files.writeString(
        work.resolve(OWNER),
        self.pid() + " " + startMillis(self).orElse(0L) + "\n",
        StandardCharsets.US_ASCII);
    return work;
  }

  /**
   * Deletes, in every {@code agentdouble-*} folder of {@code tmp} whose owner is no longer alive,
   * everything but the kept folders; the folder itself when nothing is left. Folders without an
   * owner file (older versions, other tools) are left alone.
   */
  static void cleanStale(Path tmp) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(tmp, PREFIX + "*")) {
      for (Path work : entries) {
        if (Files.isDirectory(work) && !ownerAlive(work.resolve(OWNER))) {
          close(work);
        }
      }
    } catch (IOException | RuntimeException e) {
      // best effort: the temporary folder may hold anything
    }
  }

  /** Whether the JVM named by {@code owner} is alive; true when that cannot be told. */
  private static boolean ownerAlive(Path owner) {
    String text;
    try {
      text = Files.readString(owner, StandardCharsets.US_ASCII).strip();
    } catch (IOException e) {
      return true; // no owner file: not ours to clean
    }
    String[] fields = text.split(" ");
    try {
      long pid = Long.parseLong(fields[0]);
      long start = Long.parseLong(fields[1]);
      Optional<ProcessHandle> process = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
      // the same id with another start time is another process
      return process.isPresent() && startMillis(process.get()).map(s -> s == start).orElse(true);
    } catch (RuntimeException e) {
      return true;
    }
  }

  private static Optional<Long> startMillis(ProcessHandle process) {
    return process.info().startInstant().map(Instant::toEpochMilli);
  }

  /**
   * Deletes everything in {@code work} but the kept folders, the owner file last; then {@code work}
   * itself if nothing is left.
   */
  public static void close(Path work) {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(work)) {
      for (Path entry : entries) {
        if (!entry.getFileName().toString().equals(OWNER) && !Files.exists(entry.resolve(KEPT))) {
          delete(entry);
        }
      }
      Files.deleteIfExists(work.resolve(OWNER));
      Files.deleteIfExists(work);
    } catch (IOException e) {
      // not empty (kept folders) or already gone
    }
  }

  /** Keeps a failed test's folder on purpose: {@value #KEPT} in it says why. */
  public static void keep(Path dir, String why) {
    try {
      Files.writeString(dir.resolve(KEPT), why + "\n", StandardCharsets.UTF_8);
    } catch (IOException e) {
      // the folder is kept all the same; only the note is missing
    }
  }

  /** Deletes everything in {@code folder}, which stays; nothing when there is no such folder. */
  public static void empty(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(folder)) {
          Files.delete(p);
        }
      }
    }
  }

  /** Deletes {@code path} and everything under it, as far as it can. */
  public static void delete(Path path) {
    try (Stream<Path> files = Files.walk(path)) {
      files
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  // best effort: a temporary folder
                }
              });
    } catch (IOException e) {
      // already gone
    }
  }
}
