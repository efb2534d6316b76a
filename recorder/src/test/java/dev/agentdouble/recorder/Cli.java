package dev.agentdouble.recorder;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the {@code agentdouble} command in-process with captured streams. {@link #run} goes through
 * the public {@link AgentDoubleCommand#run}; {@link #runInstalled} gives the commands that start
 * the fake agent (demo, replay) this project as their installation, without touching system
 * properties.
 */
final class Cli {
  private Cli() {}

  /** What one command did. */
  record Result(int exit, byte[] stdout, String err) {
    String out() {
      return new String(stdout, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
      return "exit " + exit + "\n--- stdout\n" + out() + "--- stderr\n" + err;
    }
  }

  /** {@code agentdouble ARGS} through {@link AgentDoubleCommand#run}. */
  static Result run(String... args) {
    Streams s = new Streams();
    int exit = AgentDoubleCommand.run(s.in, s.out, s.err, args);
    return s.result(exit);
  }

  /** {@code agentdouble ARGS} of the installation in {@link #root()}. */
  static Result runInstalled(String... args) {
    Streams s = new Streams();
    int exit = AgentDoubleCommand.installedAt(root()).run(s.in, s.out, s.err, args);
    return s.result(exit);
  }

  private static final class Streams {
    final ByteArrayInputStream in = new ByteArrayInputStream(new byte[0]);
    final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    final PrintStream out = new PrintStream(outBytes, true, StandardCharsets.UTF_8);
    final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    Result result(int exit) {
      out.flush();
      err.flush();
      return new Result(exit, outBytes.toByteArray(), errBytes.toString(StandardCharsets.UTF_8));
    }
  }

  /** The project's root folder (failsafe passes it as {@code agentdouble.root}). */
  static Path root() {
    return Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();
  }

  /** The shared folder beside the project ({@code agentdouble.shared}). */
  static Path shared() {
    return Path.of(System.getProperty("agentdouble.shared", root().resolve("../shared").toString()))
        .toAbsolutePath()
        .normalize();
  }

  static Path write(Path dir, String name, String text) {
    return write(dir, name, text.getBytes(StandardCharsets.UTF_8));
  }

  static Path write(Path dir, String name, byte[] bytes) {
    try {
      Path file = dir.resolve(name);
      Files.write(file, bytes);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
