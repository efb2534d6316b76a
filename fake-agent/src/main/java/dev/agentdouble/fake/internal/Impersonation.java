package dev.agentdouble.fake.internal;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.fake.internal.control.ControlClient;
import dev.agentdouble.fake.internal.process.Invoked;
import dev.agentdouble.fake.internal.process.Owner;
import dev.agentdouble.fake.internal.process.ProcessClock;
import dev.agentdouble.fake.internal.process.Stdio;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.fake.internal.source.QueuedTapes;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run of the fake agent, from argv to ending: the front of the CLI its program's name says
 * ({@link CliFronts}) runs it, and an error of AgentDouble's own ends it with exit 70 and one line,
 * never a stack trace. Everything it touches of the process (env, cwd, terminals, streams) comes in
 * through the constructor, so it runs the same in tests.
 */
public final class Impersonation {

  private final Invoked invoked;

  public Impersonation(
      String programName,
      List<String> argv,
      Map<String, String> env,
      String cwd,
      String home,
      boolean stdinTty,
      boolean stdoutTty,
      InputStream stdin,
      OutputStream stdout,
      OutputStream stderr,
      long originNanos,
      long pid) {
    this.invoked =
        new Invoked(
            programName,
            argv,
            env,
            cwd,
            Optional.ofNullable(home),
            new Stdio(stdinTty, stdoutTty, stdin, stdout, stderr),
            originNanos,
            pid);
  }

  /** The invocation of this process, as the launcher started it. */
  public static Impersonation fromProcess(String[] args, OutputStream stdout, OutputStream stderr) {
    long origin = ProcessClock.originNanos();
    String url = System.getenv(FakeEnvironment.URL);
    String queue = System.getenv(FakeEnvironment.QUEUE);
    if (url != null
        && !url.isEmpty()
        && (queue == null || queue.isEmpty() || !QueuedTapes.ready(queue))) {
      ControlClient.warmUp(url); // on the second core, while argv is parsed and the profile read
    }
    Owner.enable();
    String tty = System.getProperty("agentdouble.tty", "");
    String program = program(System.getProperty("agentdouble.invokedAs", "agent"));
    return new Impersonation(
        program,
        List.of(args),
        System.getenv(),
        System.getProperty("user.dir"),
        System.getenv().getOrDefault("HOME", System.getProperty("user.home")),
        tty.contains("in"),
        tty.contains("out"),
        System.in,
        stdout,
        stderr,
        origin,
        ProcessClock.pid());
  }

  /**
   * What the CLI this process impersonates says on SIGINT, by the name the launcher started it as:
   * read before anything else, for the signal handlers {@code main} installs first.
   */
  public static String aborting() {
    return CliFronts.aborting(program(System.getProperty("agentdouble.invokedAs", "agent")));
  }

  private static String program(String launcher) {
    return launcher.substring(launcher.lastIndexOf('/') + 1);
  }

  /** Runs the invocation; returns how the process must end. */
  public Ending run() {
    Journal journal =
        new Journal(
            invoked.pid(),
            System.currentTimeMillis(),
            invoked.argv(),
            invoked.cwd(),
            invoked.env());
    try {
      return runChecked(journal);
    } catch (TapeException e) {
      return ownProblem(journal, e.getMessage());
    } catch (IllegalArgumentException e) {
      return ownProblem(journal, e.getMessage());
    } catch (IOException e) {
      return ownProblem(journal, "I/O error: " + e.getMessage());
    } catch (OutOfMemoryError e) {
      // the tape's lines are checked where they are read (FILE:LINE); this is anything else
      return ownProblem(journal, Turn.outOfMemory(e));
    } catch (RuntimeException | StackOverflowError e) {
      // never a stack trace, which a consumer could take for the real CLI failing
      return ownProblem(
          journal,
          "internal error (" + e + "); please report it, with the tape " + "and the command line");
    }
  }

  private Ending runChecked(Journal journal) throws IOException {
    Owner.configure(invoked.env());
    // the program's name says which CLI this is (CliFronts): one run pipeline serves them all
    return CliFronts.run(invoked, journal);
  }

  private Ending ownProblem(Journal journal, String message) {
    return Exits.ownProblem(journal, message, invoked.stdio().err());
  }
}
