package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What {@code agentdouble-junit} adds to a consumer's test classpath: its runtime classpath, as the
 * build writes it beside the jar ({@code target/classpath.txt}, the same file {@code serve} runs
 * on). Our jars, Jackson (a declared dependency), WireMock's standalone jar (its own dependencies
 * shaded inside) and the JUnit API the extension implements: nothing that collides with an
 * application's own Jetty, Guava or other libraries.
 */
class ConsumerClasspathIT {
  /** The jars a consumer gets, by artifact name, besides our own. */
  private static final List<String> ALLOWED =
      List.of(
          "jackson-databind",
          "jackson-core",
          "jackson-annotations",
          "wiremock-standalone",
          "junit-jupiter-api",
          "junit-jupiter-params",
          "junit-platform-commons",
          "opentest4j",
          "apiguardian-api");

  /** Libraries applications bring in their own versions: never on a consumer's classpath by us. */
  private static final Pattern COLLIDING =
      Pattern.compile(
          "(jetty|http2|guava|failureaccess|handlebars|commons-|httpclient|httpcore|xmlunit|json-path"
              + "|json-smart|snakeyaml|jopt|slf4j|wiremock-\\d).*");

  @Test
  void aConsumerGetsOurJarsJacksonWireMocksStandaloneJarAndTheJUnitApi() throws IOException {
    Path file =
        Path.of(
            System.getProperty("agentdouble.root", ".."),
            "junit-extension",
            "target",
            "classpath.txt");
    List<String> jars =
        Arrays.stream(
                Files.readString(file, StandardCharsets.UTF_8).strip().split(File.pathSeparator))
            .map(p -> Path.of(p).getFileName().toString())
            .toList();
    System.out.println(
        "agentdouble-junit brings "
            + (jars.size() + 1)
            + " jars (itself included): "
            + String.join(", ", jars));

    assertThat(jars)
        .filteredOn(jar -> COLLIDING.matcher(jar).matches())
        .as("jars that collide with an application's own")
        .isEmpty();
    assertThat(jars)
        .filteredOn(jar -> !jar.startsWith("agentdouble-"))
        .allSatisfy(
            jar ->
                assertThat(ALLOWED)
                    .anySatisfy(a -> assertThat(jar).matches(Pattern.quote(a) + "-\\d.*\\.jar")));
    assertThat(jars)
        .filteredOn(jar -> jar.startsWith("agentdouble-"))
        .hasSize(3); // fixtures, fake-agent, recorder
    assertThat(jars.size() + 1)
        .as("jars in all, agentdouble-junit included")
        .isLessThanOrEqualTo(13);
  }
}
