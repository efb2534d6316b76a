package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.Sources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Exit statuses are named once, in {@code dev.agentdouble.contract.ExitStatus}: the recorder's main
 * code returns no bare integer, and neither exits with one nor keeps one as a status.
 */
class ExitStatusLiteralsTest {
  private static final Pattern BARE_STATUS =
      Pattern.compile(
          "return\\s+-?\\d+\\s*;"
              + "|return\\s+[^;]*\\?\\s*-?\\d+\\s*:\\s*-?\\d+\\s*;"
              + "|System\\.exit\\(\\s*-?\\d+"
              + "|\\b\\w*(?:[Ss]tatus|[Ee]xit)\\w*\\s*=\\s*-?\\d+\\s*;");

  static List<String> bareStatuses(String src) {
    List<String> found = new ArrayList<>();
    Matcher m = BARE_STATUS.matcher(Sources.withoutCommentsAndStrings(src));
    while (m.find()) {
      found.add(m.group());
    }
    return found;
  }

  @Test
  void theRecordersMainCodeNamesEveryExitStatus() throws IOException {
    Path main = Cli.root().resolve("recorder/src/main/java");
    List<String> offending = new ArrayList<>();
    int files = 0;
    try (Stream<Path> walk = Files.walk(main)) {
      for (Path file : walk.filter(f -> f.toString().endsWith(".java")).toList()) {
        files++;
        for (String found : bareStatuses(Files.readString(file, StandardCharsets.UTF_8))) {
          offending.add(main.relativize(file) + ": " + found);
        }
      }
    }

    assertThat(files).as("the sources scanned").isGreaterThan(30);
    assertThat(offending).as("use the constants of dev.agentdouble.contract.ExitStatus").isEmpty();
  }

  @Test
  void theScanFindsBareStatusesButNotCommentsStringsOrNamedOnes() {
    String src =
        """
        // return 1;
        /* return 2; */
        String s = "return 3;";
        int a() { return 0; }
        int b() { return ok ? 0 : 1; }
        void c() { System.exit(2); }
        void d() { status = 70; }
        int e() { return ExitStatus.OK; }
        int f() { return n == 1 ? ExitStatus.OK : ExitStatus.FAILED; }
        """;

    assertThat(bareStatuses(src))
        .containsExactly("return 0;", "return ok ? 0 : 1;", "System.exit(2", "status = 70;");
  }
}
