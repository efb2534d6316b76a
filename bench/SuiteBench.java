import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The test bodies of the suite benchmark (bench/run --only suite; see bench/README.md): two
 * generated classes of N tests each, run by the JUnit Platform's console launcher in a fresh JVM
 * each. Ours: each test gets a {@code FakeAgent} and runs it once ({@link ExtensionBench#invoke}).
 * The anchor: each test runs a bash script that only {@code cat}s what the fake prints for the same
 * tape ({@link #cat}), with the same spawning and the same checks, and no extension.
 *
 * <p>Both classes read their settings from system properties in {@code @BeforeAll} ({@link
 * #configure}): {@code bench.tape} (the tape the fake replays), {@code bench.lines} (the stdout
 * lines a run must print), {@code bench.stderr} (the log the runs' stderr is appended to) and
 * {@code bench.cat} (the bash cat fake).
 */
public final class SuiteBench {
  private SuiteBench() {}

  /** Sets what {@link ExtensionBench#invoke} and {@link #cat} use, from system properties. */
  public static void configure() {
    ExtensionBench.tape = Path.of(property("bench.tape")).toAbsolutePath().toString();
    ExtensionBench.lines = Integer.parseInt(property("bench.lines"));
    ExtensionBench.stderrLog = Path.of(property("bench.stderr")).toAbsolutePath();
  }

  /** The body of every test of the anchor: the bash cat fake, run and checked as invoke does. */
  public static void cat() {
    List<String> command = new ArrayList<>();
    command.add(property("bench.cat"));
    command.addAll(ExtensionBench.ARGV);
    ExtensionBench.check(ExtensionBench.spawn(command, Map.of()), "the bash cat fake");
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException("SuiteBench: no -D" + name + " (bench/harness.py sets it)");
    }
    return value;
  }
}
