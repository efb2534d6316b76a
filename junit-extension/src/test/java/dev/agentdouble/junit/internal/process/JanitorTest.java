package dev.agentdouble.junit.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class JanitorTest {
  @TempDir Path dir;

  private Path fakeFolder(String name) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(name));
    Files.createDirectories(folder.resolve("bin"));
    Files.createDirectories(folder.resolve("gates"));
    Files.writeString(folder.resolve("bin/cursor-agent"), "#!/bin/sh\n");
    Files.writeString(folder.resolve("journal.ndjson"), "{}\n");
    return folder;
  }

  /** A folder handed over is deleted on the janitor's own thread, soon. */
  @Test
  void aFolderHandedOverIsDeletedSoon() throws Exception {
    try (Janitor janitor = new Janitor()) {
      Path folder = fakeFolder("one");

      janitor.delete(folder);

      await().atMost(Duration.ofSeconds(30)).until(() -> !Files.exists(folder));
    }
  }

  /** Closing deletes everything still queued: a run leaves nothing behind. */
  @Test
  void closingDeletesWhatIsStillQueued() throws Exception {
    List<Path> folders = new ArrayList<>();
    Janitor janitor = new Janitor();
    for (int i = 0; i < 50; i++) {
      Path folder = fakeFolder("f" + i);
      folders.add(folder);
      janitor.delete(folder);
    }

    janitor.close();

    assertThat(folders).allSatisfy(f -> assertThat(f).doesNotExist());
  }

  /** A folder handed over after the end is deleted at once, not forgotten. */
  @Test
  void aFolderHandedOverAfterTheEndIsDeletedAtOnce() throws Exception {
    Janitor janitor = new Janitor();
    janitor.close();
    Path folder = fakeFolder("late");

    janitor.delete(folder);

    assertThat(folder).doesNotExist();
  }
}
