package dev.agentdouble.junit;

import static dev.agentdouble.junit.ConsumerBuild.PUBLISHED;
import static dev.agentdouble.junit.ConsumerBuild.ROOT;
import static dev.agentdouble.junit.ConsumerBuild.assertPassed;
import static dev.agentdouble.junit.ConsumerBuild.install;
import static dev.agentdouble.junit.ConsumerBuild.mavens;
import static dev.agentdouble.junit.ConsumerBuild.mvnTest;
import static dev.agentdouble.junit.ConsumerBuild.property;
import static dev.agentdouble.junit.ConsumerBuild.reports;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentdouble.contract.Release;
import dev.agentdouble.junit.ConsumerBuild.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A user's own Maven project, following the README alone ({@link ConsumerBuild}): the artifacts
 * installed in a Maven repository as {@code mvn install} installs them, a project whose files are
 * the blocks of the README and docs/junit.md marked {@code <!-- consumer: PATH -->}, copied as they
 * are (its {@code pom.xml} included: nothing of ours is added to it), then {@code mvn test} in it:
 * with the oldest Maven the README supports and with a Maven 3.9, each on its default plugins for
 * whatever the POM leaves to them, on the build's Java with the README's JUnit; and on Java 25 with
 * JUnit 5.10 through the JUnit BOM the README shows.
 *
 * <p>The Mavens are distributions from Maven Central, unpacked by this module's build in {@code
 * target/mavens} (never the machine's Maven). They resolve everything else from the build's own
 * local repository (a {@code file:} repository, so nothing is downloaded twice), then Maven
 * Central, into one local repository of the class's, in {@code target/}: nothing of ours reaches
 * the user's {@code ~/.m2}, and the builds and the consumer's tests keep their temp files in {@code
 * target/} too.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
@Execution(ExecutionMode.SAME_THREAD) // one local repository for the class's builds, one at a time
class ConsumerMavenIT {
  /** The docs that hold the consumer's files. */
  private static final List<String> DOCS = List.of("README.md", "docs/junit.md");

  /** The marked block that is part of the POM, not a file: JUnit's BOM, when asked. */
  private static final String JUNIT_BOM = "junit-bom";

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
  void theReadmesProjectPassesOnTheBuildsJava(Path maven) throws Exception {
    Path project = consumer(dir.resolve("consumer"), false);

    Run run = mvnTest(maven, dir, project, repo, Path.of(System.getProperty("java.home")));

    assertPassed(run, project, marked());
  }

  @Test
  void theReadmesProjectPassesOnJava25WithJUnit510() throws Exception {
    Optional<Path> jdk25 = jdk(25);
    assumeTrue(
        jdk25.isPresent(),
        "no JDK 25 under /usr/lib/jvm and AGENTDOUBLE_JDK25 unset: the Java 25 run is not made");
    List<Path> mavens = mavens().map(Named::getPayload).toList();
    Path project = consumer(dir.resolve("consumer"), true);

    Run run = mvnTest(mavens.get(mavens.size() - 1), dir, project, repo, jdk25.get());

    assertPassed(run, project, marked());
    // what its tests ran on: JUnit 5.10's jars, not ours
    assertThat(reports(project))
        .allSatisfy(
            report ->
                assertThat(property(report, "surefire.test.class.path"))
                    .contains("/junit-jupiter-api-5.10.2.jar", "/junit-jupiter-engine-5.10.2.jar")
                    .doesNotContain("5.14.1"));
  }

  /** The oldest Maven of the builds is the oldest the README supports. */
  @Test
  void theOldestMavenIsTheOneTheReadmeSupports() throws IOException {
    String readme = Files.readString(ROOT.resolve("README.md"));
    Matcher supported = Pattern.compile("Maven (\\d+\\.\\d+)\\+").matcher(readme);
    assertThat(supported.find()).as("'Maven X.Y+' in the README's requirements").isTrue();
    String oldest = mavens().findFirst().orElseThrow().getName();

    assertThat(oldest).startsWith("apache-maven-" + supported.group(1) + ".");
    assertThat(readme).contains("Maven " + oldest.substring("apache-maven-".length()) + " ");
  }

  /** What the docs mark for the consumer: path → content, in the docs' order. */
  static Map<String, String> marked() throws IOException {
    return ConsumerBuild.marked(DOCS);
  }

  @Test
  void theDocsMarkAWholePomTheJUnitBomAndAFirstTestInEachGuide() throws IOException {
    Map<String, String> files = marked();

    assertThat(files).containsKeys("pom.xml", JUNIT_BOM);
    assertThat(files.keySet().stream().filter(p -> p.startsWith("src/test/java/")))
        .hasSizeGreaterThanOrEqualTo(2);
    assertThat(files.get("pom.xml"))
        .startsWith("<?xml")
        .contains("<artifactId>agentdouble-junit</artifactId>")
        .contains("<version>" + Release.VERSION + "</version>")
        .endsWith("</project>\n");
    assertThat(files.get(JUNIT_BOM)).startsWith("<dependencyManagement>");
  }

  /**
   * What Maven Central asks of each module (name, description, url, licence, scm, developers: the
   * modules inherit the last four from the parent; the BOM, which inherits nothing, has its own),
   * sources and javadoc jars (the javadoc of the API users call: no {@code .internal} package nor
   * its rooms), archives whose entries all carry the build's fixed time (so two builds of one
   * commit make the same bytes), and a release profile that signs and publishes.
   */
  @Test
  void everyPublishedModuleIsReadyForMavenCentral() throws IOException {
    String parent = Files.readString(ROOT.resolve("pom.xml"));
    for (String pom : List.of(parent, Files.readString(ROOT.resolve("bom.xml")))) {
      assertThat(pom)
          .contains("<url>https://", "<licenses>", "<scm>", "<developers>", "<description>");
    }
    Matcher timestamp = Pattern.compile("<project.build.outputTimestamp>([^<]+)<").matcher(parent);
    assertThat(timestamp.find()).as("project.build.outputTimestamp in pom.xml").isTrue();
    long fixed = Instant.parse(timestamp.group(1)).toEpochMilli();
    for (Map.Entry<String, String> module : PUBLISHED.entrySet()) {
      if (module.getValue().endsWith(".xml")) {
        continue;
      }
      Path folder = ROOT.resolve(module.getValue());
      assertThat(Files.readString(folder.resolve("pom.xml")))
          .as(module.getKey())
          .contains("<name>", "<description>");
      String base = module.getKey() + "-" + Release.VERSION;
      for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
        Path jar = folder.resolve("target").resolve(base + suffix);
        try (ZipFile zip = new ZipFile(jar.toFile())) {
          assertThat(zip.stream().filter(e -> !e.isDirectory()))
              .as("%s: entries", jar.getFileName())
              .isNotEmpty()
              .allSatisfy(
                  e ->
                      assertThat(e.getLastModifiedTime().toMillis())
                          .as("%s in %s", e.getName(), jar.getFileName())
                          .isCloseTo(fixed, Offset.offset(2000L)));
          if (suffix.equals("-javadoc.jar")) {
            assertThat(zip.stream().map(ZipEntry::getName))
                .as("%s: packages of the API users call only", jar.getFileName())
                .noneMatch(name -> name.contains("/internal/"));
          }
        }
      }
    }
    String release = parent.substring(parent.indexOf("<id>release</id>"));
    assertThat(release)
        .contains("<artifactId>maven-gpg-plugin</artifactId>", "<goal>sign</goal>")
        .contains("<artifactId>central-publishing-maven-plugin</artifactId>");
  }

  /**
   * A Maven project of the marked blocks, each file as it is; with {@code junitBom}, the POM with
   * the JUnit BOM's {@code dependencyManagement} before its {@code dependencies} and without {@code
   * junit-jupiter}'s version, as the README says.
   */
  private static Path consumer(Path project, boolean junitBom) throws IOException {
    Map<String, String> files = new LinkedHashMap<>(marked());
    String management = files.remove(JUNIT_BOM);
    if (junitBom) {
      files.put("pom.xml", withTheJUnitBom(files.get("pom.xml"), management));
    }
    return ConsumerBuild.write(project, files);
  }

  /** {@code pom} with {@code management} before its {@code <dependencies>}. */
  private static String withTheJUnitBom(String pom, String management) {
    Matcher dependencies = Pattern.compile("(?m)^( *)<dependencies>").matcher(pom);
    assertThat(dependencies.find()).as("<dependencies> in the README's pom.xml").isTrue();
    String indent = dependencies.group(1);
    String indented = management.strip().replaceAll("(?m)^", indent);
    return withoutJUnitsVersion(
        pom.substring(0, dependencies.start())
            + indented
            + "\n\n"
            + pom.substring(dependencies.start()));
  }

  /** {@code pom}, {@code junit-jupiter}'s version dropped, as the README says with the BOM. */
  private static String withoutJUnitsVersion(String pom) {
    String dropped =
        pom.replaceFirst(
            "(<artifactId>junit-jupiter</artifactId>\\s*)<version>[^<]+</version>\\s*", "$1");
    assertThat(dropped).as("junit-jupiter's version in the README's pom.xml").isNotEqualTo(pom);
    return dropped;
  }

  /** A JDK of {@code feature}: AGENTDOUBLE_JDK{feature}, or one under /usr/lib/jvm. */
  static Optional<Path> jdk(int feature) throws IOException {
    String set = System.getenv("AGENTDOUBLE_JDK" + feature);
    if (set != null && !set.isEmpty()) {
      return Optional.of(Path.of(set));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (!Files.isDirectory(jvms)) {
      return Optional.empty();
    }
    try (Stream<Path> all = Files.list(jvms)) {
      return all.filter(j -> j.getFileName().toString().matches(".*\\D" + feature + "(\\D.*)?"))
          .filter(j -> Files.isExecutable(j.resolve("bin/java")))
          .sorted()
          .findFirst();
    }
  }
}
