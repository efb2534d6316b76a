package dev.agentdouble.recorder;

import dev.agentdouble.recorder.internal.Commands;
import java.io.InputStream;
import java.io.PrintStream;

/**
 * The {@code agentdouble} command: {@code demo}, {@code replay}, {@code import}, {@code lint},
 * {@code show}, {@code diff} and more ({@code agentdouble --help}). Data goes to stdout, diagnostics
 * to stderr as {@code agentdouble: subject: problem}. Exit status: 0 ok, 1 failed, 2 usage.
 * ({@code serve} is listed in the help, but the launcher runs it on the JUnit extension's
 * classpath, which this module does not depend on.)
 */
public final class Agentdouble {
  private Agentdouble() {}

  public static void main(String[] args) {
    System.exit(run(System.in, System.out, System.err, args));
  }

  /** Runs one command; everything testable lives here. */
  public static int run(InputStream in, PrintStream out, PrintStream err, String... args) {
    return new Commands(in, out, err).run(args);
  }
}
