package dev.agentdouble.junit.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.agentdouble.files.PrivateFolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fake's class-data sharing archive is made once per JDK and classpath, in an owner-only cache
 * folder, and taken from there by the next test JVMs, so their first test does not pay for it; only
 * from a folder no one else can write, and only as it was made. Another user is played by a file's
 * owner, nobody, which takes root to set (those tests are skipped without).
 */
@Timeout(300)
class FakeAgentRuntimeTest {
  private static final int OTHER = 65534;

  @TempDir Path dir;

  /**
   * A {@code java} that makes an archive of a few bytes at once: what the archive holds does not
   * matter to where it is kept and when it is believed.
   */
  private Path quickJava() throws IOException {
    Path java = Files.createDirectories(dir.resolve("jdk/bin")).resolve("java");
    Files.writeString(
        java,
        "#!/bin/sh\nfor a in \"$@\"; do case $a in -XX:SharedArchiveFile=*)"
            + " printf archive > \"${a#*=}\" ;; esac; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
    return java;
  }

  /** A classpath of one jar, written once: a jar written again is another archive. */
  private Set<String> jars() throws IOException {
    Path jar = dir.resolve("a.jar");
    if (!Files.exists(jar)) {
      Files.writeString(jar, "jar");
    }
    return Set.of(jar.toString());
  }

  private static String mode(Path p) throws IOException {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  @Test
  void theArchiveIsMadeOnceInTheCacheAndTakenFromThereByTheNextJvm() throws IOException {
    Path cache = dir.resolve("cache");
    Path work1 = Files.createDirectories(dir.resolve("work1"));
    Path work2 = Files.createDirectories(dir.resolve("work2"));

    FakeAgentRuntime first = FakeAgentRuntime.create(work1, Optional.of(cache));
    assertThat(first.archive()).as("an archive was made").isPresent();
    Path archive = first.archive().get();
    FileTime made = Files.getLastModifiedTime(archive);
    FakeAgentRuntime second = FakeAgentRuntime.create(work2, Optional.of(cache));

    assertThat(archive.getParent()).isEqualTo(cache.toRealPath());
    assertThat(second.archive()).contains(archive);
    assertThat(Files.getLastModifiedTime(archive)).as("not made again").isEqualTo(made);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache)))
        .isEqualTo("rwx------");
    assertThat(work1).isEmptyDirectory();
    try (var files = Files.list(cache)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .as("no temp file left")
          .allMatch(name -> name.endsWith(".jsa"));
    }
  }

  @Test
  void withoutAUsableCacheTheArchiveIsTheJvmsOwn() throws IOException {
    Path notAFolder = Files.writeString(dir.resolve("cache"), "a file, not a folder");
    Path work = Files.createDirectories(dir.resolve("work"));

    FakeAgentRuntime runtime = FakeAgentRuntime.create(work, Optional.of(notAFolder));

    assertThat(runtime.archive()).contains(work.resolve("fake-agent.jsa"));
  }

  @Test
  void aRebuiltJarOrAnotherJavaIsAnotherArchive() throws IOException {
    Path jar = Files.writeString(dir.resolve("a.jar"), "jar");
    Set<String> entries = new LinkedHashSet<>(List.of(jar.toString()));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");

    String before = FakeAgentRuntime.key(java, entries);
    Files.setLastModifiedTime(jar, FileTime.fromMillis(0));
    String rebuilt = FakeAgentRuntime.key(java, entries);
    String otherJava = FakeAgentRuntime.key(Path.of("/opt/other/bin/java"), entries);

    assertThat(before).hasSize(32).isNotEqualTo(rebuilt).isNotEqualTo(otherJava);
    assertThat(FakeAgentRuntime.key(java, entries)).isEqualTo(rebuilt);
  }

  @Test
  void aCacheFolderOthersCanWriteOrUnderOneIsLeftAsItIsAndNotUsed() throws IOException {
    Path java = quickJava();
    Path cache = Files.createDirectories(dir.resolve("cache"));
    Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path open = Files.createDirectories(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

    assertThat(FakeAgentRuntime.cachedArchive(cache, java, jars())).isEmpty();
    assertThat(FakeAgentRuntime.cachedArchive(open.resolve("cds"), java, jars())).isEmpty();
    assertThat(mode(cache)).isEqualTo("rwxrwxrwx");
    assertThat(cache).isEmptyDirectory();
  }

  @Test
  void anArchiveChangedSinceItWasMadeIsNotUsedButMadeAgain() throws IOException {
    Path java = quickJava();
    Path cache = dir.resolve("cache");
    Path archive = FakeAgentRuntime.cachedArchive(cache, java, jars()).orElseThrow();
    byte[] made = Files.readAllBytes(archive);
    byte[] flipped = made.clone();
    flipped[3] ^= 0x10; // one bit: the JVM would map it as it is
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("rw-------"));
    Files.write(archive, flipped);
    Files.setPosixFilePermissions(archive, PosixFilePermissions.fromString("r--------"));

    Path again = FakeAgentRuntime.cachedArchive(cache, java, jars()).orElseThrow();

    assertThat(Files.readAllBytes(again)).isEqualTo(made);
    assertThat(again.getFileName().toString())
        .as("named by its bytes' CRC")
        .endsWith("-" + FakeAgentRuntime.crc32c(again) + ".jsa");
  }

  @Test
  void aCacheUnderAFolderOfAnotherUserIsNotUsed() throws IOException {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    Path theirs = Files.createDirectories(dir.resolve("theirs"));
    Files.setAttribute(theirs, "unix:uid", OTHER);

    assertThat(FakeAgentRuntime.cachedArchive(theirs.resolve("cds"), quickJava(), jars()))
        .isEmpty();
  }

  @Test
  void anArchiveOfAnotherUserIsNotUsedButMadeAgain() throws IOException {
    assumeThat(PrivateFolder.user()).as("chown takes root").hasValue(0);
    Path java = quickJava();
    Path cache = dir.resolve("cache");
    Path archive = FakeAgentRuntime.cachedArchive(cache, java, jars()).orElseThrow();
    Files.setAttribute(archive, "unix:uid", OTHER); // root's doing: no one else can write there

    Path again = FakeAgentRuntime.cachedArchive(cache, java, jars()).orElseThrow();

    assertThat(Files.getAttribute(again, "unix:uid")).as("made again").isEqualTo(0);
  }

  @Test
  void withoutAPrivateWorkFolderThereIsNoArchive() throws IOException {
    Path work = Files.createDirectories(dir.resolve("work"));
    Files.setPosixFilePermissions(work, PosixFilePermissions.fromString("rwxrwxrwx"));

    FakeAgentRuntime runtime = FakeAgentRuntime.create(work, Optional.empty());

    assertThat(runtime.archive()).isEmpty();
    assertThat(work).isEmptyDirectory();
  }
}
