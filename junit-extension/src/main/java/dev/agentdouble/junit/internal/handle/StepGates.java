package dev.agentdouble.junit.internal.handle;

import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.junit.internal.control.InvocationLog;
import dev.agentdouble.junit.internal.process.WorkFolder;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Stream;

/**
 * The step gates of one fake, seen from the test: the gates its tapes have, the files its runs
 * write in the gates folder as they reach one ({@link GateFiles}), and the files the test writes to
 * release them. Thread-safe.
 */
public final class StepGates {
  private final Path folder;

  /** The step gates of the tapes this fake was given, so a wait for another fails at once. */
  private final Set<String> ofTapes = ConcurrentHashMap.newKeySet();

  /** The gates of the runs that keep their marks in {@code folder}, which this makes. */
  public StepGates(Path folder) throws IOException {
    this.folder = Files.createDirectories(folder);
  }

  /** The gates folder. */
  public Path folder() {
    return folder;
  }

  /** Notes the gates of a tape given to the fake. */
  public void note(Tape tape) {
    for (Frame frame : tape.frames()) {
      if (frame instanceof Frame.Gate gate) {
        ofTapes.add(gate.name());
      }
    }
  }

  /** A condition for Awaitility: whether a run has reached {@code gate}. */
  public Callable<Boolean> reached(String gate) {
    check(gate);
    Path file = folder.resolve(GateFiles.reached(gate));
    return () -> Files.exists(file);
  }

  /** Lets runs waiting at {@code gate} (and later ones reaching it) go on. */
  public void release(String gate) {
    try {
      Path file = folder.resolve(GateFiles.release(gate));
      if (!Files.exists(file)) {
        Files.createFile(file);
      }
    } catch (FileAlreadyExistsException e) {
      // released twice: fine
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release gate " + gate, e);
    }
  }

  /**
   * Waits until a run reaches {@code gate}, at most {@code timeout}; fails saying how many
   * invocations the fake had.
   */
  public void await(String gate, Duration timeout, IntSupplier invocations) {
    check(gate);
    long deadline = System.nanoTime() + timeout.toNanos();
    Path file = folder.resolve(GateFiles.reached(gate));
    // woken by the file system as the fake writes the gate's file, not by polling
    try (WatchService watch = folder.getFileSystem().newWatchService()) {
      folder.register(watch, StandardWatchEventKinds.ENTRY_CREATE);
      while (!Files.exists(file)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError(
              "fake agent did not reach gate \""
                  + gate
                  + "\" within "
                  + InvocationLog.describe(timeout)
                  + " ("
                  + invocations.getAsInt()
                  + " invocations)");
        }
        WatchKey key = watch.poll(left, TimeUnit.NANOSECONDS);
        if (key != null) {
          key.pollEvents();
          key.reset();
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot watch the gates folder " + folder, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while waiting for gate \"" + gate + "\"", e);
    }
  }

  /**
   * Fails at once when no tape given to this fake has {@code gate}: waiting for it would only run
   * out its time.
   */
  private void check(String gate) {
    if (ofTapes.contains(gate)) {
      return;
    }
    List<String> known = new ArrayList<>(new TreeSet<>(ofTapes));
    throw new IllegalArgumentException(
        "no tape given to this fake has a gate named \""
            + gate
            + "\"; "
            + (known.isEmpty()
                ? "none of its tapes has a gate (Script.gate(NAME) adds one, a {\"t\":..,"
                    + "\"gate\":NAME} frame in a tape file)"
                : "its tapes have "
                    + String.join(", ", known.stream().map(g -> "\"" + g + "\"").toList())));
  }

  /** The runs still waiting for their stdin to end, by the markers they keep in the folder. */
  public List<Long> waitingForStdin() {
    List<Long> pids = new ArrayList<>();
    try (Stream<Path> files = Files.list(folder)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.startsWith(GateFiles.STDIN_OPEN)) {
          try {
            long pid = Long.parseLong(name.substring(GateFiles.STDIN_OPEN.length()));
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
              pids.add(pid);
            }
          } catch (NumberFormatException e) {
            // not a marker of ours
          }
        }
      }
    } catch (IOException e) {
      return List.of(); // a diagnosis only
    }
    pids.sort(null);
    return pids;
  }

  /** Forgets the tapes' gates and every file of the folder: no gate reached or released. */
  public void reset() throws IOException {
    ofTapes.clear();
    WorkFolder.empty(folder);
  }
}
