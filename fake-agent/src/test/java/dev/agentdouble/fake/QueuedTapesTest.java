package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.QueueFiles;
import dev.agentdouble.script.Script;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code AGENTDOUBLE_QUEUE}: a run takes the test's queued tape from the folder without asking the
 * control server (docs/cli.md), which here is a port no one listens on: a run that asked it would
 * fail.
 */
@Timeout(120)
class QueuedTapesTest {
  /** No server: a run that asks gets "connection refused". */
  private static final String NOWHERE = "http://127.0.0.1:1/agentdouble/t";

  @TempDir Path dir;

  private Path queue() throws IOException {
    return Files.createDirectories(dir.resolve("queue").resolve(QueueFiles.TAKEN)).getParent();
  }

  private static void enqueue(Path queue, int n, String name, String timing, String answer)
      throws IOException {
    String entry = QueueFiles.entry(n);
    Files.writeString(queue.resolve(entry + QueueFiles.META), name + "\n" + timing + "\n");
    Script.of("hi")
        .init()
        .assistant(answer)
        .result(answer)
        .exit(0)
        .build()
        .write(queue.resolve(entry + QueueFiles.TAPE));
  }

  private Map<String, String> fake(Path queue) {
    return env(
        "AGENTDOUBLE_URL",
        NOWHERE,
        "AGENTDOUBLE_QUEUE",
        queue.toString(),
        "AGENTDOUBLE_TIMING",
        "fast",
        "AGENTDOUBLE_JOURNAL",
        dir.resolve("journal.ndjson").toString());
  }

