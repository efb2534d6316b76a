package dev.agentdouble.junit.internal;

import dev.agentdouble.recorder.internal.RecordingShim;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Optional;

/**
 * Writes {@code bin/cursor-agent} and {@code bin/agent}: sh scripts that run the fake agent with
 * its configuration baked in, so consumers that scrub their children's environment still reach it.
 * Each records its pid in {@code pids} (the JVM it execs keeps that pid), so a test can kill what
 * is still running at its end.
 */
public final class Shim {
  private Shim() {}

  public static void write(Path bin, FakeAgentRuntime runtime, Map<String, String> env,
      Path pidFile) throws IOException {
    Files.createDirectories(bin);
    StringBuilder sh = new StringBuilder();
    sh.append("#!/bin/sh\n");
    sh.append("# The AgentDouble fake agent for one test. Written by AgentDoubleExtension.\n");
    sh.append("echo $$ >> ").append(RecordingShim.quote(pidFile.toString())).append('\n');
    sh.append("unset AGENTDOUBLE_TAPE AGENTDOUBLE_TAPES\n");
    for (Map.Entry<String, String> e : env.entrySet()) {
      sh.append(e.getKey()).append('=').append(RecordingShim.quote(e.getValue())).append('\n');
      sh.append("export ").append(e.getKey()).append('\n');
    }
    sh.append("tty=\n[ -t 0 ] && tty=in\n[ -t 1 ] && tty=$tty,out\n");
    sh.append("exec ").append(RecordingShim.quote(runtime.java().toString()));
    if (runtime.archive().isPresent()) {
      sh.append(' ')
          .append(RecordingShim.quote("-XX:SharedArchiveFile=" + runtime.archive().get()));
    }
    sh.append(" -Xshare:auto -Xlog:disable -Xlog:all=off -XX:TieredStopAtLevel=1")
        .append(" -XX:-UsePerfData -XX:+DisplayVMOutputToStderr")
        .append(" -Dagentdouble.tty=\"$tty\" -Dagentdouble.invokedAs=\"$0\"")
        .append(" -cp ").append(RecordingShim.quote(runtime.classpath())).append(' ')
        .append(FakeAgentRuntime.MAIN).append(" \"$@\"\n");
    // a temp file and a rename: a run starting meanwhile sees the old script or the new one
    install(bin, sh.toString());
  }

  /**
   * Writes shims that run the real CLI through {@code agentdouble record}, one tape per invocation
   * into {@code into}: the code under test talks to the real agent, and the run is kept.
   */
  public static void writeRecording(Path bin, FakeAgentRuntime runtime, Path into, Path realCli,
      Path pidFile) throws IOException {
    Files.createDirectories(bin);
    Files.createDirectories(into);
    install(bin, RecordingShim.script(runtime.java(), runtime.classpath(), Optional.empty(), into,
        realCli, Optional.of(pidFile)));
  }

  private static void install(Path bin, String sh) throws IOException {
    for (String name : new String[] {"cursor-agent", "agent"}) {
      Path tmp = bin.resolve("." + name + "." + Thread.currentThread().getId() + ".tmp");
      // the owner's only from the start: the fake's shim holds the control server's secret
      Files.deleteIfExists(tmp);
      Files.createFile(tmp, PosixFilePermissions.asFileAttribute(
          PosixFilePermissions.fromString("rwx------")));
      Files.writeString(tmp, sh, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
      Files.move(tmp, bin.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
          java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
  }
}
