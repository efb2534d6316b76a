package dev.agentdouble.fake;

import dev.agentdouble.fake.internal.Impersonation;
import dev.agentdouble.fake.internal.process.Signals;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;

/**
 * The fake {@code cursor-agent}: parses argv like the real CLI, picks a tape, journals the
 * invocation, replays the tape with its timing and ends as the tape says (exit code, death by
 * signal, or hang). AgentDouble's own problems exit 70 with {@code agentdouble: ...} on stderr.
 * Signals are taken as the CLI takes them from the first thing {@code main} does ({@link
 * Signals#install}: SIGINT aborts with 130, SIGTERM and SIGHUP kill). Run through {@code
 * fake-agent/bin/cursor-agent}, which sets the JVM flags this relies on.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    Signals.install(Impersonation.aborting());
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    OutputStream stderr = new FileOutputStream(FileDescriptor.err);
    Signals.end(Impersonation.fromProcess(args, stdout, stderr).run());
  }
}
