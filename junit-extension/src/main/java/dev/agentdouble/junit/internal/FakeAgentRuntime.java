package dev.agentdouble.junit.internal;

import dev.agentdouble.contract.Launch;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * How to start the fake agent from this JVM: its {@code java}, the classpath of the fake agent and
 * what it needs, found on the test classpath (nothing to install), and a class-data sharing archive
 * so each invocation starts fast.
 *
 * <p>The archive is made once per JDK and classpath and kept for the next test JVMs in the user's
 * cache ({@code $XDG_CACHE_HOME/agentdouble/cds}, else {@code ~/.cache/agentdouble/cds}: a folder
 * only its owner may read or write, as an archive holds classes the fake runs), named by a digest
 * of the {@code java}, its version and the classpath with each jar's size and time: a rebuilt jar
 * or another JDK gets an archive of its own, and the JVM itself refuses an archive whose jars
 * changed. Made in a temp file and renamed, so test JVMs started together never see half of one;
 * the oldest are deleted beyond {@value #KEPT_ARCHIVES}. Where that folder cannot be used, the
 * archive is made in the JVM's work folder, for that JVM only.
 */
public final class FakeAgentRuntime {
  /** The fake agent's main class. */
  public static final String MAIN = Launch.FAKE_MAIN;

  /** The recorder's main class (record mode). */
  public static final String RECORDER = Launch.RECORDER_MAIN;

  static final String[] CLASSES = {
    MAIN,
    RECORDER,
    "dev.agentdouble.tape.Tape",
    "com.fasterxml.jackson.core.JsonFactory",
    "com.fasterxml.jackson.databind.ObjectMapper",
    "com.fasterxml.jackson.annotation.JsonProperty"
  };

  private final Path java;
  private final String classpath;
  private final Path archive;

  private FakeAgentRuntime(Path java, String classpath, Path archive) {
    this.java = java;
    this.classpath = classpath;
    this.archive = archive;
  }

  /** How many archives the cache keeps: one per JDK and build of the jars in use, at most. */
  static final int KEPT_ARCHIVES = 8;

  /**
   * Finds the classpath; takes the CDS archive from the user's cache, or makes it there (else in
   * {@code workDir}); best effort: without one the fake only starts slower.
   */
  public static FakeAgentRuntime create(Path workDir) {
    return create(workDir, cacheFolder());
  }

  /** The user's folder of archives, when there is a home or an XDG cache. */
  static Optional<Path> cacheFolder() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    String home = System.getProperty("user.home");
    if (xdg != null && !xdg.isBlank()) {
      return Optional.of(Path.of(xdg, "agentdouble", "cds"));
    }
    if (home != null && !home.isBlank() && !home.equals("?")) {
      return Optional.of(Path.of(home, ".cache", "agentdouble", "cds"));
    }
    return Optional.empty();
  }

  /** As {@link #create(Path)}, with the cache in {@code cache} (none: {@code workDir} only). */
  static FakeAgentRuntime create(Path workDir, Optional<Path> cache) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Set<String> entries = new LinkedHashSet<>();
    ClassLoader loader = FakeAgentRuntime.class.getClassLoader();
    for (String name : CLASSES) {
      try {
        CodeSource source =
            Class.forName(name, false, loader).getProtectionDomain().getCodeSource();
        entries.add(Path.of(source.getLocation().toURI()).toString());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(
            "the fake agent needs "
                + name
                + " on the test classpath; "
                + "add the test dependency dev.agentdouble:agentdouble-junit, which brings it",
            e);
      } catch (URISyntaxException | NullPointerException e) {
        throw new IllegalStateException("cannot locate " + name + " on the test classpath", e);
      }
    }
    String classpath = String.join(File.pathSeparator, entries);
    Optional<Path> cached = cache.flatMap(c -> cachedArchive(c, java, entries));
    if (cached.isPresent()) {
      return new FakeAgentRuntime(java, classpath, cached.get());
    }
    Path archive = workDir.resolve("fake-agent.jsa");
    if (!makeArchive(java, classpath, archive)) {
      archive = null;
    }
    return new FakeAgentRuntime(java, classpath, archive);
  }

  /**
   * The archive for {@code java} and {@code entries} in the cache folder, made there first if
   * missing; empty when the folder cannot be made owner-only or the archive cannot be made.
   */
  static Optional<Path> cachedArchive(Path cache, Path java, Set<String> entries) {
    try {
      Files.createDirectories(cache);
      Path folder = cache.toRealPath();
      Path probe = Files.createTempFile(folder, ".owner", ".tmp");
      UserPrincipal me;
      try {
        me = Files.getOwner(probe);
      } finally {
        Files.deleteIfExists(probe);
      }
      if (!Files.getOwner(folder).equals(me)) {
        return Optional.empty(); // someone else's folder: never run classes from it
      }
      Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
      Path archive = folder.resolve("fake-agent-" + key(java, entries) + ".jsa");
      if (Files.isRegularFile(archive)) {
        return Optional.of(archive);
      }
      if (!makeArchive(java, String.join(File.pathSeparator, entries), archive)) {
        return Optional.empty();
      }
      prune(folder);
      return Optional.of(archive);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * A digest of what an archive depends on: the {@code java}, its version, and each classpath entry
   * with its size and time.
   */
  static String key(Path java, Set<String> entries) throws IOException {
    StringBuilder what =
        new StringBuilder(java.toString())
            .append('\n')
            .append(System.getProperty("java.vm.version"))
            .append('\n')
            .append(Launch.ARCHIVE_JVM_OPTIONS) // the kind of archive: static since 0.1.0
            .append('\n');
    for (String entry : entries) {
      Path p = Path.of(entry);
      what.append(entry).append('\t');
      if (Files.isRegularFile(p)) {
        what.append(Files.size(p)).append('\t').append(Files.getLastModifiedTime(p).toMillis());
      }
      what.append('\n');
    }
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256")
              .digest(what.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /** Deletes the oldest archives beyond {@link #KEPT_ARCHIVES}. */
  private static void prune(Path folder) throws IOException {
    List<Path> archives;
    try (Stream<Path> files = Files.list(folder)) {
      archives =
          files
              .filter(f -> f.getFileName().toString().endsWith(".jsa"))
              .sorted(
                  Comparator.comparing(
                          (Path f) -> {
                            try {
                              return Files.getLastModifiedTime(f);
                            } catch (IOException e) {
                              return FileTime.fromMillis(0);
                            }
                          })
                      .reversed())
              .toList();
    }
    for (Path old : archives.subList(Math.min(KEPT_ARCHIVES, archives.size()), archives.size())) {
      Files.deleteIfExists(old);
    }
  }

  private static boolean makeArchive(Path java, String classpath, Path archive) {
    // a temp file of this JVM's: test JVMs started together may make the same archive at once
    Path tmp =
        archive.resolveSibling(
            archive.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
    Path classList = tmp.resolveSibling(tmp.getFileName() + ".classes");
    try {
      for (List<String> command :
          Launch.archiveCommands(java.toString(), classpath, classList, tmp)) {
        Process p =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          return false;
        }
        if (p.exitValue() != 0) {
          return false;
        }
      }
      if (!Files.exists(tmp)) {
        return false;
      }
      Files.move(tmp, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      deleteQuietly(tmp);
      deleteQuietly(classList);
    }
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temp file of ours left behind: the next archive's run overwrites nothing of it
    }
  }

  public Path java() {
    return java;
  }

  public String classpath() {
    return classpath;
  }

  /** The CDS archive, when one could be made. */
  public Optional<Path> archive() {
    return Optional.ofNullable(archive);
  }
}
