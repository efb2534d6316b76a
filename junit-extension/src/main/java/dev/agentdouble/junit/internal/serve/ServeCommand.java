package dev.agentdouble.junit.internal.serve;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.recorder.command.Command;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code agentdouble serve}, the command this module gives {@code agentdouble} (registered in
 * {@code META-INF/services}): the {@link Serve} control plane on its own.
 */
public final class ServeCommand implements Command {
  @Override
  public String name() {
    return "serve";
  }

  @Override
  public String usage() {
    return "serve [--tapes DIR] [--port N] [--timing T]";
  }

  @Override
  public String summary() {
    return """
        answer fake agents over HTTP from a folder of tapes and what
        its API is sent, for test runners not on the JVM; prints
        %s=... (see `agentdouble serve --help`)"""
        .formatted(FakeEnvironment.URL);
  }

  /** Serves until the JVM is stopped, or returns at once with 0 (help), 1 or 2. */
  @Override
  public int run(List<String> args, InputStream in, PrintStream out, PrintStream err) {
    // WireMock's SLF4J is kept quiet by ControlPlane, as in the JUnit extension
    return Serve.run(args.toArray(String[]::new), out, err);
  }
}
