package dev.agentdouble.junit.internal;

import dev.agentdouble.contract.Launch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

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

  private static void install(Path bin, String sh) throws IOException {
    for (String name : Launch.SHIM_NAMES) {
      Path tmp = bin.resolve("." + name + "." + Thread.currentThread().getId() + ".tmp");
      // the owner's only from the start: the fake's shim holds the control server's secret
      Files.deleteIfExists(tmp);
      Files.createFile(
          tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Files.writeString(tmp, sh, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
      Files.move(
          tmp,
          bin.resolve(name),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
  }
}
