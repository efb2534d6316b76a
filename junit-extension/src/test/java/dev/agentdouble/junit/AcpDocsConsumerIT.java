package dev.agentdouble.junit;

import static dev.agentdouble.junit.ConsumerBuild.assertPassed;
import static dev.agentdouble.junit.ConsumerBuild.install;
import static dev.agentdouble.junit.ConsumerBuild.mvnTest;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.Release;
import dev.agentdouble.junit.ConsumerBuild.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * docs/acp.md's Java runs in a user's project: a Maven project made of the page's marked blocks
 * alone (its {@code pom.xml}, the client, the test classes), copied as they are, built with {@code
 * mvn test} against the artifacts installed as {@code mvn install} installs them, on each Maven of
 * {@link ConsumerBuild#mavens()} (the oldest the README supports, 3.8, whose default plugins the
 * page's POM pins, and a 3.9). Nothing of this repository's examples module, and nothing the page
 * does not show.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@Execution(ExecutionMode.SAME_THREAD) // one local repository for the class's builds, one at a time
class AcpDocsConsumerIT {
  private static final String PAGE = "docs/acp.md";

  /** A fenced block of Java or XML, and the line before it. */
  private static final Pattern CODE =
      Pattern.compile("(?m)^([^\\n]*)\\n```(java|xml)\\n(.*?)^```$", Pattern.DOTALL);

  @TempDir Path dir;

  /** The local repository of every build of the class: the installed artifacts, and the rest. */
  @TempDir static Path shared;

  private static Path repo;

  @BeforeAll
  static void installTheArtifacts() throws IOException {
    repo = install(shared.resolve("repository"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.agentdouble.junit.ConsumerBuild#mavens")
  void thePagesProjectPasses(Path maven) throws Exception {
    Map<String, String> files = ConsumerBuild.marked(List.of(PAGE));
    assertThat(files).as("the files %s marks", PAGE).containsKey("pom.xml");
    Path project = ConsumerBuild.write(dir.resolve("consumer"), files);

    Run run = mvnTest(maven, dir, project, repo, Path.of(System.getProperty("java.home")));

    assertPassed(run, project, files);
    assertThat(run.output()).doesNotContain("Tests run: 0,");
  }

  @Test
  void everyJavaAndXmlBlockOfThePageIsAFileOfTheProject() throws IOException {
    String page = Files.readString(ConsumerBuild.ROOT.resolve(PAGE));
    List<String> unmarked = new ArrayList<>();
    Matcher block = CODE.matcher(page);
    while (block.find()) {
      if (!ConsumerBuild.MARKED.matcher(block.group()).lookingAt()) {
        long line = page.substring(0, block.start(2)).lines().count();
        unmarked.add(PAGE + ":" + line + ": " + block.group(3).lines().findFirst().orElse(""));
      }
    }
    assertThat(unmarked).as("%s: blocks that are not a marked file", PAGE).isEmpty();

    Map<String, String> files = ConsumerBuild.marked(List.of(PAGE));
    assertThat(files).containsKey("pom.xml");
    assertThat(files.get("pom.xml"))
        .contains("<artifactId>agentdouble-junit</artifactId>")
        .contains("<version>" + Release.VERSION + "</version>");
    assertThat(files.keySet().stream().filter(p -> p.startsWith("src/main/java/"))).isNotEmpty();
    assertThat(files.keySet().stream().filter(p -> p.startsWith("src/test/java/")))
        .hasSizeGreaterThanOrEqualTo(6);
    // nothing of the examples module; the build above holds the rest (no undefined name)
    assertThat(String.join("\n", files.values()))
        .doesNotContain("dev.agentdouble.examples")
        .doesNotContain("CursorAcpClient");
  }
}
