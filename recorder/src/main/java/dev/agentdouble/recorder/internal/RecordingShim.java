package dev.agentdouble.recorder.internal;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The sh script of a recording shim: {@code cursor-agent} that runs the real CLI under {@code
 * agentdouble record}, one tape per invocation. Written by {@code agentdouble shim --record-into}
 * and by the JUnit extension's record mode.
 */
public final class RecordingShim {
  private RecordingShim() {}

  /**
   * The JVM options {@code record} runs with: C1 only and a small young generation, so the
   * recorder starts fast and its memory stays flat however long the run (the frames wait on disk,
   * and little garbage is let pile up before it is collected). The root {@code agentdouble}
   * launcher passes the same ones.
   */
  public static final String JVM_OPTIONS =
      "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms8m -Xmn4m -Xshare:auto";

  /**
   * The script.
   *
   * @param java the java binary
   * @param classpath the recorder's classpath
   * @param home the installation's root, when known ({@code -Dagentdouble.home})
   * @param into where tapes go
   * @param real the real CLI
   * @param pidFile where the shim appends its pid, when someone tracks it
   */
  public static String script(Path java, String classpath, Optional<Path> home, Path into,
      Path real, Optional<Path> pidFile) {
    StringBuilder sh = new StringBuilder("#!/bin/sh\n")
        .append("# AgentDouble recording shim: runs the real CLI and records the run.\n");
    pidFile.ifPresent(p -> sh.append("echo $$ >> ").append(quote(p.toString())).append('\n'));
    sh.append("exec ").append(quote(java.toString())).append(' ').append(JVM_OPTIONS);
    home.ifPresent(h -> sh.append(" -Dagentdouble.home=").append(quote(h.toString())));
    return sh.append(" -cp ").append(quote(classpath))
        .append(" dev.agentdouble.recorder.command.AgentDoubleCommand record --quiet --into ")
        .append(quote(into.toString())).append(" -- ").append(quote(real.toString()))
        .append(" \"$@\"\n").toString();
  }

  /** A POSIX sh single-quoted word. */
  public static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
