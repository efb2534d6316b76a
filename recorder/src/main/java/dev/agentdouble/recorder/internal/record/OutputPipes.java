package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.files.TempOwner;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The pipes a recorded command writes its stdout and stderr to: named pipes whose read ends belong
 * to the recorder alone, so they stay open until every process holding a write end (the command,
 * and whatever it started that inherited them) has closed it. The pipes the JVM makes for a {@link
 * Process} would not do: the JVM closes their read ends as soon as the command exits, and what a
 * process it started writes after that is lost, and kills that process (SIGPIPE).
 *
 * <p>The pipes are made in a folder of their own ({@code .agentdouble-PID-START-N.pipes}, owner
 * only) and unlinked as soon as the command has its write ends; a recorder killed in between leaves
 * the folder to the next one ({@link TempOwner#removeStale}).
 */
final class OutputPipes implements AutoCloseable {
  private final Path folder;
  private final Path stdoutPath;
  private final Path stderrPath;
  private final FileChannel stdout;
  private final FileChannel stderr;

  /** Write ends held open while the command starts, so opening the read ends does not block. */
  private final List<RandomAccessFile> held;

  private OutputPipes(
      Path folder, FileChannel stdout, FileChannel stderr, List<RandomAccessFile> held) {
    this.folder = folder;
    this.stdoutPath = folder.resolve("stdout");
    this.stderrPath = folder.resolve("stderr");
    this.stdout = stdout;
    this.stderr = stderr;
    this.held = held;
  }

  /** Makes the two pipes in {@code dir} and opens their read ends. */
  static OutputPipes open(Path dir) throws IOException {
    Path folder = dir.resolve("." + TempOwner.current().tag() + ".pipes");
    Files.createDirectory(
        folder, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    List<RandomAccessFile> held = new ArrayList<>();
    List<FileChannel> opened = new ArrayList<>();
    try {
      mkfifo(folder.resolve("stdout"), folder.resolve("stderr"));
      for (String name : List.of("stdout", "stderr")) {
        Path fifo = folder.resolve(name);
        // a read-write open of a named pipe does not wait for a writer (Linux, the BSDs, macOS);
        // with it held, neither does the read-only open, nor later the command's write-only one
        held.add(new RandomAccessFile(fifo.toFile(), "rw"));
        opened.add(FileChannel.open(fifo, StandardOpenOption.READ));
      }
      return new OutputPipes(folder, opened.get(0), opened.get(1), held);
    } catch (IOException | RuntimeException e) {
      for (FileChannel c : opened) {
        c.close();
      }
      for (RandomAccessFile f : held) {
        f.close();
      }
      delete(folder);
      throw e;
    }
  }

  private static void mkfifo(Path... fifos) throws IOException {
    List<String> command = new ArrayList<>(List.of("mkfifo", "-m", "600"));
    for (Path fifo : fifos) {
      command.add(fifo.toString());
    }
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .start();
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("mkfifo did not answer within 30 s");
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while making named pipes");
    }
    String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (p.exitValue() != 0) {
      throw new IOException("mkfifo failed" + (said.isEmpty() ? "" : ": " + said));
    }
  }

  /** Where the command's stdout goes. */
  File stdoutFile() {
    return stdoutPath.toFile();
  }

  /** Where the command's stderr goes. */
  File stderrFile() {
    return stderrPath.toFile();
  }

  /** The read end of the command's stdout. */
  FileChannel stdout() {
    return stdout;
  }

  /** The read end of the command's stderr. */
  FileChannel stderr() {
    return stderr;
  }

  /**
   * The command has been started (or failed to be): its write ends are its own now. Lets go of the
   * recorder's write ends, so the read ends see the end of the output when the command's processes
   * have closed theirs, and unlinks the pipes.
   */
  void started() throws IOException {
    IOException failure = null;
    for (RandomAccessFile f : held) {
      try {
        f.close();
      } catch (IOException e) {
        failure = e;
      }
    }
    held.clear();
    delete(folder);
    if (failure != null) {
      throw failure;
    }
  }

  /** Stops reading: the read ends are closed, and a reader blocked on one returns. */
  @Override
  public void close() throws IOException {
    try {
      started();
    } finally {
      try {
        stdout.close();
      } finally {
        stderr.close();
      }
    }
  }

  private static void delete(Path folder) {
    for (Path p : new Path[] {folder.resolve("stdout"), folder.resolve("stderr"), folder}) {
      try {
        Files.deleteIfExists(p);
      } catch (IOException e) {
        // left to the next recorder (TempOwner.removeStale)
      }
    }
  }
}
