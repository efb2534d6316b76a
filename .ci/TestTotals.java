import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The build's last line: the tests of every module added up, from the Surefire and Failsafe
 * reports this build wrote ({@code java .ci/TestTotals.java ROOT MODULE...}). Reports older than
 * {@code ROOT/target/build-started} (written when the build starts) are left out, so a report left
 * by an earlier build is not counted. A build that ran no test ({@code -DskipTests}) prints
 * nothing: "0 passed" would read as if tests had run. Exits 0: the modules' own test runs decide
 * the build.
 */
public final class TestTotals {
  /** A test case, and the outcomes other than passing that it may hold. */
  private static final Pattern CASE = Pattern.compile("<testcase[ >/]");

  private static final Pattern FAILED = Pattern.compile("<(?:failure|error)[ >/]");
  private static final Pattern SKIPPED = Pattern.compile("<skipped[ >/]");

  public static void main(String[] args) throws IOException {
    Path root = Path.of(args[0]);
    Path stamp = root.resolve("target/build-started");
    FileTime since = Files.exists(stamp) ? Files.getLastModifiedTime(stamp) : FileTime.fromMillis(0);
    long passed = 0;
    long failed = 0;
    long skipped = 0;
    List<String> modules = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      long[] counts = new long[3]; // tests, failed, skipped
      for (String reports : List.of("surefire-reports", "failsafe-reports")) {
        Path dir = root.resolve(args[i]).resolve("target").resolve(reports);
        if (!Files.isDirectory(dir)) {
          continue;
        }
        try (Stream<Path> files = Files.list(dir)) {
          for (Path report : files.sorted().toList()) {
            String name = report.getFileName().toString();
            if (name.startsWith("TEST-")
                && name.endsWith(".xml")
                && Files.getLastModifiedTime(report).compareTo(since) >= 0) {
              add(counts, Files.readString(report, StandardCharsets.UTF_8));
            }
          }
        }
      }
      passed += counts[0] - counts[1] - counts[2];
      failed += counts[1];
      skipped += counts[2];
      if (counts[0] > 0) {
        modules.add(args[i] + " " + counts[0]);
      }
    }
    if (modules.isEmpty()) {
      return; // no test ran
    }
    System.out.println("AgentDouble tests, all modules (" + String.join(", ", modules) + "):");
    System.out.println("Tests: " + passed + " passed, " + failed + " failed, " + skipped + " skipped");
  }

  /**
   * Adds one report's test cases: counted one by one (the suite's own {@code tests} attribute
   * leaves out some of a parallel run's dynamic and parameterised tests).
   */
  private static void add(long[] counts, String report) {
    counts[0] += count(CASE, report);
    counts[1] += count(FAILED, report);
    counts[2] += count(SKIPPED, report);
  }

  private static long count(Pattern pattern, String text) {
    Matcher m = pattern.matcher(text);
    long n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }
}
