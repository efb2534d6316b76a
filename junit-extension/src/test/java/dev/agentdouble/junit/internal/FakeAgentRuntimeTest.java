package dev.agentdouble.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;

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
 * folder, and taken from there by the next test JVMs, so their first test does not pay for it.
 */
@Timeout(300)
class FakeAgentRuntimeTest {
  @TempDir Path dir;

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
}
