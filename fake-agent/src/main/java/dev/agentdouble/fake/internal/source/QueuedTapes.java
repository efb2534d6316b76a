package dev.agentdouble.fake.internal.source;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.QueueFiles;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.files.PrivateFolder;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Takes the run's tape from the test's queue folder ({@code AGENTDOUBLE_QUEUE}, {@link QueueFiles})
 * instead of asking the control server: the first tape there, moved into {@value QueueFiles#TAKEN}
 * (of runs that race for it, one gets it), the invocation written beside it for the test's journal.
 * Nothing while the test has stubs or the queue is empty: the server decides then.
 *
 * <p>The queue is held to the rules of the replay cache ({@link PrivateFolder}): the folder and its
 * {@value QueueFiles#TAKEN} folder private (the user's, writable by no one else, under folders only
 * the user or root can change; {@value QueueFiles#TAKEN} a folder of its own, not a link), a queued
 * tape and its meta regular files of the user's that no one else can write, and no link followed
 * where the invocation is written. Anything else is refused, naming the path, as the fake's own
 * problem (exit 70): a tape of another user's is never replayed, a FIFO never opened.
 */
public final class QueuedTapes {
  private QueuedTapes() {}

  /** Whether a run would take a tape from {@code folder} now: no stubs, and a tape queued. */
  public static boolean ready(String folder) {
    File dir = new File(folder);
    return !new File(dir, QueueFiles.STUBS).exists() && first(dir.list()) != null;
  }

  /** The first queued tape, taken for {@code invocation}; empty: ask the server. */
  public static Optional<TapeSelection.Result> take(String folder, InvocationRecord invocation)
      throws IOException {
    File dir = new File(folder);
    if (new File(dir, QueueFiles.STUBS).exists()) {
      return Optional.empty();
    }
    String[] names = dir.list();
    if (names == null || first(names) == null) {
      return Optional.empty();
    }
    Arrays.sort(names);
    Optional<PrivateFolder> checked = PrivateFolder.of(dir.toPath());
    if (checked.isEmpty()) {
      return refused(
          folder,
          "not a private folder (the user's own, writable by no one else, in folders only the"
              + " user or root can change); let the JUnit extension make it, or make it with"
              + " mode 700");
    }
    PrivateFolder queue = checked.get();
    Path taken = queue.path().resolve(QueueFiles.TAKEN);
    if (queue.folder(QueueFiles.TAKEN).isEmpty()) {
      return refused(
          taken.toString(),
          "not a private folder of the queue's own (missing, a link, or a folder others can"
              + " change); remove it and let the JUnit extension make it");
    }
    for (String name : names) {
      if (!name.endsWith(QueueFiles.TAPE)) {
        continue;
      }
      String entry = name.substring(0, name.length() - QueueFiles.TAPE.length());
      Path queued = queue.path().resolve(name);
      if (!queue.isOwn(queued)) {
        if (Files.notExists(queued, LinkOption.NOFOLLOW_LINKS)) {
          continue; // another run took it
        }
        return notOwn(queued);
      }
      Path meta = queue.path().resolve(entry + QueueFiles.META);
      if (!queue.isOwn(meta)) {
        return notOwn(meta);
      }
      Path tape = taken.resolve(name);
      try {
        Files.move(queued, tape, StandardCopyOption.ATOMIC_MOVE);
      } catch (NoSuchFileException e) {
        continue; // another run took it
      }
      // the user's only, never through a link: the test reads only such files as invocations
      PrivateFolder.writeOwn(taken.resolve(entry + QueueFiles.INVOCATION), invocation.json());
      List<String> lines = Files.readAllLines(meta, StandardCharsets.UTF_8);
      String called = lines.isEmpty() ? entry : lines.get(0);
      String timing = lines.size() > 1 ? lines.get(1) : "";
      if (!timing.isEmpty() && Timing.problem(timing).isPresent()) {
        return Optional.of(
            new TapeSelection.Failed(
                "the queued tape "
                    + InvocationRecord.tapeName(called)
                    + " ("
                    + tape
                    + ") has a timing the fake cannot use: "
                    + Timing.problem(timing).get()));
      }
      return Optional.of(
          new TapeSelection.Selected(
              TapeSource.named(InvocationRecord.controlTape(called), tape),
              timing.isEmpty() ? Optional.empty() : Optional.of(Timing.parse(timing))));
    }
    return Optional.empty();
  }

  private static Optional<TapeSelection.Result> notOwn(Path file) {
    return refused(
        file.toString(),
        "not a regular file of the user's that no one else can write (a link, a FIFO, or"
            + " another user's file); take it out of the queue, and enqueue tapes through the"
            + " JUnit extension");
  }

  /** The run refused: {@code AGENTDOUBLE_QUEUE PATH: problem; fix}. */
  private static Optional<TapeSelection.Result> refused(String path, String problem) {
    return Optional.of(
        new TapeSelection.Failed(FakeEnvironment.QUEUE + " " + path + ": " + problem));
  }

  /** The first tape's name in {@code names} (a folder's listing), or null. */
  private static String first(String[] names) {
    String first = null;
    if (names != null) {
      for (String name : names) {
        if (name.endsWith(QueueFiles.TAPE) && (first == null || name.compareTo(first) < 0)) {
          first = name;
        }
      }
    }
    return first;
  }
}
