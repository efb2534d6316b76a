package dev.agentdouble.fake.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

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
 * A CLI version is data: what differs between versions is read from its profile resource by {@link
 * ProfileResource}, and no code asks which version it runs as. A new version is a new resource, not
 * a hunt through the code.
 */
class CliVersionAsDataTest {
  private static final Path MAIN = Path.of("src/main/java");

  /** A string literal of Java source, escapes included. */
  private static final Pattern LITERAL = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"");

  /** A CLI version's name or version line, e.g. {@code 2026.10} or {@code 2026.10.01-e373342}. */
  private static final Pattern VERSION = Pattern.compile("\\b20\\d\\d\\.\\d\\d\\b");

  /** The code of {@code line}: nothing of a comment. */
  private static String code(String line) {
    String t = line.strip();
    if (t.startsWith("*") || t.startsWith("/*") || t.startsWith("//")) {
      return "";
    }
    int comment = t.indexOf("// ");
    return comment < 0 ? t : t.substring(0, comment);
  }

  private static List<String> offending(Pattern pattern, boolean inLiterals) throws IOException {
    assertThat(MAIN).as("the main sources, from the module's folder").isDirectory();
    List<String> found = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(MAIN)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    for (Path file : files) {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      for (int i = 0; i < lines.size(); i++) {
        String code = code(lines.get(i));
        List<String> parts = new ArrayList<>();
        if (inLiterals) {
          Matcher m = LITERAL.matcher(code);
          while (m.find()) {
            parts.add(m.group());
          }
        } else {
          parts.add(code);
        }
        for (String part : parts) {
          if (pattern.matcher(part).find()) {
            found.add(MAIN.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
          }
        }
      }
    }
    return found;
  }

  @Test
  void noMainSourceNamesACliVersion() throws IOException {
    assertThat(offending(VERSION, true))
        .as("version names in code; a version's values belong in its profile-<name>.txt")
        .isEmpty();
    assertThat(offending(Pattern.compile("^\"documented\"$"), true))
        .as("the documented profile's name in code")
        .isEmpty();
  }

  @Test
  void noCodeComparesSurfacesOrSwitchesOverThem() throws IOException {
    assertThat(Profile.Surface.class.isEnum()).as("a surface is data, not a closed set").isFalse();
    assertThat(
            offending(Pattern.compile("surface\\(\\)\\s*[!=]=|[!=]=\\s*\\S*surface\\(\\)"), false))
        .as("a comparison of surfaces")
        .isEmpty();
    assertThat(offending(Pattern.compile("switch\\s*\\([^)]*(surface|version|name)\\(\\)"), false))
        .as("a switch over a version")
        .isEmpty();
  }

  @Test
  void theVersionTheCodeRunsAsIsInItsResourceOnly() {
    for (String name : Profiles.builtInNames()) {
      Profile p = Profiles.builtIn(name).orElseThrow();
      assertThat(p.name()).isEqualTo(name);
      assertThat(p.behaviour().surface().name()).isEqualTo(name);
      assertThat(PackageResource.find("profile-" + name + ".txt")).isPresent();
    }
    assertThat(Profiles.builtInNames()).contains(ProfileResource.defaultName(), "documented");
  }
}
