package dev.agentdouble.junit.internal.model;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import dev.agentdouble.tape.TapeReader;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Where a model API's tape comes from, and what the CLI is given to reach the API. */
public final class ModelTapes {
  /** The environment variable that points Claude Code at a Messages API. */
  public static final String BASE_URL = "ANTHROPIC_BASE_URL";

  /** The environment variable whose value Claude Code sends as {@code x-api-key}. */
  public static final String API_KEY = "ANTHROPIC_API_KEY";

  private static final String BUILTIN = "builtin:";

  private ModelTapes() {}

  /**
   * The script of the tape {@code name} names: {@code builtin:NAME}, or a file.
   *
   * @throws IllegalArgumentException {@code name: problem} when it cannot be read or served
   */
  public static ModelScript script(String name, Timing timing) {
    return ModelScript.of(name, tape(name), timing);
  }

  private static Tape tape(String name) {
    if (name.startsWith(BUILTIN)) {
      return Catalog.tape(name.substring(BUILTIN.length()));
    }
    Path file;
    try {
      file = Path.of(name);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(name + ": not a valid path (" + e.getReason() + ")");
    }
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(name + ": a folder; --tape names one tape file");
    }
    try {
      return TapeReader.read(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(name + ": no such file");
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException(name + ": permission denied");
    } catch (IOException e) {
      throw new IllegalArgumentException(name + ": cannot read: " + e.getMessage());
    } catch (TapeException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
  }
}
