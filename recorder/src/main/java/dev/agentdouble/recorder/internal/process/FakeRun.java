package dev.agentdouble.recorder.internal.process;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Launch;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs the fake agent's launcher of an installation as a child process, its stdout and stderr going
 * to the given streams: inherited when those are the process's own {@code System.out} and {@code
 * System.err} (the child writes straight to them, timing untouched), else copied as they arrive.
 */
public final class FakeRun {
  /** The variables besides the tape and timing that change what a run does. */
  private static final List<String> SETTINGS =
      List.of(
          FakeEnvironment.TAPES,
          FakeEnvironment.PROFILE,
          FakeEnvironment.TEXT_STYLE,
          FakeEnvironment.EPOCH_MS,
          FakeEnvironment.JOURNAL,
          FakeEnvironment.TRUST,
          FakeEnvironment.STATE_DIR);

  private final Optional<Path> home;
  private final PrintStream out;
  private final PrintStream err;
  private final boolean hermetic;
  private final String cli;

  /**
   * @param home the installation's root (a source tree or an unpacked distribution, see {@link
   *     Launch#fakeLauncher}); empty when unknown, which makes {@link #launcher()} fail with a
   *     message saying how to run
   */
  public FakeRun(Optional<Path> home, PrintStream out, PrintStream err) {
    this(home, out, err, false, InvocationRecord.CLI_CURSOR);
  }

  private FakeRun(
      Optional<Path> home, PrintStream out, PrintStream err, boolean hermetic, String cli) {
    this.home = home;
    this.out = out;
    this.err = err;
    this.hermetic = hermetic;
    this.cli = cli;
  }

  /**
   * The same runs, of the fake started as {@code cli} ({@code claude}: {@code bin/claude}; any
   * other: {@code bin/cursor-agent}), the CLI a tape's header names.
   */
  public FakeRun as(String cli) {
    return new FakeRun(home, out, err, hermetic, cli);
  }

  /**
   * The same runs, but blind to the caller's {@link #SETTINGS} ({@code AGENTDOUBLE_PROFILE} and the
   * like), so they behave the same in every shell.
   */
  public FakeRun hermetic() {
    return new FakeRun(home, out, err, true, cli);
  }

  /** The fake agent launcher of this installation. */
  public Path launcher() {
    if (home.isEmpty()) {
      throw new IllegalStateException(
          "the installation's folder is unknown (system property "
              + "agentdouble.home is not set): run agentdouble through its launcher, ./agentdouble");
    }
    Path launcher = Launch.fakeLauncher(home.get(), cli);
    if (!Files.isExecutable(launcher)) {
      throw new IllegalStateException(
          launcher
              + ": missing or not executable; is "
              + home.get()
              + " an AgentDouble installation?");
    }
    return launcher;
  }

  /**
   * Runs {@code cursor-agent ARGS} (or {@code claude ARGS}, {@link #as}) with {@code env} added and
   * stdin from /dev/null; returns its status (128 + n when it died by signal n), or {@link
   * ExitStatus#TIMED_OUT} when it was killed after {@code timeoutSeconds}. SIGINT and SIGTERM to
   * this process meanwhile go to the fake (it aborts with 130, or dies by SIGTERM), whose status is
   * then returned; were this process killed outright, the fake ends by itself ({@code
   * docs/guarantees.md}).
   */
  @SuppressWarnings("try") // the forwarding is a scope: open while the fake runs, its body unused
  public int run(List<String> args, Map<String, String> env, long timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(launcher().toString());
    command.addAll(args);
    boolean inherit = out == System.out && err == System.err;
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    if (inherit) {
      pb.redirectOutput(ProcessBuilder.Redirect.INHERIT)
          .redirectError(ProcessBuilder.Redirect.INHERIT);
    }
    if (hermetic) {
      pb.environment().keySet().removeAll(SETTINGS);
    }
    pb.environment().putAll(env);
    out.flush();
    err.flush();
    Process process = pb.start();
    List<Thread> copies = new ArrayList<>();
    if (!inherit) {
      copies.add(copy(process.getInputStream(), out, "fake-agent stdout"));
      copies.add(copy(process.getErrorStream(), err, "fake-agent stderr"));
    }
    int status;
    // SIGINT and SIGTERM go to the fake, which ends as it takes them; this run then ends with it
    try (ForwardedSignals.Forwarding forwarding =
        ForwardedSignals.forward(process, new AtomicBoolean())) {
      if (process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        status = process.exitValue();
      } else {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
        status = ExitStatus.TIMED_OUT;
      }
    }
    for (Thread copy : copies) {
      copy.join(TimeUnit.SECONDS.toMillis(5));
    }
    return status;
  }

  /** Copies {@code from} to {@code to} on a daemon thread, flushing after every read. */
  private static Thread copy(InputStream from, PrintStream to, String name) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (from) {
                int n;
                while ((n = from.read(buffer)) != -1) {
                  to.write(buffer, 0, n);
                  to.flush();
                }
              } catch (IOException e) {
                // the child's end went away: nothing more to copy
              }
            },
            name);
    t.setDaemon(true);
    t.start();
    return t;
  }
}
