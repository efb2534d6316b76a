package dev.agentdouble.junit.internal.serve;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./agentdouble} as a user starts it, in a folder of the test's, with a stand-in {@code mvn}
 * that fails first on PATH: a launcher that finds the build stale fails the test instead of
 * building. Runs after {@code package} (the launcher needs {@code
 * junit-extension/target/classpath.txt}).
 */
final class Launcher {
  private final Path dir;
  private final Path bin;

  private Launcher(Path dir, Path bin) {
    this.dir = dir;
    this.bin = bin;
  }

  /** A launcher working in {@code dir}, with its stand-in {@code mvn} in {@code dir/bin}. */
  static Launcher in(Path dir) throws IOException {
    Path bin = Files.createDirectory(dir.resolve("bin"));
    Path mvn = bin.resolve("mvn");
    Files.writeString(
        mvn,
        "#!/bin/sh\necho 'stale build: the launcher tried to build during a "
            + "test' >&2\nexit 1\n");
    Files.setPosixFilePermissions(mvn, PosixFilePermissions.fromString("rwxr-xr-x"));
    return new Launcher(dir, bin);
  }

  /** {@code ./agentdouble ARGS}, ready to start, without the caller's AGENTDOUBLE_ variables. */
  ProcessBuilder agentdouble(String... args) {
    List<String> command = new ArrayList<>();
    command.add(ServeTest.root().resolve("agentdouble").toString());
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_"));
    pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
    return pb;
  }
}
