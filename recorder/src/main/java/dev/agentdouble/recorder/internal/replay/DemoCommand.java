package dev.agentdouble.recorder.internal.replay;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.process.FakeRun;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.TapeReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code agentdouble demo}: a newcomer's first look. Replays a built-in run (init, thinking, a tool
 * call, a result) through the real fake agent in each output format, then a failing run.
 */
public final class DemoCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble demo [--timing T]

      Replays a built-in run through the fake agent (fake-agent/bin/cursor-agent) in stream-json,
      json and text, then a run that fails after three reconnects (stderr, exit 1).
        --timing T   fast, recorded, scale:F (default scale:0.5) or max-gap:MS
      """;

  /** How long one run of the demo may take. */
  private static final long TIMEOUT_SECONDS = 60;

  private final Optional<Path> home;

  /**
   * @param home the root of the installation whose fake agent runs the demo (empty when unknown:
   *     the command then fails saying how to run)
   */
  public DemoCommand(Optional<Path> home) {
    this.home = home;
  }

  @Override
  public String name() {
    return "demo";
  }

  @Override
  public String usage() {
    return "demo";
  }

  @Override
  public String summary() {
    return "replay a built-in run in every output format, and a failure";
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    return new Show(out, err, new FakeRun(home, out, err).hermetic()).run(args);
  }

  /** One run of the demo: its streams and the fake agent it runs. */
  private static final class Show {
    private final PrintStream out;
    private final PrintStream err;
    private final FakeRun fake;

    Show(PrintStream out, PrintStream err, FakeRun fake) {
      this.out = out;
      this.err = err;
      this.fake = fake;
    }

    int run(List<String> args) throws IOException, InterruptedException {
      Args a = Args.parse(args, List.of("--timing"), List.of());
      if (a.help()) {
        out.print(HELP);
        return ExitStatus.OK;
      }
      if (!a.positional().isEmpty()) {
        throw new UsageException("demo takes no arguments");
      }
      Timing timing = Args.timing(a.value("--timing").orElse("scale:0.5"));
      Path dir = Files.createTempDirectory("agentdouble-demo");
      try {
        Path success = extract(dir, "success.tape.ndjson");
        Path failure = extract(dir, "failure.tape.ndjson");
        String launcher = fake.launcher().toString();
        out.println("AgentDouble demo: the fake agent (" + launcher + ")");
        out.println(
            "replays a tape as the real cursor-agent would run: real pipes, timing, exit codes.");
        int failures = 0;
        for (String format : List.of("stream-json", "json", "text")) {
          failures += show(success, format, "What does cart.ts export?", timing) ? 0 : 1;
        }
        out.println();
        out.println("A failing run: three reconnects, then an error on stderr and exit 1.");
        failures += show(failure, "stream-json", "Refactor the checkout flow", timing) ? 0 : 1;
        out.println();
        out.println("Next: agentdouble show TAPE, agentdouble replay TAPE, and docs/cli.md.");
        return failures == 0 ? ExitStatus.OK : ExitStatus.FAILED;
      } finally {
        try (var files = Files.list(dir)) {
          for (Path p : files.toList()) {
            Files.deleteIfExists(p);
          }
        }
        Files.deleteIfExists(dir);
      }
    }

    /** Runs {@code tape} in {@code format}; whether it ended as the tape says it does. */
    private boolean show(Path tape, String format, String prompt, Timing timing)
        throws IOException, InterruptedException {
      out.println();
      // the command shown is the command run: pasted with the tape in AGENTDOUBLE_TAPE, it does the
      // same (--trust, as the real CLI needs in a workspace it has not been told to trust)
      List<String> args = List.of("-p", "--trust", "--output-format", format, prompt);
      out.println("$ cursor-agent -p --trust --output-format " + format + " '" + prompt + "'");
      out.flush();
      int expected = ((Frame.Exit) TapeReader.read(tape).ending()).code();
      int status =
          fake.run(
              args,
              Map.of(
                  FakeEnvironment.TAPE, tape.toString(), FakeEnvironment.TIMING, timing.toString()),
              TIMEOUT_SECONDS);
      out.println("[exit " + status + "]");
      if (status != expected) {
        err.println(
            "agentdouble: demo: expected exit "
                + expected
                + " from the "
                + format
                + " run, got "
                + status);
        return false;
      }
      return true;
    }
  }

  private static Path extract(Path dir, String name) throws IOException {
    Path target = dir.resolve(name);
    try (InputStream in =
        DemoCommand.class.getResourceAsStream("/dev/agentdouble/recorder/demo/" + name)) {
      if (in == null) {
        throw new IllegalStateException("built-in demo tape " + name + " is missing from the jar");
      }
      Files.copy(in, target);
    }
    return target;
  }
}
