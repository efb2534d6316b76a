package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.agentdouble.contract.Release;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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
 * A user's own Maven project, following the README alone: the artifacts installed in a Maven
 * repository as {@code mvn install} installs them (POMs, jars, sources, javadoc), a project whose
 * files are the blocks of the README and docs/junit.md marked {@code <!-- consumer: PATH -->},
 * copied as they are (its {@code pom.xml} included: nothing of ours is added to it), then {@code
 * mvn test} in it: with the oldest Maven the README supports and with a Maven 3.9, each on its
 * default plugins for whatever the POM leaves to them, on the build's Java with the README's JUnit;
 * and on Java 25 with JUnit 5.10 through the JUnit BOM the README shows.
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
  static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();

  /** {@code <!-- consumer: PATH -->}, then a fenced block: the block's text is the file PATH. */
  private static final Pattern MARKED =
      Pattern.compile("<!-- consumer: ([\\w./-]+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);

  /** Surefire's summary of a run: {@code Tests run: N, Failures: ...}, the last one printed. */
  private static final Pattern TESTS_RUN =
      Pattern.compile(
          "(?m)^(?:\\[\\w+\\] )?Tests run: (\\d+), Failures: \\d+, Errors: \\d+, Skipped: \\d+$");

  /** The docs that hold the consumer's files. */
  private static final List<String> DOCS = List.of("README.md", "docs/junit.md");

  /** The marked block that is part of the POM, not a file: JUnit's BOM, when asked. */
  private static final String JUNIT_BOM = "junit-bom";

  /** The published modules: artifact id, and its folder (none: a POM file of the root). */
  private static final Map<String, String> PUBLISHED = new LinkedHashMap<>();

  static {
    PUBLISHED.put("agentdouble-parent", "pom.xml");
    PUBLISHED.put("agentdouble-bom", "bom.xml");
    PUBLISHED.put("agentdouble-fixtures", "fixtures");
    PUBLISHED.put("agentdouble-fake-agent", "fake-agent");
    PUBLISHED.put("agentdouble-recorder", "recorder");
    PUBLISHED.put("agentdouble-junit", "junit-extension");
  }

  @TempDir Path dir;

  /** The local repository of every build of the class: the installed artifacts, and the rest. */
  @TempDir static Path shared;

  private static Path repo;

  @BeforeAll
  static void installTheArtifacts() throws IOException {
    repo = install(shared.resolve("repository"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mavens")
  void theReadmesProjectPassesOnTheBuildsJava(Path maven) throws Exception {
    Path project = consumer(dir.resolve("consumer"), false);

    Run run = mvnTest(maven, project, Path.of(System.getProperty("java.home")));

    assertPassed(run, project);
  }

  @Test
  void theReadmesProjectPassesOnJava25WithJUnit510() throws Exception {
    Optional<Path> jdk25 = jdk(25);
    assumeTrue(
        jdk25.isPresent(),
        "no JDK 25 under /usr/lib/jvm and AGENTDOUBLE_JDK25 unset: the Java 25 run is not made");
    List<Path> mavens = mavens().map(Named::getPayload).toList();
    Path project = consumer(dir.resolve("consumer"), true);

    Run run = mvnTest(mavens.get(mavens.size() - 1), project, jdk25.get());

    assertPassed(run, project);
    // what its tests ran on: JUnit 5.10's jars, not ours
    assertThat(reports(project))
        .allSatisfy(
            report ->
                assertThat(property(report, "surefire.test.class.path"))
                    .contains("/junit-jupiter-api-5.10.2.jar", "/junit-jupiter-engine-5.10.2.jar")
                    .doesNotContain("5.14.1"));
  }

  /**
   * The Mavens the consumer is built with, oldest first, each named by its folder: the
   * distributions this module's build unpacks in {@code target/mavens}.
   */
  static Stream<Named<Path>> mavens() {
    String homes = System.getProperty("agentdouble.mavens", "");
    assertThat(homes)
        .as("agentdouble.mavens: ConsumerMavenIT runs in junit-extension's failsafe phase")
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
    Map<String, String> files = new LinkedHashMap<>();
    for (String doc : DOCS) {
      Matcher m = MARKED.matcher(Files.readString(ROOT.resolve(doc)));
      while (m.find()) {
        String previous = files.put(m.group(1), m.group(2));
        assertThat(previous).as("%s: a second block marked for %s", doc, m.group(1)).isNull();
      }
    }
    return files;
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

  /** Installs the published modules in {@code repo} as {@code mvn install} lays them out. */
  private static Path install(Path repo) throws IOException {
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

  /**
   * A Maven project of the marked blocks, each file as it is; with {@code junitBom}, the POM with
   * the JUnit BOM's {@code dependencyManagement} before its {@code dependencies} and without {@code
   * junit-jupiter}'s version, as the README says.
   */
  private static Path consumer(Path project, boolean junitBom) throws IOException {
    Map<String, String> files = marked();
    Files.createDirectories(project);
    for (Map.Entry<String, String> file : files.entrySet()) {
      if (file.getKey().equals(JUNIT_BOM)) {
        continue;
      }
      String text = file.getValue();
      if (file.getKey().equals("pom.xml") && junitBom) {
        text = withTheJUnitBom(text, files.get(JUNIT_BOM));
      }
      Path to = project.resolve(file.getKey());
      Files.createDirectories(to.getParent());
      Files.writeString(to, text);
    }
    return project;
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

  /** A build's Maven, its exit status, its output, and the temp folder it was given. */
  record Run(Path maven, int exit, String output, Path tmp) {}

  /**
   * {@code mvn test} in {@code project} with the Maven at {@code maven} on the JDK at {@code
   * javaHome}, bounded. Only the command line and the environment are ours: the settings (this
   * build's repository first), the local repository, and the temp folder of Maven and of the
   * project's test JVMs ({@code argLine}: the README's POM sets none), under {@code target/}.
   */
  private Run mvnTest(Path maven, Path project, Path javaHome) throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    List<String> command =
        List.of(
            maven.resolve("bin/mvn").toString(),
            "-B",
            "-V",
            "-ntp",
            "-Dstyle.color=never",
            "-s",
            settings().toString(),
            "-Dmaven.repo.local=" + repo,
            "-DargLine=-Djava.io.tmpdir=" + tmp,
            "test");
    Path log = dir.resolve("mvn.log");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment()
        .keySet()
        .removeIf(
            k -> k.startsWith("AGENTDOUBLE_") || k.startsWith("MAVEN_") || k.equals("M2_HOME"));
    pb.environment().put("JAVA_HOME", javaHome.toString());
    pb.environment().put("MAVEN_OPTS", "-Djava.io.tmpdir=" + tmp);
    pb.environment().put("TMPDIR", tmp.toString());
    Process p = pb.start();
    try {
      if (!p.waitFor(12, TimeUnit.MINUTES)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new AssertionError(
            "mvn test in the consumer project took over 12 minutes:\n" + tail(log));
      }
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
    }
    return new Run(maven, p.exitValue(), Files.readString(log, StandardCharsets.UTF_8), tmp);
  }

  /**
   * User settings whose repositories are this build's local repository, before Maven Central (a
   * local repository keeps no checksums: not checked there).
   */
  private Path settings() throws IOException {
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

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 120), lines.size()));
  }

  /**
   * The build passed, and ran the consumer's tests: a report per marked test class, each with tests
   * and none failed or skipped, in the JVM whose temp folder is the run's; on the Maven asked for.
   */
  private static void assertPassed(Run run, Path project) throws IOException {
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
    long marked = marked().keySet().stream().filter(k -> k.startsWith("src/test/java/")).count();
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
  private static List<Path> reports(Path project) throws IOException {
    Path folder = project.resolve("target/surefire-reports");
    assertThat(folder).as("surefire's reports: no test ran").isDirectory();
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> f.getFileName().toString().startsWith("TEST-")).toList();
    }
  }

  /** A system property of the test JVM, as {@code report} records it. */
  private static String property(Path report, String name) {
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
