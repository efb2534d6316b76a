package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.FakeEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The environment's names are written once, in {@code dev.agentdouble.contract}: no string literal
 * (text blocks included) of any module's {@code src/main}, nor of {@code bench/*.java}, holds
 * {@code AGENTDOUBLE_}. Comments may name them.
 */
class ContractLiteralsTest {
  private static final String CONTRACT = "dev/agentdouble/contract/";

  /** The string literals and text blocks of a Java source, comments and char literals skipped. */
  static List<String> literals(String src) {
    List<String> found = new ArrayList<>();
    int i = 0;
    int n = src.length();
    while (i < n) {
      char c = src.charAt(i);
      if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
        int end = src.indexOf('\n', i);
        i = end < 0 ? n : end;
      } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
        int end = src.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (src.startsWith("\"\"\"", i)) {
        int j = i + 3;
        while (j < n && !src.startsWith("\"\"\"", j)) {
          j += src.charAt(j) == '\\' ? 2 : 1;
        }
        found.add(src.substring(i + 3, Math.min(j, n)));
        i = j + 3;
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < n && src.charAt(j) != c && src.charAt(j) != '\n') {
          j += src.charAt(j) == '\\' ? 2 : 1;
        }
        if (c == '"') {
          found.add(src.substring(i + 1, Math.min(j, n)));
        }
        i = j + 1;
      } else {
        i++;
      }
    }
    return found;
  }

  private static List<Path> sources() throws IOException {
    Path root = Cli.root();
    List<Path> files = new ArrayList<>();
    try (Stream<Path> modules = Files.list(root)) {
      for (Path module : modules.toList()) {
        Path main = module.resolve("src/main/java");
        if (Files.isDirectory(main)) {
          try (Stream<Path> walk = Files.walk(main)) {
            walk.filter(f -> f.toString().endsWith(".java")).forEach(files::add);
          }
        }
      }
    }
    try (Stream<Path> bench = Files.list(root.resolve("bench"))) {
      bench.filter(f -> f.toString().endsWith(".java")).forEach(files::add);
    }
    return files;
  }

  @Test
  void noStringLiteralOutsideTheContractNamesAVariable() throws IOException {
    List<Path> files = sources();
    List<String> offending = new ArrayList<>();
    for (Path file : files) {
      if (file.toString().replace('\\', '/').contains("/src/main/java/" + CONTRACT)) {
        continue;
      }
      String src;
      try {
        src = Files.readString(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      for (String literal : literals(src)) {
        if (literal.contains(FakeEnvironment.PREFIX)) {
          offending.add(Cli.root().relativize(file) + ": \"" + literal + "\"");
        }
      }
    }

    assertThat(files).as("the sources scanned").hasSizeGreaterThan(100);
    assertThat(offending)
        .as("use the constants of dev.agentdouble.contract.FakeEnvironment")
        .isEmpty();
  }

  @Test
  void theScanFindsLiteralsAndTextBlocksButNotComments() {
    String prefix = FakeEnvironment.PREFIX;
    String src =
        "// \""
            + prefix
            + "A\"\n/* \""
            + prefix
            + "B\" */ char q = '\"';\n"
            + "String s = \"x\\\""
            + prefix
            + "C\";\nString t = \"\"\"\n  "
            + prefix
            + "D\n  \"\"\";";

    assertThat(literals(src)).containsExactly("x\\\"" + prefix + "C", "\n  " + prefix + "D\n  ");
  }
}
