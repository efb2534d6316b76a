package dev.agentdouble.junit.internal.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the clean-up at start deletes: in work folders of JVMs no longer alive, everything but the
 * folders kept for failed tests; nothing of a live JVM's, nor folders without an owner file. (A
 * real JVM killed outright: {@code KilledJvmTest}.)
 */
@Timeout(60)
class WorkFolderTest {
  @TempDir Path tmp;

  private Path work(String name, String owner) throws Exception {
    Path work = Files.createDirectory(tmp.resolve(WorkFolder.PREFIX + name));
    Files.createDirectories(work.resolve("passed-test/bin"));
    Files.writeString(work.resolve("passed-test/journal.ndjson"), "{}\n");
    Files.createDirectories(work.resolve("failed-test/bin"));
    WorkFolder.keep(work.resolve("failed-test"), "kept because it failed");
    Files.writeString(work.resolve("fake-agent.jsa"), "archive");
    if (owner != null) {
      Files.writeString(work.resolve(WorkFolder.OWNER), owner);
    }
    return work;
  }

  @Test
  void aDeadJvmsFolderLosesAllButItsKeptFolders() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Path work = work("dead", gone.pid() + " 1\n");

    WorkFolder.cleanStale(tmp);

    assertThat(work.resolve("failed-test/bin")).isDirectory();
    assertThat(work.resolve("failed-test/KEPT.txt")).hasContent("kept because it failed");
    assertThat(work.resolve("passed-test")).doesNotExist();
    assertThat(work.resolve("fake-agent.jsa")).doesNotExist();
    assertThat(work.resolve(WorkFolder.OWNER)).doesNotExist();
  }

  @Test
  void aDeadJvmsFolderWithNothingKeptGoesAltogether() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Path work = work("dead-clean", gone.pid() + " 1\n");
    Files.delete(work.resolve("failed-test/KEPT.txt"));

    WorkFolder.cleanStale(tmp);

    assertThat(work).doesNotExist();
  }

  @Test
  void aLiveJvmsFolderAndAFolderWithoutOwnerAreLeftAlone() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    Path live =
        work(
            "live",
            self.pid() + " " + self.info().startInstant().orElseThrow().toEpochMilli() + "\n");
    Path unknown = work("unknown", null);

    WorkFolder.cleanStale(tmp);

    assertThat(live.resolve("passed-test/journal.ndjson")).exists();
    assertThat(live.resolve("fake-agent.jsa")).exists();
    assertThat(unknown.resolve("passed-test/journal.ndjson")).exists();
  }

  @Test
  void anotherProcessUnderTheSameIdIsNotTheOwner() throws Exception {
    ProcessHandle self = ProcessHandle.current();
    long start = self.info().startInstant().orElseThrow().toEpochMilli();
    Path work = work("reused", self.pid() + " " + (start - 60_000) + "\n");

    WorkFolder.cleanStale(tmp);

    assertThat(work.resolve("passed-test")).doesNotExist();
  }

  @Test
  void emptyingAFolderDeletesAllInsideAndKeepsTheFolder() throws Exception {
    Path folder = Files.createDirectories(tmp.resolve("state/nested"));
    Files.writeString(folder.resolve("file"), "x");

    WorkFolder.empty(tmp.resolve("state"));
    WorkFolder.empty(tmp.resolve("no-such-folder"));

    assertThat(tmp.resolve("state")).isEmptyDirectory();
    assertThat(tmp.resolve("no-such-folder")).doesNotExist();
  }
}
