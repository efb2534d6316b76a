package dev.agentdouble.junit.internal.control;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One value, one place: a test's {@code Invocation} is made from the fake's invocation record in
 * {@link Invocations} only, and a tape's {@code match} is evaluated in {@code contract.MatchMiss}
 * only (the fake's tape selection and serve's report both ask it), in every module's main code.
 */
class OnePlaceTest {
  /** The main sources of every module that contain {@code text}, relative to the root. */
  private static List<String> mainSourcesContaining(String text) throws IOException {
    Path root = Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();
    try (Stream<Path> files = Files.walk(root, 12)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> root.relativize(f).toString().matches("[\\w-]+/src/main/java/.*"))
          .filter(f -> read(f).contains(text))
          .map(f -> root.relativize(f).toString())
          .sorted()
          .toList();
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void anInvocationIsMadeFromTheInvocationRecordInOnePlace() throws IOException {
    assertThat(mainSourcesContaining("new Invocation("))
        .containsExactly(
            "junit-extension/src/main/java/dev/agentdouble/junit/internal/control/Invocations.java");
  }

  @Test
  void aTapesMatchIsEvaluatedInOnePlace() throws IOException {
    assertThat(mainSourcesContaining(".promptPattern()"))
        .containsExactly("fixtures/src/main/java/dev/agentdouble/contract/MatchMiss.java");
  }
}
