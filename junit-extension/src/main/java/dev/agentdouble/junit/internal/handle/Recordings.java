package dev.agentdouble.junit.internal.handle;

import dev.agentdouble.tape.TapeReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Record mode ({@code @AgentTape}): the runs the recorder wrote into a fake's folder, kept as the
 * test's tapes when it passes.
 */
public final class Recordings {
  private final Path folder;
  private final Path target;

  /** The runs recorded into {@code folder}, to be kept as {@code target} (and its siblings). */
  public Recordings(Path folder, Path target) {
    this.folder = folder;
    this.target = target;
  }

  /** The files a recorded test's runs are kept in, first run first. */
  public static List<Path> files(Path target, int count) {
    List<Path> files = new ArrayList<>();
    String name = target.getFileName().toString();
    String stem = name.endsWith(".tape.ndjson") ? name.substring(0, name.length() - 12) : name;
    for (int i = 1; i <= count; i++) {
      files.add(i == 1 ? target : target.resolveSibling(stem + "." + i + ".tape.ndjson"));
    }
    return files;
  }

  public void keep(boolean passed, List<String> notes, List<String> problems) {
    List<Path> recorded = new ArrayList<>();
    try (var files = Files.list(folder)) {
      files
          .filter(p -> p.getFileName().toString().endsWith(".tape.ndjson"))
          .sorted()
          .forEach(recorded::add);
    } catch (IOException e) {
      problems.add("cannot read the recordings in " + folder + ": " + e);
      return;
    }
    if (!passed) {
      notes.add("the test failed: its " + recorded.size() + " recorded run(s) were not kept");
      return;
    }
    if (recorded.isEmpty()) {
      problems.add(
          "record mode: the test never ran the agent, so there is nothing to keep as " + target);
      return;
    }
    List<Path> targets = files(target, recorded.size());
    try {
      Files.createDirectories(target.toAbsolutePath().getParent());
      for (int i = 0; i < recorded.size(); i++) {
        TapeReader.read(recorded.get(i)).write(targets.get(i));
      }
      notes.add("recorded " + recorded.size() + " run(s) into " + target);
    } catch (IOException e) {
      problems.add("cannot keep the recording as " + target + ": " + e.getMessage());
    }
  }
}
