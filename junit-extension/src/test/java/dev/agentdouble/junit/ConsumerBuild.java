package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.Release;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A user's own Maven project built on this build's artifacts, for the tests that hold a page to
 * what runs ({@link ConsumerMavenIT}, {@link AcpDocsConsumerIT}): the published modules installed
 * in a Maven repository as {@code mvn install} lays them out, the project's files taken from the
 * blocks of the docs marked {@code <!-- consumer: PATH -->}, and {@code mvn test} run in it.
 *
 * <p>The project's Maven resolves everything else from the build's own local repository (a {@code
 * file:} repository, so nothing is downloaded twice), then Maven Central; its own local repository
 * is a temp folder, so nothing of ours reaches the user's {@code ~/.m2}.
 */
final class ConsumerBuild {
  static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();

  /** {@code <!-- consumer: PATH -->}, then a fenced block: the block's text is the file PATH. */
  static final Pattern MARKED =
      Pattern.compile("<!-- consumer: ([\\w./-]+) -->\\n```\\w*\\n(.*?)```", Pattern.DOTALL);

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

  record Run(int exit, String output) {}

  /**
   * {@code mvn test} in {@code project} on the JDK at {@code javaHome}, bounded; its settings and
   * log in {@code dir}.
   */
  static Run mvnTest(Path dir, Path project, Path repo, Path javaHome) throws Exception {
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
                <repository><id>build-cache</id><url>%1$s</url></repository>
              </repositories>
              <pluginRepositories>
                <pluginRepository><id>build-cache</id><url>%1$s</url></pluginRepository>
              </pluginRepositories>
            </profile>
          </profiles>
          <activeProfiles><activeProfile>build-cache</activeProfile></activeProfiles>
        </settings>
        """
            .formatted(cache.toUri()));
    String mavenHome = System.getProperty("maven.home", "");
    String mvn = mavenHome.isEmpty() ? "mvn" : Path.of(mavenHome, "bin", "mvn").toString();
    List<String> command =
        List.of(
            mvn,
            "-B",
            "-Dstyle.color=never",
            "-s",
            settings.toString(),
            "-Dmaven.repo.local=" + repo,
            "test");
    Path log = dir.resolve("mvn.log");
    ProcessBuilder pb =
        new ProcessBuilder(command)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_") || k.equals("MAVEN_ARGS"));
    pb.environment().put("JAVA_HOME", javaHome.toString());
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
    return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 120), lines.size()));
  }

  /**
   * The build passed, quietly, and ran every marked test class of {@code files}: a report each,
   * with at least one test, none failed, errored or skipped.
   */
  static void assertPassed(Run run, Path project, Map<String, String> files) throws IOException {
    assertThat(run.exit()).as("mvn test in the consumer project:\n%s", run.output()).isZero();
    // quiet: WireMock's own SLF4J finds no provider on a user's classpath, and says nothing
    assertThat(run.output()).doesNotContain("SLF4J");
    List<Path> reports;
    try (Stream<Path> all = Files.list(project.resolve("target/surefire-reports"))) {
      reports = all.filter(f -> f.getFileName().toString().startsWith("TEST-")).toList();
    }
    long marked = files.keySet().stream().filter(k -> k.startsWith("src/test/java/")).count();
    assertThat(reports).as("a report per marked test class").hasSize((int) marked);
    for (Path report : reports) {
      String xml = Files.readString(report);
      assertThat(xml)
          .as("%s", report.getFileName())
          .containsPattern("tests=\"[1-9]")
          .contains("failures=\"0\"", "errors=\"0\"", "skipped=\"0\"");
    }
  }
}
