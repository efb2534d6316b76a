package dev.agentdouble.junit.internal.process;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.Launch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Writes {@code bin/cursor-agent}, {@code bin/agent} and {@code bin/claude} ({@link Launch}): sh
 * scripts that run the fake agent with its configuration baked in, so consumers that scrub their
 * children's environment still reach it. One script serves every name: the name it is run by tells
 * the fake which CLI to play. Each records its pid in {@code pids} (the JVM it execs keeps that
 * pid), so a test can kill what is still running at its end.
 */
public final class Shim {
  private Shim() {}

  public static void write(
      Path bin, FakeAgentRuntime runtime, Map<String, String> env, Path pidFile)
      throws IOException {
    Files.createDirectories(bin);
    // a temp file and a rename: a run starting meanwhile sees the old script or the new one
    install(
        runtime.shimWriter(),
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
   * Writes shims that run the real CLIs through {@code agentdouble record}, one tape per invocation
   * into {@code into}: the code under test talks to the real agent, and the run is kept. {@code
   * cursor-agent} and {@code agent} run {@code realCursor}, {@code claude} runs {@code realClaude};
   * a shim whose real CLI was not found says so on stderr and exits {@value
   * ExitStatus#OWN_PROBLEM}.
   */
  public static void writeRecording(
      Path bin, FakeAgentRuntime runtime, Path into, RealClis real, Path pidFile)
      throws IOException {
    Files.createDirectories(bin);
    Files.createDirectories(into);
    Map<String, String> scripts = new LinkedHashMap<>();
    String cursor = recording(runtime, into, real.cursor(), "cursor-agent", "cli", pidFile);
    for (String name : Launch.SHIM_NAMES) {
      scripts.put(name, cursor);
    }
    scripts.put(
        Launch.CLAUDE_SHIM_NAME,
        recording(runtime, into, real.claude(), Launch.CLAUDE_SHIM_NAME, "claude", pidFile));
    install(runtime.shimWriter(), bin, scripts);
  }

  private static String recording(
      FakeAgentRuntime runtime,
      Path into,
      Optional<Path> real,
      String cli,
      String parameter,
      Path pidFile) {
    if (real.isEmpty()) {
      return notFound(cli, parameter);
    }
    return Launch.recordingShim(
        runtime.java(),
        runtime.classpath(),
        Optional.empty(),
        into,
        real.get(),
        Optional.of(pidFile));
  }

  /**
   * The recording shim of {@code cli} when the real one was not found: it says so, and how to name
   * it ({@code -Dagentdouble.PARAMETER}), on stderr, and exits {@value ExitStatus#OWN_PROBLEM}.
   */
  static String notFound(String cli, String parameter) {
    return "#!/bin/sh\necho "
        + Launch.quote(
            "agentdouble: recording needs the real "
                + cli
                + ": none on PATH; name it with -Dagentdouble."
                + parameter
                + "=PATH")
        + " >&2\nexit "
        + ExitStatus.OWN_PROBLEM
        + "\n";
  }

  /** Installs {@code sh} as every shim name in {@code bin}: Cursor's names and Claude's. */
  static void install(ShimWriter writer, Path bin, String sh) throws IOException {
    Map<String, String> scripts = new LinkedHashMap<>();
    for (String name : NAMES) {
      scripts.put(name, sh);
    }
    install(writer, bin, scripts);
  }

  /** Every name a shim is installed as: Cursor's two, then Claude's. */
  static final List<String> NAMES = names();

  private static List<String> names() {
    List<String> names = new ArrayList<>(Launch.SHIM_NAMES);
    names.add(Launch.CLAUDE_SHIM_NAME);
    return List.copyOf(names);
  }

  /**
   * Installs each script of {@code scripts} as its name in {@code bin}: a temp file written by
   * {@code writer} (never through a file descriptor of this JVM: see {@link ShimWriter}), then a
   * rename, so a run starting meanwhile sees the old script or the new one.
   */
  static void install(ShimWriter writer, Path bin, Map<String, String> scripts) throws IOException {
    Map<String, List<String>> namesByScript = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : scripts.entrySet()) {
      namesByScript.computeIfAbsent(e.getValue(), sh -> new ArrayList<>()).add(e.getKey());
    }
    for (Map.Entry<String, List<String>> e : namesByScript.entrySet()) {
      installAs(writer, bin, e.getKey(), e.getValue());
    }
  }

  /** Installs {@code sh} as each of {@code names} in {@code bin}. */
  private static void installAs(ShimWriter writer, Path bin, String sh, List<String> names)
      throws IOException {
    List<Path> tmps = new ArrayList<>();
    for (String name : names) {
      tmps.add(bin.resolve("." + name + "." + Thread.currentThread().getId() + ".tmp"));
    }
    writer.write(tmps, sh);
    for (int i = 0; i < tmps.size(); i++) {
      // the owner's only: the fake's shim holds the control server's secret
      Files.setPosixFilePermissions(tmps.get(i), PosixFilePermissions.fromString("rwx------"));
      Files.move(
          tmps.get(i),
          bin.resolve(names.get(i)),
          StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
  }
}
