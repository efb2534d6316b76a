package dev.agentdouble.recorder.internal;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the fake agent's launcher as a child process with the caller's stdout and stderr. */
public final class FakeRun {
  private FakeRun() {}

  /** The fake agent launcher of this installation. */
  public static Path launcher() {
    String home = System.getProperty("agentdouble.home");
    if (home == null) {
      throw new IllegalStateException("agentdouble.home is not set: run through ./agentdouble");
    }
    Path launcher = Path.of(home, "fake-agent", "bin", "cursor-agent");
    if (!Files.isExecutable(launcher)) {
      throw new IllegalStateException(launcher + " is missing or not executable");
    }
    return launcher;
  }

  /**
   * Runs {@code cursor-agent ARGS} with {@code env} added, stdin from /dev/null and stdout/stderr
   * inherited; returns its status (128 + n when it died by signal n).
   */
  public static int run(List<String> args, Map<String, String> env, long timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(launcher().toString());
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command)
        .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
        .redirectOutput(ProcessBuilder.Redirect.INHERIT)
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    pb.environment().putAll(env);
    Process process = pb.start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      process.waitFor(5, TimeUnit.SECONDS);
      return -1;
    }
    return process.exitValue();
  }
}
