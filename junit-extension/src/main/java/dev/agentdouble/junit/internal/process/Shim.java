package dev.agentdouble.junit.internal.process;

import dev.agentdouble.contract.Launch;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Writes {@code bin/cursor-agent} and {@code bin/agent} ({@link Launch}): sh scripts that run the
 * fake agent with its configuration baked in, so consumers that scrub their children's environment
 * still reach it. Each records its pid in {@code pids} (the JVM it execs keeps that pid), so a test
 * can kill what is still running at its end.
 */
public final class Shim {
  private Shim() {}

  public static void write(
      Path bin, FakeAgentRuntime runtime, Map<String, String> env, Path pidFile)
      throws IOException {
    Files.createDirectories(bin);
    // a temp file and a rename: a run starting meanwhile sees the old script or the new one
    install(
        bin,
        Launch.fakeShim(
            runtime.java(),
            runtime.archive(),
            runtime.classpath(),
            env,
            Optional.of(pidFile),
            "The AgentDouble fake agent for one test. Written by " + "AgentDoubleExtension."));
  }

  /**
   * Writes shims that run the real CLI through {@code agentdouble record}, one tape per invocation
   * into {@code into}: the code under test talks to the real agent, and the run is kept.
   */
  public static void writeRecording(
      Path bin, FakeAgentRuntime runtime, Path into, Path realCli, Path pidFile)
      throws IOException {
    Files.createDirectories(bin);
    Files.createDirectories(into);
    install(
        bin,
        Launch.recordingShim(
            runtime.java(),
            runtime.classpath(),
            Optional.empty(),
            into,
            realCli,
            Optional.of(pidFile)));
  }

  /**
   * Installs {@code sh} as every shim name in {@code bin}: a temp file, then a rename, so a run
   * starting meanwhile sees the old script or the new one.
   *
   * <p>The file is written by a child process, never through a file descriptor of this JVM: a
   * process another thread forks while this JVM holds a script open for writing inherits that
   * descriptor until it execs, and executing the script meanwhile fails with "Text file busy"
   * (ETXTBSY). Tests run in parallel start processes all the time, so the JVM never holds one.
   */
  static void install(Path bin, String sh) throws IOException {
    List<Path> tmps = new ArrayList<>();
    for (String name : Launch.SHIM_NAMES) {
      Path tmp = bin.resolve("." + name + "." + Thread.currentThread().getId() + ".tmp");
      Files.deleteIfExists(tmp);
      tmps.add(tmp);
    }
    List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", WRITE_ALL, "sh"));
    tmps.forEach(tmp -> command.add(tmp.toString()));
    Process writer =
        new ProcessBuilder(command)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try (OutputStream in = writer.getOutputStream()) {
      in.write(sh.getBytes(StandardCharsets.UTF_8));
    }
    try {
      if (!writer.waitFor(30, TimeUnit.SECONDS)) {
        writer.destroyForcibly();
        throw new IOException("writing the shims in " + bin + " took over 30 s");
      }
    } catch (InterruptedException e) {
      writer.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while writing the shims in " + bin, e);
    }
    if (writer.exitValue() != 0) {
      throw new IOException(
          "cannot write the shims in " + bin + " (sh exit " + writer.exitValue() + ")");
    }
    for (int i = 0; i < tmps.size(); i++) {
      // the owner's only: the fake's shim holds the control server's secret
      Files.setPosixFilePermissions(tmps.get(i), PosixFilePermissions.fromString("rwx------"));
      Files.move(
          tmps.get(i),
          bin.resolve(Launch.SHIM_NAMES.get(i)),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /**
   * Copies stdin into the first file, then the first into the others; owner-only from the start.
   */
  private static final String WRITE_ALL =
      "umask 077 && first=$1 && cat > \"$first\" && shift && "
          + "for f in \"$@\"; do cp \"$first\" \"$f\" || exit 1; done";
}
