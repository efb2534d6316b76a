package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
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

  /** The source of the test class {@code name}, in any module. */
  static String source(String name) throws IOException {
    List<Path> files;
    try (Stream<Path> all = Files.walk(ROOT, 12)) {
      files =
          all.filter(p -> p.endsWith(name + ".java"))
              .filter(p -> p.toString().contains("/src/test/java/"))
              .toList();
    }
    assertThat(files).as("the test class %s under %s", name, ROOT).hasSize(1);
    return Files.readString(files.get(0));
  }
}
