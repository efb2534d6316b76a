/** The start-up baseline: a JVM that starts, runs an empty main, and exits. */
public final class Empty {
  public static void main(String[] args) {}
}
