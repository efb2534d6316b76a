package dev.agentdouble.fake;

/** The fake cursor-agent's entry point. */
public final class FakeAgent {
  private FakeAgent() {}

  public static void main(String[] args) {
    System.exit(70);
  }
}
