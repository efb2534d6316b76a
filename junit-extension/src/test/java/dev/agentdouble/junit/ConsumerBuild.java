package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.Release;
import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;

/**
 * A user's own Maven project built on this build's artifacts, for the tests that hold a page to
 * what runs ({@link ConsumerMavenIT}, {@link AcpDocsConsumerIT}): the published modules installed
 * in a Maven repository as {@code mvn install} lays them out (POMs, jars, sources, javadoc), the
 * project's files taken from the blocks of the docs marked {@code <!-- consumer: PATH -->}, and
 * {@code mvn test} run in it on a Maven of {@link #mavens()}.
 *
 * <p>The Mavens are distributions from Maven Central, unpacked by this module's build in {@code
 * target/mavens} (never the machine's Maven). They resolve everything else from the build's own
 * local repository (a {@code file:} repository, so nothing is downloaded twice), then Maven
 * Central, into the local repository the test gives, in {@code target/}: nothing of ours reaches
 * the user's {@code ~/.m2}, and the builds and the consumer's tests keep their temp files in {@code
 * target/} too.
 */
final class ConsumerBuild {
  static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();

  /** {@code <!-- consumer: PATH -->}, then a fenced block: the block's text is the file PATH. */
  static final Pattern MARKED =
      Pattern.compile("<!-- consumer: ([\\w./-]+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);

  /** Surefire's summary of a run: {@code Tests run: N, Failures: ...}, the last one printed. */
  private static final Pattern TESTS_RUN =
      Pattern.compile(
          "(?m)^(?:\\[\\w+\\] )?Tests run: (\\d+), Failures: \\d+, Errors: \\d+, Skipped: \\d+$");

  /** The published modules: artifact id, and its folder (none: a POM file of the root). */
  static final Map<String, String> PUBLISHED = new LinkedHashMap<>();

  static {
    PUBLISHED.put("agentdouble-parent", "pom.xml");
    PUBLISHED.put("agentdouble-bom", "bom.xml");
    PUBLISHED.put("agentdouble-fixtures", "fixtures");
    PUBLISHED.put("agentdouble-fake-agent", "fake-agent");
    PUBLISHED.put("agentdouble-recorder", "recorder");
    PUBLISHED.put("agentdouble-junit", "junit-extension");
  }

  private ConsumerBuild() {}

  /**
   * The Mavens a consumer is built with, oldest first, each named by its folder: the distributions
   * this module's build unpacks in {@code target/mavens}.
   */
  static Stream<Named<Path>> mavens() {
    String homes = System.getProperty("agentdouble.mavens", "");
    assertThat(homes)
        .as("agentdouble.mavens: the consumer builds run in junit-extension's failsafe phase")
        .isNotEmpty();
    return Stream.of(homes.split(","))
        .map(Path::of)
        .peek(
            home ->
                assertThat(home.resolve("bin/mvn"))
                    .as("unpacked by the pre-integration-test phase")
                    .isExecutable())
        .map(home -> Named.of(home.getFileName().toString(), home));
  }

  /** What {@code docs} mark for the consumer: path → content, in the docs' order. */
  static Map<String, String> marked(List<String> docs) throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    for (String doc : docs) {
      Matcher m = MARKED.matcher(Files.readString(ROOT.resolve(doc)));
      while (m.find()) {
        String previous = files.put(m.group(1), m.group(2));
        assertThat(previous).as("%s: a second block marked for %s", doc, m.group(1)).isNull();
      }
    }
    return files;
  }

  /** A project in {@code project} whose files are {@code files} (path → content), as they are. */
  static Path write(Path project, Map<String, String> files) throws IOException {
    Files.createDirectories(project);
    for (Map.Entry<String, String> file : files.entrySet()) {
      Path to = project.resolve(file.getKey());
      Files.createDirectories(to.getParent());
      Files.writeString(to, file.getValue());
    }
    return project;
  }

  /** Installs the published modules in {@code repo} as {@code mvn install} lays them out. */
  static Path install(Path repo) throws IOException {
    String version = Release.VERSION;
    for (Map.Entry<String, String> module : PUBLISHED.entrySet()) {
      String artifact = module.getKey();
      Path into = repo.resolve("dev/agentdouble").resolve(artifact).resolve(version);
      Files.createDirectories(into);
      String base = artifact + "-" + version;
      if (module.getValue().endsWith(".xml")) {
        copy(ROOT.resolve(module.getValue()), into.resolve(base + ".pom"));
        continue;
      }
      Path folder = ROOT.resolve(module.getValue());
      copy(folder.resolve("pom.xml"), into.resolve(base + ".pom"));
      for (String suffix : List.of(".jar", "-sources.jar", "-javadoc.jar")) {
        copy(folder.resolve("target").resolve(base + suffix), into.resolve(base + suffix));
      }
    }
    return repo;
  }

  private static void copy(Path from, Path to) throws IOException {
    assertThat(from).as("built by the package phase").isRegularFile();
    Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
  }

  /** A build's Maven, its exit status, its output, and the temp folder it was given. */
  record Run(Path maven, int exit, String output, Path tmp) {}

