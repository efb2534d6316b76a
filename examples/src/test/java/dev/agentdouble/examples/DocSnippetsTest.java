package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.Sources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Java snippets of the docs that say where they come from ("From `CookbookTest.method`...") are
 * that test method, verbatim: a snippet cannot drift from the code that compiles and passes.
 */
class DocSnippetsTest {
  static final Path ROOT =
      Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();

  /** "From `Class.method`", the rest of its paragraph, a blank line, then a java block. */
  static final Pattern NAMED_SNIPPET =
      Pattern.compile(
          "From\\s+`(\\w+)\\.(\\w+)`(?:(?!\\n\\n).)*\\n\\n```java\\n(.*?)```", Pattern.DOTALL);

  @ParameterizedTest
  @CsvSource({"docs/cookbook.md, 20", "README.md, 1"})
  void everyNamedSnippetIsTheTestMethodItNames(String doc, int atLeast) throws IOException {
    Matcher m = NAMED_SNIPPET.matcher(Files.readString(ROOT.resolve(doc)));
    int snippets = 0;
    while (m.find()) {
      snippets++;
      String name = m.group(1) + "." + m.group(2);
      String snippet = m.group(3);
      assertThat(snippet)
          .as("%s: the snippet from %s", doc, name)
          .contains(" void " + m.group(2) + "(");
      assertThat(source(m.group(1)))
          .as("%s: the snippet from %s, in %s", doc, name, m.group(1))
          .contains(snippet);
    }
    assertThat(snippets).as("named snippets in %s", doc).isGreaterThanOrEqualTo(atLeast);
  }

  /** A java block, and the text before it that says where it comes from. */
  static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

  /** A test class named in backquotes, with or without a method: `RetryTest.retries`. */
  static final Pattern NAMED_CLASS = Pattern.compile("`([A-Z]\\w*)(?:\\.\\w+)?`");

  /** The marker of a block that is a file of a user's project, right before the block. */
  static final Pattern CONSUMER_FILE = Pattern.compile("<!-- consumer: [\\w./-]+ -->\\n$");

  /** The guides whose every java block is copied from the test class named before it. */
  @ParameterizedTest
  @CsvSource({"docs/junit.md, 15"})
  void everySnippetOfAGuideIsInTheTestClassNamedBeforeIt(String doc, int atLeast)
      throws IOException {
    String guide = Files.readString(ROOT.resolve(doc));
    Matcher block = BLOCK.matcher(guide);
    int checked = 0;
    while (block.find()) {
      String before = guide.substring(Math.max(0, block.start() - 600), block.start());
      if (CONSUMER_FILE.matcher(before).find()) {
        continue; // a file of a user's project: ConsumerMavenIT or AcpDocsConsumerIT runs it
      }
      List<String> named = new ArrayList<>();
      Matcher m = NAMED_CLASS.matcher(before);
      while (m.find()) {
        if (testSource(m.group(1)).isPresent()) {
          named.add(m.group(1));
        }
      }
      int line = 1 + (int) guide.substring(0, block.start()).chars().filter(c -> c == '\n').count();
      assertThat(named)
          .as("%s:%d: a java block that names no test class before it", doc, line)
          .isNotEmpty();
      String name = named.get(named.size() - 1);
      assertThat(source(name))
          .as("%s:%d: the snippet from %s", doc, line, name)
          .contains(block.group(1));
      checked++;
    }
    assertThat(checked).as("snippets in %s", doc).isGreaterThanOrEqualTo(atLeast);
  }

  /** The source of the test class {@code name}, when there is one in some module. */
  static Optional<Path> testSource(String name) throws IOException {
    return Optional.ofNullable(testSources().get(name));
  }

  private static Map<String, Path> testSources;

  /** Every test source file of every module, by class name. */
  private static synchronized Map<String, Path> testSources() throws IOException {
    if (testSources == null) {
      testSources =
          Sources.javaFiles("test").stream()
              .collect(
                  Collectors.toMap(
                      p -> p.getFileName().toString().replaceFirst("\\.java$", ""),
                      p -> p,
                      (a, b) -> a));
    }
    return testSources;
  }

  /** The source of the test class {@code name}, in any module. */
  static String source(String name) throws IOException {
    List<Path> files =
        Sources.javaFiles("test").stream().filter(p -> p.endsWith(name + ".java")).toList();
    assertThat(files).as("the test class %s under %s", name, ROOT).hasSize(1);
    return Files.readString(files.get(0));
  }
}
