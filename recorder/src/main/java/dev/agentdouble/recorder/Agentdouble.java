package dev.agentdouble.recorder;

/** The {@code agentdouble} command. */
public final class Agentdouble {
  private Agentdouble() {}

  public static void main(String[] args) {
    System.exit(2);
  }
}
