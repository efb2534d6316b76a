package dev.agentdouble.examples;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Tape;

/**
 * Tapes for the tests: runs scripted with {@link Script}, failures taken from the built-in {@link
 * Catalog}. The session id, cwd and prompt are variables of every tape, so the fake replaces them
 * with the live values.
 */
final class Tapes {
  /** The folder the scripted runs work in. */
  static final String CWD = "/home/dev/shop";

  private Tapes() {}

  /** A run of {@code prompt} in {@link #CWD}, its init and user events written. */
  static Script run(String prompt) {
    return Script.of(prompt).cwd(CWD).init().user();
  }

  /** A run that answers {@code answer}, without tools. */
  static Tape answers(String prompt, String answer) {
    return run(prompt).pause(540).assistant(answer).result().exit(0).build();
  }

  /** Not logged in: nothing on stdout, the message on stderr, exit 1. */
  static Tape notLoggedIn() {
    return Catalog.tape("not-logged-in");
  }

  /** The usage limit: init and user, then the error on stderr, exit 1. */
  static Tape usageLimit() {
    return Catalog.tape("usage-limit");
  }

  /** The network gave out: three reconnects and retries, the error on stderr, exit 1. */
  static Tape networkFailure() {
    return Catalog.tape("retries-exhausted");
  }
}
