package dev.agentdouble.junit.internal.serve;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.model.ModelScript;
import dev.agentdouble.junit.internal.model.ModelServer;
import dev.agentdouble.junit.internal.model.ModelTapes;
import dev.agentdouble.recorder.command.Command;
import dev.agentdouble.recorder.command.UsageException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * {@code agentdouble model-api --tape FILE}: a Claude Code tape served as Anthropic's Messages API
 * ({@link ModelServer}), for the real {@code claude} to run against with no account and no network.
 * Prints {@code ANTHROPIC_BASE_URL=URL} and {@code ANTHROPIC_API_KEY=KEY} on stdout, then serves
 * until it is stopped or the process that started it ends.
 */
public final class ModelApiCommand implements Command {
  static final String HELP =
      """
      usage: agentdouble model-api --tape FILE [--port N] [--timing T]

      Serves a Claude Code tape as Anthropic's Messages API on 127.0.0.1, for the real claude to
      run against: what the model said in the tape's run (its assistant turns, the API errors its
      api_retry lines and error result tell of) answers the CLI's requests in order, and the CLI
      runs its own tools. Prints two lines on stdout,
        ANTHROPIC_BASE_URL=http://127.0.0.1:PORT
        ANTHROPIC_API_KEY=KEY
      to give claude in its environment (with DISABLE_TELEMETRY=1 and
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1, so that it asks nothing else), then serves until
      it is stopped (SIGINT, SIGTERM) or the process that started it ends. KEY is new each run;
      requests without it get the API's 401.
        --tape FILE   a stream-json tape of claude (a file, or builtin:NAME)
        --port N      the port to listen on (default: a free one)
        --timing T    how long each answer waits: recorded (default: the tape's gaps), fast,
                      scale:F or max-gap:MS
      """;

  @Override
  public String name() {
    return "model-api";
  }

  @Override
  public String usage() {
    return "model-api --tape FILE [--port N] [--timing T]";
  }

  @Override
  public String summary() {
    return """
        serve a Claude Code tape as Anthropic's Messages API, for
        the real claude to run against; prints ANTHROPIC_BASE_URL=...""";
  }

  /** Serves until the JVM is stopped, or returns at once with 0 (help), 1 or 2. */
  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    Options options;
    try {
      options = Options.parse(args);
    } catch (UsageException e) {
      err.println("agentdouble: " + e.getMessage());
      err.println("Run 'agentdouble model-api --help' for usage.");
      return ExitStatus.USAGE;
    }
    if (options.help()) {
      out.print(HELP);
      out.flush();
      return ExitStatus.OK;
    }
    if (!Lifeline.hold(name(), err)) {
      return Lifeline.PARENT_GONE;
    }
    ModelScript script;
    try {
      script = ModelTapes.script(options.tape(), options.timing());
    } catch (IllegalArgumentException e) {
      err.println("agentdouble: " + e.getMessage());
      return ExitStatus.FAILED;
    }
    ModelServer server;
    try {
      server = ModelServer.start(script, options.port(), JOURNAL_LIMIT);
    } catch (RuntimeException e) {
      err.println(
          "agentdouble: cannot listen on 127.0.0.1:" + options.port() + ": " + e.getMessage());
      return ExitStatus.FAILED;
    }
    CountDownLatch closed = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  server.close();
                  closed.countDown();
                },
                "agentdouble-model-api-stop"));
    // stdout only: a pipe to whoever started it, never the note on stderr
    out.println(ModelTapes.BASE_URL + "=" + server.baseUrl());
    out.println(ModelTapes.API_KEY + "=" + server.key());
    out.flush();
    err.println(
        "agentdouble: serving "
            + script.source()
            + " ("
            + script.answers().size()
            + (script.answers().size() == 1 ? " answer" : " answers")
            + ") as the Messages API at "
            + server.baseUrl()
            + "; stop with Ctrl-C or SIGTERM");
    err.flush();
    try {
      closed.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return ExitStatus.OK;
  }

  /** How many of the last requests are kept: the command has no API to read them; a few suffice. */
  static final int JOURNAL_LIMIT = 100;

  record Options(boolean help, String tape, int port, Timing timing) {
    static Options parse(List<String> args) {
      CommandLine line =
          CommandLine.parse(
              args, Set.of("--tape", "--port", "--timing"), "the tape is given with --tape FILE");
      boolean help = line.help();
      String tape = line.get("--tape");
      String port = line.get("--port");
      String timing = line.get("--timing");
      if (help) {
        return new Options(true, null, 0, Timing.RECORDED);
      }
      if (tape == null || tape.isEmpty()) {
        throw new UsageException("--tape FILE is needed: a stream-json tape of claude");
      }
      return new Options(
          false,
          tape,
          port == null ? 0 : Serve.Options.port(port),
          timing == null ? Timing.RECORDED : Serve.Options.timing(timing));
    }
  }
}
