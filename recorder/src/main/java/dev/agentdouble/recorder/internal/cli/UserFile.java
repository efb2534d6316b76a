package dev.agentdouble.recorder.internal.cli;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.files.RegularFile;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A file named on the command line. Every problem with it is told as {@code NAME: problem}, with
 * the name as the user wrote it, and thrown as a {@link CommandFailure}.
 */
public final class UserFile {
  private UserFile() {}

  /**
   * What keeps {@code name} from being read as a file, if anything is visible beforehand: missing,
   * a folder, or not a regular file ({@link RegularFile}: a FIFO would wait for a writer, a device
   * never end), which {@code give} says how to mend.
   */
  public static Optional<String> problem(String name, String give) {
    return RegularFile.problem(Path.of(name))
        .map(p -> name + ": " + p + (p.equals(RegularFile.NOT_REGULAR) ? "; " + give : ""));
  }

  /** The bytes of {@code name}, a captured output. */
  public static byte[] read(String name) {
    Optional<String> problem = problem(name, "save the output to a file and give that");
    if (problem.isPresent()) {
      throw new CommandFailure(problem.get());
    }
    try {
      return Files.readAllBytes(Path.of(name));
    } catch (IOException e) {
      throw new CommandFailure(name + ": cannot read: " + CommandFailure.reason(e, name));
    }
  }

  /** The prefix naming a built-in tape, as {@code AGENTDOUBLE_TAPE} takes it. */
  public static final String BUILTIN = "builtin:";

  /**
   * The tape in the file {@code name}, or the built-in tape {@code builtin:NAME}; a malformed tape
   * throws {@code TapeException}.
   */
  public static Tape tape(String name) {
    if (name.startsWith(BUILTIN)) {
      try {
        return Catalog.tape(name.substring(BUILTIN.length()));
      } catch (IllegalArgumentException e) {
        throw new CommandFailure(e.getMessage());
      }
    }
    Optional<String> problem = problem(name, "give a tape file");
    if (problem.isPresent()) {
      throw new CommandFailure(problem.get());
    }
    try {
      return TapeReader.read(Path.of(name));
    } catch (IOException e) {
      throw new CommandFailure(name + ": cannot read: " + CommandFailure.reason(e, name));
    }
  }

  /** Writes {@code tape} to {@code name}, atomically. */
  public static void write(Tape tape, String name) {
    try {
      tape.write(Path.of(name));
    } catch (IOException e) {
      throw new CommandFailure(name + ": cannot write the tape: " + CommandFailure.reason(e, name));
    }
  }
}
