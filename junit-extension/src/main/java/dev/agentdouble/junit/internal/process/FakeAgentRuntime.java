package dev.agentdouble.junit.internal.process;

import dev.agentdouble.contract.Launch;
import dev.agentdouble.files.PrivateFolder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
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
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * How to start the fake agent from this JVM: its {@code java}, the classpath of the fake agent and
 * what it needs, found on the test classpath (nothing to install), and a class-data sharing archive
 * so each invocation starts fast.
 *
 * <p>The archive is made once per JDK and classpath and kept for the next test JVMs in the user's
 * cache ({@code $XDG_CACHE_HOME/agentdouble/cds}, else {@code ~/.cache/agentdouble/cds}), named by
 * a digest of the {@code java}, its version and the classpath with each jar's size and time, and by
 * a CRC-32C of its bytes: a rebuilt jar or another JDK gets an archive of its own, and the JVM
 * itself refuses an archive whose jars changed. An archive holds classes the fake runs, and the JVM
 * maps one without checking its bytes, so one is taken from there only when the folder is a {@link
 * PrivateFolder} (the user's, writable by no one else, under folders no one else can change), the
 * archive is the user's own file, and its bytes match the CRC in its name, checked once per JVM
 * before any fake maps it; otherwise it is made again. Made in a temp file and renamed, so test
 * JVMs started together never see half of one; the oldest are deleted beyond {@value
 * #KEPT_ARCHIVES}, and nothing but archives so named. Where that folder cannot be used, the archive
 * is made in the JVM's work folder, for that JVM only, when that folder is private too.
 */
public final class FakeAgentRuntime implements AutoCloseable {
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
  private final ShimWriter shimWriter = new ShimWriter();

  private FakeAgentRuntime(Path java, String classpath, Path archive) {
    this.java = java;
    this.classpath = classpath;
    this.archive = archive;
  }

  /** How many archives the cache keeps: one per JDK and build of the jars in use, at most. */
  static final int KEPT_ARCHIVES = 8;

  /** What the name of an archive in the cache starts with. */
  private static final String PREFIX = "fake-agent-";

  /** An archive in the cache: {@code fake-agent-KEY-CRC.jsa}. */
  private static final Pattern NAMED = Pattern.compile("fake-agent-[0-9a-f]{32}-[0-9a-f]{8}\\.jsa");

  /** An archive 0.1.0 made in the cache: {@code fake-agent-KEY.jsa}. */
  private static final Pattern NAMED_0_1 = Pattern.compile("fake-agent-[0-9a-f]{32}\\.jsa");

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
    // the work folder's own, for this JVM only: made and used only where no one else can write
    Optional<Path> archive =
        PrivateFolder.of(workDir)
            .flatMap(w -> makeArchive(java, classpath, w.path(), "fake-agent", false));
    return new FakeAgentRuntime(java, classpath, archive.orElse(null));
  }

  /**
   * The archive for {@code java} and {@code entries} in the cache folder, made there first if
   * missing or not as it was made; empty when the folder is not private or the archive cannot be
   * made.
   */
  static Optional<Path> cachedArchive(Path cache, Path java, Set<String> entries) {
    Optional<PrivateFolder> made = PrivateFolder.make(cache);
    if (made.isEmpty()) {
      return Optional.empty(); // a folder someone else could write in: never run classes from it
    }
    PrivateFolder folder = made.get();
    try {
      String key = key(java, entries);
      Optional<Path> kept = verified(folder, key);
      if (kept.isPresent()) {
        return kept;
      }
      Optional<Path> archive =
          makeArchive(
              java, String.join(File.pathSeparator, entries), folder.path(), PREFIX + key, true);
      if (archive.isPresent()) {
        prune(folder.path());
      }
      return archive;
    } catch (IOException
        | UncheckedIOException
        | UnsupportedOperationException
        | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * The user's own archive of {@code key} in {@code folder} whose bytes match the CRC in its name;
   * an archive of the user's that does not is deleted.
   */
  private static Optional<Path> verified(PrivateFolder folder, String key) throws IOException {
    List<Path> candidates;
    try (Stream<Path> files = Files.list(folder.path())) {
      candidates =
          files
              .filter(f -> NAMED.matcher(f.getFileName().toString()).matches())
              .filter(f -> f.getFileName().toString().startsWith(PREFIX + key + "-"))
              .toList();
    }
    for (Path archive : candidates) {
      if (!folder.isOwn(archive)) {
        continue; // not the user's: never mapped, never touched
      }
      String name = archive.getFileName().toString();
      String crc = name.substring(name.length() - ".jsa".length() - 8, name.length() - 4);
      if (crc.equals(crc32c(archive))) {
        return Optional.of(archive);
      }
      Files.deleteIfExists(archive); // changed since it was made: made again
    }
    return Optional.empty();
  }

  /** The CRC-32C of the file's bytes, as 8 hex digits. */
  static String crc32c(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
      while (channel.read(buffer) >= 0) {
        buffer.flip();
        crc.update(buffer);
        buffer.clear();
      }
    }
    return String.format("%08x", crc.getValue());
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

  /**
   * Deletes the oldest archives beyond {@link #KEPT_ARCHIVES}: files named as this class names them
   * (those of 0.1.0 too, without a CRC), nothing else.
   */
  private static void prune(Path folder) throws IOException {
    List<Path> archives;
    try (Stream<Path> files = Files.list(folder)) {
      archives =
          files
              .filter(
                  f ->
                      NAMED.matcher(f.getFileName().toString()).matches()
                          || NAMED_0_1.matcher(f.getFileName().toString()).matches())
              .sorted(
                  Comparator.comparing(
                          (Path f) -> {
                            try {
                              return Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS);
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

  /**
   * Makes the archive in {@code folder} as {@code NAME.jsa}, or as {@code NAME-CRC.jsa} when {@code
   * withCrc}, CRC that of its bytes; empty when it cannot be made.
   */
  private static Optional<Path> makeArchive(
      Path java, String classpath, Path folder, String name, boolean withCrc) {
    // a temp file of this JVM's: test JVMs started together may make the same archive at once
    Path tmp = folder.resolve(name + ".jsa." + ProcessHandle.current().pid() + ".tmp");
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
          return Optional.empty();
        }
        if (p.exitValue() != 0) {
          return Optional.empty();
        }
      }
      if (!Files.isRegularFile(tmp, LinkOption.NOFOLLOW_LINKS)) {
        return Optional.empty();
      }
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("r--------"));
      Path archive = folder.resolve(name + (withCrc ? "-" + crc32c(tmp) : "") + ".jsa");
      Files.move(tmp, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return Optional.of(archive);
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
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

  /** What writes the fakes' shims: one child {@code sh} for this runtime's life. */
  public ShimWriter shimWriter() {
    return shimWriter;
  }

  /** Ends what the runtime started (the shim writer's {@code sh}). */
  @Override
  public void close() {
    shimWriter.close();
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
