package dev.agentdouble.fake.internal;

/**
 * How a run ends: exit with a code, die by a signal, or hang until killed (optionally after closing
 * stdout).
 */
public record Ending(Kind kind, int code, String signal, boolean closeStdout) {
  public enum Kind { EXIT, KILL, HANG }

  public static Ending exit(int code) {
    return new Ending(Kind.EXIT, code, "", false);
  }

  public static Ending kill(String signal) {
    return new Ending(Kind.KILL, 0, signal, false);
  }

  public static Ending hang(boolean closeStdout) {
    return new Ending(Kind.HANG, 0, "", closeStdout);
  }
}
