package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every code fence of the pages opens and closes on a line of its own, as CommonMark reads them: a
 * fence closed on the line of a {@code }} is no fence, and on GitHub the rest of the page renders
 * as code.
 */
class DocFencesTest {
  /** An opening fence: up to 3 spaces, 3 or more backticks, an info string without backticks. */
  private static final Pattern OPENING = Pattern.compile("^ {0,3}(`{3,})[^`]*$");

  @Test
  void everyFenceOfTheDocsOpensAndClosesOnALineOfItsOwn() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(DocSnippetsTest.ROOT.resolve("README.md"));
    pages.add(DocSnippetsTest.ROOT.resolve("bench/README.md"));
    try (Stream<Path> docs = Files.list(DocSnippetsTest.ROOT.resolve("docs"))) {
      docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> problems = new ArrayList<>();
    for (Path page : pages) {
      problems.addAll(
          problems(DocSnippetsTest.ROOT.relativize(page).toString(), Files.readString(page)));
    }
    assertThat(pages).hasSizeGreaterThan(5);
    assertThat(problems).isEmpty();
  }

  @Test
  void aFenceClosedOnTheLineOfABraceIsAProblem() {
    assertThat(problems("a.md", "text\n```java\nvoid f() {\n}```\n\nmore text\n"))
        .containsExactly(
            "a.md:4: a closing fence on a line of code (the block opened at line 2)",
            "a.md:2: a fence never closed");
  }

  @Test
  void aFenceOpenedInsideABlockIsAProblem() {
    assertThat(problems("a.md", "```java\nint a;\n```java\nint b;\n```\n"))
        .containsExactly("a.md:3: a fence opened inside the block opened at line 1");
  }

  @Test
  void aLongerFenceHoldsShorterOnesAndClosesOnALineOfItsOwn() {
    assertThat(problems("a.md", "````markdown\n```java\nint a;\n```\n  ````  \nafter\n")).isEmpty();
  }

  /**
   * What is wrong with the fences of {@code text} (the page {@code page}), one message a line: a
   * closing fence is a line of 3 spaces at most, then at least as many backticks as its opening
   * fence, then spaces only.
   */
  static List<String> problems(String page, String text) {
    List<String> problems = new ArrayList<>();
    String[] lines = text.split("\n", -1);
    int openedAt = 0;
    int ticks = 0;
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      int n = i + 1;
      if (openedAt == 0) {
        Matcher opening = OPENING.matcher(line);
        if (opening.matches()) {
          openedAt = n;
          ticks = opening.group(1).length();
        }
      } else if (line.matches(" {0,3}`{" + ticks + ",}[ \\t]*")) {
        openedAt = 0;
      } else if (line.matches(" {0,3}`{" + ticks + ",}[^`\\s].*")) {
        problems.add(
            page + ":" + n + ": a fence opened inside the block opened at line " + openedAt);
      } else if (line.matches(".*\\S.*`{" + ticks + ",}[ \\t]*")) {
        problems.add(
            page
                + ":"
                + n
                + ": a closing fence on a line of code (the block opened at line "
                + openedAt
                + ")");
      }
    }
    if (openedAt != 0) {
      problems.add(page + ":" + openedAt + ": a fence never closed");
    }
    return problems;
  }
}