  /**
   * {@code mvn test} in {@code project} with the Maven at {@code maven} on the JDK at {@code
   * javaHome}, with {@code repo} as its local repository, bounded. Only the command line and the
   * environment are ours: the settings (this build's repository first), the local repository, and
   * the temp folder of Maven and of the project's test JVMs ({@code argLine}: the docs' POMs set
   * none), in {@code dir}, with the log.
   */
  static Run mvnTest(Path maven, Path dir, Path project, Path repo, Path javaHome)
      throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    List<String> command =
        List.of(
            maven.resolve("bin/mvn").toString(),
            "-B",
            "-V",
            "-ntp",
            "-Dstyle.color=never",
            "-s",
            settings(dir).toString(),
            "-Dmaven.repo.local=" + repo,
            "-DargLine=-Djava.io.tmpdir=" + tmp,
            "test");
    try (TestProcess mvn =
        TestProcess.command(command)
            .directory(project)
            .mergeErrors()
            .noStdin()
            .withoutEnv("AGENTDOUBLE_", "MAVEN_", "M2_HOME")
            .env("JAVA_HOME", javaHome.toString())
            .env("MAVEN_OPTS", "-Djava.io.tmpdir=" + tmp)
            .env("TMPDIR", tmp.toString())
            .patience(Duration.ofMinutes(12))
            .start()) {
      int exit;
      try {
        exit = mvn.waitFor();
      } finally {
        // the log, kept with the folder of a failed test
        Files.writeString(dir.resolve("mvn.log"), mvn.out(), StandardCharsets.UTF_8);
      }
      return new Run(maven, exit, mvn.out(), tmp);
    }
  }

  /**
   * User settings in {@code dir} whose repositories are this build's local repository, before Maven
   * Central (a local repository keeps no checksums: not checked there).
   */
  private static Path settings(Path dir) throws IOException {
    Path cache =
        Path.of(
            System.getProperty(
                "agentdouble.mavenRepository",
                Path.of(System.getProperty("user.home"), ".m2", "repository").toString()));
    Path settings = dir.resolve("settings.xml");
    Files.writeString(
        settings,
        """
        <settings>
          <profiles>
            <profile>
              <id>build-cache</id>
              <repositories>
                <repository>
                  <id>build-cache</id><url>%1$s</url>
                  <releases><checksumPolicy>ignore</checksumPolicy></releases>
                </repository>
              </repositories>
              <pluginRepositories>
                <pluginRepository>
                  <id>build-cache</id><url>%1$s</url>
                  <releases><checksumPolicy>ignore</checksumPolicy></releases>
                </pluginRepository>
              </pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles><activeProfile>build-cache</activeProfile></activeProfiles>
        </settings>
        """
            .formatted(cache.toUri()));
    return settings;
  }

  /**
   * The build passed, quietly, and ran the consumer's tests: a report per marked test class of
   * {@code files}, each with tests and none failed, errored or skipped, in the JVM whose temp
   * folder is the run's; on the Maven asked for.
   */
  static void assertPassed(Run run, Path project, Map<String, String> files) throws IOException {
    String version = run.maven().getFileName().toString().replaceFirst("^apache-maven-", "");
    assertThat(run.output()).as("the Maven that ran").contains("Apache Maven " + version + " ");
    assertThat(run.exit()).as("mvn test in the consumer project:\n%s", run.output()).isZero();
    Matcher summary = TESTS_RUN.matcher(run.output());
    String ran = null;
    while (summary.find()) {
      ran = summary.group(1);
    }
    assertThat(ran)
        .as("tests run, by surefire's summary (none: it found no JUnit 5 test):\n%s", run.output())
        .isNotNull()
        .isNotEqualTo("0");
    // quiet: WireMock's own SLF4J finds no provider on a user's classpath, and says nothing
    assertThat(run.output()).doesNotContain("SLF4J");
    List<Path> reports = reports(project);
    long marked = files.keySet().stream().filter(k -> k.startsWith("src/test/java/")).count();
    assertThat(reports).as("a report per marked test class").hasSize((int) marked);
    for (Path report : reports) {
      String xml = Files.readString(report);
      assertThat(xml)
          .as("%s", report.getFileName())
          .containsPattern("tests=\"[1-9]")
          .contains("failures=\"0\"", "errors=\"0\"", "skipped=\"0\"");
      assertThat(property(report, "java.io.tmpdir")).isEqualTo(run.tmp().toString());
    }
  }

  /** The surefire reports of {@code project}'s test classes. */
  static List<Path> reports(Path project) throws IOException {
    Path folder = project.resolve("target/surefire-reports");
    assertThat(folder).as("surefire's reports: no test ran").isDirectory();
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith("TEST-")).toList();
    }
  }

  /** A system property of the test JVM, as {@code report} records it. */
  static String property(Path report, String name) {
    try {
      Matcher m =
          Pattern.compile("<property name=\"" + Pattern.quote(name) + "\" value=\"([^\"]*)\"")
              .matcher(Files.readString(report));
      assertThat(m.find()).as("%s in %s", name, report.getFileName()).isTrue();
      return m.group(1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
