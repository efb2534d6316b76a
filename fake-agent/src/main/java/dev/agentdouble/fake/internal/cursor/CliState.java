package dev.agentdouble.fake.internal.cursor;

import dev.agentdouble.contract.FakeEnvironment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * What the real CLI keeps between runs on a machine, kept by the fake in a folder of its own
 * ({@code AGENTDOUBLE_STATE_DIR}), never in the user's Cursor configuration: the workspaces trusted
 * with {@code --trust}, and the session ids taken with {@code --new-session-id}. Without the folder
 * nothing persists: each run starts as on a fresh machine.
 *
 * <p>Each is a text file of one entry per line, appended with one write, so concurrent runs never
 * interleave within a line.
 */
final class CliState {
  /** The environment variable naming the folder. */
  static final String ENV = FakeEnvironment.STATE_DIR;

  static final String TRUSTED = "trusted-workspaces";
  static final String SESSIONS = "session-ids";

  private final Optional<Path> dir;

  private CliState(Optional<Path> dir) {
    this.dir = dir;
  }

  /** The state named by {@code value} (the variable's value; empty or null: none). */
  static CliState of(String value) {
    return new CliState(
        value == null || value.isBlank() ? Optional.empty() : Optional.of(Path.of(value)));
  }

  /** Whether the workspace at this physical path was trusted by an earlier run. */
  boolean trusted(String workspace) throws IOException {
    return contains(TRUSTED, workspace);
  }

  /** Remembers that the workspace at this physical path is trusted. */
  void trust(String workspace) throws IOException {
    if (!trusted(workspace)) {
      append(TRUSTED, workspace);
    }
  }

  /** Whether a run already created a session with this id. */
  boolean sessionTaken(String id) throws IOException {
    return contains(SESSIONS, id);
  }

  /** Remembers that a session was created with this id. */
  void takeSession(String id) throws IOException {
    append(SESSIONS, id);
  }

  private boolean contains(String file, String entry) throws IOException {
    if (dir.isEmpty()) {
      return false;
    }
    String text;
    try {
      text = Files.readString(dir.get().resolve(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return false;
    }
    for (String line : text.split("\n")) {
      if (line.equals(entry)) {
        return true;
      }
    }
    return false;
  }

  private void append(String file, String entry) throws IOException {
    if (dir.isEmpty() || entry.indexOf('\n') >= 0) {
      return;
    }
    Files.createDirectories(dir.get());
    try (FileChannel out =
        FileChannel.open(
            dir.get().resolve(file),
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
      out.write(ByteBuffer.wrap((entry + "\n").getBytes(StandardCharsets.UTF_8)));
    }
  }
}
