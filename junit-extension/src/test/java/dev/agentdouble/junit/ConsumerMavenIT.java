package dev.agentdouble.junit;

import static dev.agentdouble.junit.ConsumerBuild.assertPassed;
import static dev.agentdouble.junit.ConsumerBuild.install;
import static dev.agentdouble.junit.ConsumerBuild.mvnTest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentdouble.contract.Release;
import dev.agentdouble.junit.ConsumerBuild.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipFile;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own Maven project, following the README alone: the artifacts installed in a Maven
 * repository as {@code mvn install} installs them (POMs, jars, sources, javadoc), a project whose
 * dependencies and tests are the blocks of the README and docs/junit.md marked {@code <!--
 * consumer: PATH -->}, copied as they are, then {@code mvn test} in it: on the build's Java with
 * the README's JUnit, and on Java 25 with JUnit 5.10 through the JUnit BOM the README shows.
 *
 * <p>The project's Maven resolves everything else from the build's own local repository (a {@code
 * file:} repository, so nothing is downloaded twice), then Maven Central; its own local repository
 * is a temp folder, so nothing of ours reaches the user's {@code ~/.m2}.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class ConsumerMavenIT {
  static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();

  /** The docs that hold the consumer's files. */
  private static final List<String> DOCS = List.of("README.md", "docs/junit.md");

  /** The published modules: artifact id, and its folder (none: a POM file of the root). */
  private static final Map<String, String> PUBLISHED = ConsumerBuild.PUBLISHED;

  @TempDir Path dir;

  @Test
  void theReadmesProjectPassesOnTheBuildsJava() throws Exception {
    Path repo = install(dir.resolve("repository"));
    Path project = consumer(dir.resolve("consumer"), false);

    Run run = mvnTest(dir, project, repo, Path.of(System.getProperty("java.home")));

    assertPassed(run, project, marked());
  }

  @Test
  void theReadmesProjectPassesOnJava25WithJUnit510() throws Exception {
    Optional<Path> jdk25 = jdk(25);
    assumeTrue(
        jdk25.isPresent(),
        "no JDK 25 under /usr/lib/jvm and AGENTDOUBLE_JDK25 unset: the Java 25 run is not made");
    Path repo = install(dir.resolve("repository"));
    Path project = consumer(dir.resolve("consumer"), true);

    Run run = mvnTest(dir, project, repo, jdk25.get());

    assertPassed(run, project, marked());
    // the project's own repository holds what its tests ran on: JUnit 5.10's jars, not ours
    Path jupiter = repo.resolve("org/junit/jupiter");
    assertThat(jupiter.resolve("junit-jupiter-engine/5.10.2/junit-jupiter-engine-5.10.2.jar"))
        .isRegularFile();
    assertThat(jupiter.resolve("junit-jupiter-api/5.10.2/junit-jupiter-api-5.10.2.jar"))
        .isRegularFile();
    assertThat(jupiter.resolve("junit-jupiter-api/5.14.1/junit-jupiter-api-5.14.1.jar"))
        .doesNotExist();
  }

  /** What the docs mark for the consumer: path → content, in the docs' order. */
  static Map<String, String> marked() throws IOException {
    return ConsumerBuild.marked(DOCS);
  }

  @Test
  void theDocsMarkTheDependenciesTheJUnitBomAndAFirstTestInEachGuide() throws IOException {
    Map<String, String> files = marked();

    assertThat(files).containsKeys("dependencies", "junit-bom");
    assertThat(files.keySet().stream().filter(p -> p.startsWith("src/test/java/")))
        .hasSizeGreaterThanOrEqualTo(2);
    assertThat(files.get("dependencies"))
        .contains("<artifactId>agentdouble-junit</artifactId>")
        .contains("<version>" + Release.VERSION + "</version>");
  }

  /**
   * What Maven Central asks of each module (name, description, url, licence, scm, developers: the
   * modules inherit the last four from the parent; the BOM, which inherits nothing, has its own),
   * sources and javadoc jars, archives whose entries all carry the build's fixed time (so two
   * builds of one commit make the same bytes), and a release profile that signs and publishes.
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
        }
      }
    }
    String release = parent.substring(parent.indexOf("<id>release</id>"));
    assertThat(release)
        .contains("<artifactId>maven-gpg-plugin</artifactId>", "<goal>sign</goal>")
        .contains("<artifactId>central-publishing-maven-plugin</artifactId>");
  }

  /**
   * A Maven project of the marked blocks: the dependencies in a minimal POM, the JUnit BOM when
   * asked, the test classes as they are.
   */
  private static Path consumer(Path project, boolean junitBom) throws IOException {
    Map<String, String> files = marked();
    String management =
        junitBom
            ? "  <dependencyManagement>\n    <dependencies>\n"
                + files.get("junit-bom")
                + "    </dependencies>\n  </dependencyManagement>\n"
            : "";
    String pom =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <project xmlns="http://maven.apache.org/POM/4.0.0">
          <modelVersion>4.0.0</modelVersion>
          <groupId>com.example</groupId>
          <artifactId>consumer</artifactId>
          <version>1.0</version>
          <properties>
            <maven.compiler.release>17</maven.compiler.release>
            <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
          </properties>
        %s  <dependencies>
        %s  </dependencies>
          <build>
            <plugins>
              <plugin>
                <artifactId>maven-compiler-plugin</artifactId>
                <version>3.14.0</version>
              </plugin>
              <plugin>
                <artifactId>maven-resources-plugin</artifactId>
                <version>3.3.1</version>
              </plugin>
              <plugin>
                <artifactId>maven-surefire-plugin</artifactId>
                <version>3.5.4</version>
              </plugin>
            </plugins>
          </build>
        </project>
        """
            .formatted(
                management, junitBom ? withoutJUnitsVersion(files) : files.get("dependencies"));
    Files.createDirectories(project);
    Files.writeString(project.resolve("pom.xml"), pom);
    for (Map.Entry<String, String> file : files.entrySet()) {
      if (file.getKey().startsWith("src/")) {
        Path to = project.resolve(file.getKey());
        Files.createDirectories(to.getParent());
        Files.writeString(to, file.getValue());
      }
    }
    return project;
  }

  /** The dependencies, {@code junit-jupiter}'s version dropped, as the README says with the BOM. */
  private static String withoutJUnitsVersion(Map<String, String> files) {
    String dependencies = files.get("dependencies");
    String dropped =
        dependencies.replaceFirst(
            "(<artifactId>junit-jupiter</artifactId>\\s*)<version>[^<]+</version>\\s*", "$1");
    assertThat(dropped)
        .as("junit-jupiter's version in the README's dependencies")
        .isNotEqualTo(dependencies);
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
