package dev.agentdouble.fake.internal.source;

import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.QueueFiles;
import dev.agentdouble.contract.Timing;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
    if (names == null) {
      return Optional.empty();
    }
    Arrays.sort(names);
    Path queue = dir.toPath();
    Path taken = queue.resolve(QueueFiles.TAKEN);
    for (String name : names) {
      if (!name.endsWith(QueueFiles.TAPE)) {
        continue;
      }
      String entry = name.substring(0, name.length() - QueueFiles.TAPE.length());
      Path tape = taken.resolve(name);
      try {
        Files.move(queue.resolve(name), tape, StandardCopyOption.ATOMIC_MOVE);
      } catch (NoSuchFileException e) {
        continue; // another run took it
      }
      Path journal = taken.resolve(entry + QueueFiles.INVOCATION);
      Path partial = taken.resolve(entry + QueueFiles.INVOCATION + ".tmp");
      Files.write(partial, invocation.json());
      Files.move(partial, journal, StandardCopyOption.ATOMIC_MOVE);
      List<String> meta =
          Files.readAllLines(queue.resolve(entry + QueueFiles.META), StandardCharsets.UTF_8);
      String called = meta.isEmpty() ? entry : meta.get(0);
      String timing = meta.size() > 1 ? meta.get(1) : "";
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
