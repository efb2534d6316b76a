package dev.agentdouble.recorder.internal.replay;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.cli.Args;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.recorder.internal.process.FakeRun;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code agentdouble replay TAPE}: plays a tape through the installation's fake agent, as a
 * consumer would see it; the exit status is the run's.
 */
public final class ReplayCommand implements Command {
  private static final String HELP =
      """
      usage: agentdouble replay TAPE [--output-format F] [--timing T] [--prompt P]

      Plays TAPE through the fake agent exactly as a consumer would see it: stdout, stderr, timing,
      and the ending (the exit status is the run's; a death by signal n exits 128 + n). TAPE is a
      tape file, or builtin:NAME for a built-in tape (`agentdouble catalog` lists them). A TAPE the
      fake cannot replay (missing, not a regular file, malformed) exits 70, as the fake does.
        --output-format F   text, json or stream-json (default: the format the tape was recorded in)
        --timing T          fast, recorded (default), scale:F or max-gap:MS
        --prompt P          the prompt to pass (default: the tape's vars.prompt, else "replay")
      """;

  /** How long a replay may run: a day, as a recorded run may be that long. */
  private static final long TIMEOUT_SECONDS = 24 * 3600;

  private final Optional<Path> home;

  /**
   * @param home the root of the installation whose fake agent replays (empty when unknown: the
   *     command then fails saying how to run)
   */
  public ReplayCommand(Optional<Path> home) {
    this.home = home;
  }

  @Override
  public String name() {
    return "replay";
  }

  @Override
  public String usage() {
    return "replay TAPE [options]";
  }

  @Override
  public String summary() {
    return "play a tape (a file or builtin:NAME) through the fake agent, as a\n"
        + "consumer would see it";
  }

  @Override
  public List<Option> options() {
    return List.of(
        new Option("--output-format F", "text, json or stream-json (default: the tape's own)"),
        new Option("--timing T", "fast, recorded (default), scale:F or max-gap:MS"),
        new Option("--prompt P", "the prompt to pass (default: the tape's vars.prompt)"));
  }

  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    Args a = Args.parse(args, List.of("--output-format", "--timing", "--prompt"), List.of());
    if (a.help()) {
      out.print(HELP);
      return ExitStatus.OK;
    }
    if (a.positional().size() != 1) {
      throw new UsageException("replay takes one TAPE");
    }
    Optional<String> format = a.value("--output-format");
    if (format.isPresent() && OutputFormat.fromCliName(format.get()).isEmpty()) {
      throw new UsageException(
          "--output-format must be text, json or stream-json, was '" + format.get() + "'");
    }
    Timing timing = Args.timing(a.value("--timing").orElse("recorded"));
    String name = a.positional().get(0);
    boolean builtin = name.startsWith(UserFile.BUILTIN);
    Tape tape;
    try {
      tape = UserFile.tape(name);
    } catch (CommandFailure | TapeException e) {
      // what the fake would say of this tape, it says before running it, with the fake's status
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.OWN_PROBLEM;
    } catch (OutOfMemoryError e) {
      err.println(
          "agentdouble: "
              + name
              + ": cannot be read in this JVM's memory"
              + LineReader.memoryHint());
      return ExitStatus.OWN_PROBLEM;
    }
    String prompt =
        a.value("--prompt")
            .orElse(tape.header().vars().prompt().filter(p -> !p.isBlank()).orElse("replay"));
    String cli = tape.header().cli().orElse(InvocationRecord.CLI_CURSOR);
    String asked = format.orElse(tape.header().format().cliName());
    List<String> argv = new ArrayList<>(List.of("-p", "--output-format", asked));
    if (cli.equals(InvocationRecord.CLI_CLAUDE) && asked.equals("stream-json")) {
      argv.add("--verbose"); // Claude Code prints stream-json in print mode only with it
    }
    // "--" so that a prompt starting with a dash is not taken for an option
    argv.addAll(List.of("--", prompt));
    return new FakeRun(home, out, err)
        .as(cli)
        .run(
            argv,
            // a replay plays the run as recorded, in a workspace trusted as the recorded one was
            Map.of(
                FakeEnvironment.TAPE,
                builtin ? name : Path.of(name).toAbsolutePath().toString(),
                FakeEnvironment.TIMING,
                timing.toString(),
                FakeEnvironment.TRUST,
                FakeEnvironment.TRUSTED),
            TIMEOUT_SECONDS);
  }
}
