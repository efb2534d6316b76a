package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's last lines ({@code .ci/TestTotals.java}, run by this module at {@code verify}): the
 * tests of every module added up, which CI reads, and nothing at all when no test ran.
 */
@Timeout(120)
class TestTotalsTest {
  @TempDir Path root;

  private TestProcess.Result totals() {
    return TestProcess.command(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            DocSnippetsTest.ROOT.resolve(".ci/TestTotals.java").toString(),
            root.toString(),
            "one",
            "two")
        .run();
  }

  @Test
  void aBuildThatRanNoTestPrintsNothing() throws IOException {
    Files.createDirectories(root.resolve("one/target/classes"));

    TestProcess.Result run = totals();

    assertThat(run.exit()).isZero();
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).isEmpty();
  }

  @Test
  void aBuildThatRanTestsEndsWithTheirTotals() throws IOException {
    Path reports = Files.createDirectories(root.resolve("two/target/surefire-reports"));
    Files.writeString(
        reports.resolve("TEST-dev.agentdouble.ATest.xml"),
        "<testsuite tests=\"3\">"
            + "<testcase name=\"a\"/>"
            + "<testcase name=\"b\"><failure message=\"no\"/></testcase>"
            + "<testcase name=\"c\"><skipped/></testcase>"
            + "</testsuite>");

    TestProcess.Result run = totals();

    assertThat(run.exit()).isZero();
    assertThat(run.out().lines())
        .containsExactly(
            "AgentDouble tests, all modules (two 3):", "Tests: 1 passed, 1 failed, 1 skipped");
  }
}