  @Test
  void runsTakeTheQueuedTapesInOrderWithoutAskingTheServer() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "first.tape.ndjson", "", "One.");
    enqueue(queue, 2, "second", "fast", "Two.");

    FakeProcess.Result one = FakeProcess.run(fake(queue), "-p", "--trust", "hi");
    FakeProcess.Result two = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(one.err()).isEmpty();
    assertThat(one.exit()).isZero();
    assertThat(one.out()).isEqualTo("One.\n");
    assertThat(two.out()).isEqualTo("Two.\n");
    Path taken = queue.resolve(QueueFiles.TAKEN);
    assertThat(queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE)).doesNotExist();
    assertThat(taken.resolve(QueueFiles.entry(1) + QueueFiles.TAPE)).exists();
    String invocation =
        Files.readString(taken.resolve(QueueFiles.entry(2) + QueueFiles.INVOCATION));
    assertThat(invocation)
        .contains("\"argv\":[\"-p\",\"--trust\",\"hi\"]")
        .contains("\"prompt\":\"hi\"");
    assertThat(Files.readAllLines(dir.resolve("journal.ndjson")))
        .hasSize(2)
        .satisfies(
            lines -> {
              assertThat(lines.get(0))
                  .contains("\"tape\":\"AGENTDOUBLE_URL tape first.tape.ndjson\"");
              assertThat(lines.get(1)).contains("\"tape\":\"AGENTDOUBLE_URL tape second\"");
            });
  }

  /** Stubs come before the queue: with the marker there, the run asks the server. */
  @Test
  void withStubsTheRunAsksTheServer() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "queued", "", "One.");
    Files.writeString(queue.resolve(QueueFiles.STUBS), "");

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(run.exit()).isEqualTo(70);
    assertThat(run.err()).contains("cannot reach the control server at " + NOWHERE);
    assertThat(queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE)).exists();
  }

  /** An empty queue is the server's to answer: it says why nothing does. */
  @Test
  void anEmptyQueueAsksTheServer() throws Exception {
    FakeProcess.Result run = FakeProcess.run(fake(queue()), "-p", "--trust", "hi");

    assertThat(run.exit()).isEqualTo(70);
    assertThat(run.err()).contains("cannot reach the control server at " + NOWHERE);
  }

  /** A timing the fake cannot use fails the run, naming the tape; nothing on stdout. */
  @Test
  void aQueuedTimingTheFakeCannotUseFailsTheRun() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "slow", "scale:-1", "One.");

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(run.exit()).isEqualTo(70);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).startsWith("agentdouble: the queued tape slow (").contains("timing");
  }

  /**
   * An unnamed tape of the JUnit extension is called "tape #1": an error says "AGENTDOUBLE_URL tape
   * #1", not "AGENTDOUBLE_URL tape tape #1".
   */
  @Test
  void aTapeCalledTapeNumberOneIsNamedWithTapeOnce() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "tape #1", "", "One.");
    Files.writeString(
        queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE),
        "{\"note\":\"x\"}\n",
        StandardOpenOption.APPEND);

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(run.err().lines())
        .containsExactly(
            "agentdouble: AGENTDOUBLE_URL tape #1:6: frame after the terminal \"exit\" frame"
                + " (line 5)");
  }

  /** The same name in the error about its timing: "the queued tape #1". */
  @Test
  void aQueuedTimingErrorNamesTapeNumberOneWithTapeOnce() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "tape #1", "scale:-1", "One.");

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(run.err().lines())
        .containsExactly(
            "agentdouble: the queued tape #1 ("
                + queue.resolve(QueueFiles.TAKEN).resolve(QueueFiles.entry(1) + QueueFiles.TAPE)
                + ") has a timing the fake cannot use: scale needs a factor >= 0, e.g. scale:0.5");
  }

  /** Runs that race for one tape: one takes it, the others ask the server. */
  @Test
  void ofRunsRacingForOneTapeOneTakesIt() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "only", "", "One.");
    ExecutorService runs = Executors.newFixedThreadPool(4);
    try {
      List<Future<FakeProcess.Result>> results = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        results.add(runs.submit(() -> FakeProcess.run(fake(queue), "-p", "--trust", "hi")));
      }
      int took = 0;
      for (Future<FakeProcess.Result> r : results) {
        FakeProcess.Result run = r.get(60, TimeUnit.SECONDS);
        if (run.exit() == 0) {
          took++;
          assertThat(run.out()).isEqualTo("One.\n");
        } else {
          assertThat(run.err()).contains("cannot reach the control server");
        }
      }
      assertThat(took).isEqualTo(1);
      try (var taken = Files.list(queue.resolve(QueueFiles.TAKEN))) {
        assertThat(taken.map(p -> p.getFileName().toString()).sorted().toList())
            .containsExactly(
                QueueFiles.entry(1) + QueueFiles.INVOCATION, QueueFiles.entry(1) + QueueFiles.TAPE);
      }
    } finally {
      runs.shutdownNow();
    }
  }

  /** The one line a run refused by the queue's rules writes, exit 70: the path, why, the fix. */
  private static void assertRefused(FakeProcess.Result run, Path path, String problem) {
    assertThat(run.exit()).isEqualTo(70);
    assertThat(run.out()).isEmpty();
    assertThat(run.err())
        .startsWith("agentdouble: AGENTDOUBLE_QUEUE " + path + ": " + problem)
        .contains("; ")
        .hasLineCount(1);
  }

  @Test
  void aLinkLeftInTakenIsNeverWrittenThrough() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "first", "", "One.");
    Path mine = Files.writeString(dir.resolve("mine.txt"), "the user's own\n");
    Path taken = queue.resolve(QueueFiles.TAKEN);
    Files.createSymbolicLink(
        taken.resolve(QueueFiles.entry(1) + QueueFiles.INVOCATION + ".tmp"), mine);
    Files.createSymbolicLink(taken.resolve(QueueFiles.entry(1) + QueueFiles.INVOCATION), mine);

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).isEqualTo("One.\n");
    assertThat(mine).hasContent("the user's own");
    Path invocation = taken.resolve(QueueFiles.entry(1) + QueueFiles.INVOCATION);
    assertThat(Files.isSymbolicLink(invocation)).isFalse();
    assertThat(Files.readString(invocation)).contains("\"prompt\":\"hi\"");
  }

  @Test
  void theInvocationIsWrittenTheUsersOnlyWhateverTheUmask() throws Exception {
    // the JUnit extension reads as invocations only files no one else can write
    Path queue = queue();
    enqueue(queue, 1, "first", "", "One.");

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertThat(run.exit()).as(run.err()).isZero();
    Path invocation =
        queue.resolve(QueueFiles.TAKEN).resolve(QueueFiles.entry(1) + QueueFiles.INVOCATION);
    assertThat(Files.getPosixFilePermissions(invocation))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void aTakenFolderThatIsALinkIsRefused() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "first", "", "One.");
    Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
    Path taken = queue.resolve(QueueFiles.TAKEN);
    Files.delete(taken);
    Files.createSymbolicLink(taken, elsewhere);

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertRefused(run, queue.toRealPath().resolve(QueueFiles.TAKEN), "not a private");
    try (var files = Files.list(elsewhere)) {
      assertThat(files).isEmpty();
    }
    assertThat(queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE)).exists();
  }

  @Test
  void aQueueFolderOthersCanWriteIsRefused() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "first", "", "One.");
    Files.setPosixFilePermissions(queue, PosixFilePermissions.fromString("rwxrwxrwx"));

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertRefused(run, queue, "not a private folder");
    assertThat(queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE)).exists();
  }

  @Test
  void anotherUsersQueuedTapeIsNeverReplayed() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "first", "", "One.");
    Path tape = queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE);
    Files.setAttribute(tape, "unix:uid", 65534); // the tests run as root: nobody's now

    FakeProcess.Result run = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertRefused(run, tape.toRealPath(), "not a regular file of the user's");
    assertThat(tape).exists();
  }

  @Test
  void aQueuedFifoOrALinkToOneIsRefusedAtOnce() throws Exception {
    Path queue = queue();
    enqueue(queue, 1, "first", "", "One.");
    Path tape = queue.resolve(QueueFiles.entry(1) + QueueFiles.TAPE);
    Files.delete(tape);
    Path fifo = dir.resolve("fifo");
    Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertThat(mkfifo.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(mkfifo.exitValue()).isZero();
    Files.createSymbolicLink(tape, fifo);

    FakeProcess.Result linked = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertRefused(linked, queue.toRealPath().resolve(tape.getFileName()), "not a");
    Files.delete(tape);
    Files.move(fifo, tape);

    FakeProcess.Result fifoItself = FakeProcess.run(fake(queue), "-p", "--trust", "hi");

    assertRefused(fifoItself, tape.toRealPath(), "not a regular file of the user's");
  }
}
