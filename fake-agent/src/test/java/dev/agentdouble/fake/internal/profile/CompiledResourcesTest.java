package dev.agentdouble.fake.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The resources as the build compiled them (a run reads its profile from them) are the resources as
 * they are in the source tree: each text verbatim, and the lines of each exactly what the
 * interpreter parses from its text.
 */
class CompiledResourcesTest {
  private static final Path FOLDER =
      Path.of("src/main/resources/dev/agentdouble/fake/internal/profile");

  static List<String> files() throws IOException {
    try (Stream<Path> files = Files.list(FOLDER)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }

  @Test
  void theBuildCompiledEveryResourceOfThePackage() throws IOException {
    assertThat(PackageResource.compiled())
        .as("%s, which the build generates", PackageResource.COMPILED)
        .isNotNull();
    assertThat(PackageResource.compiled().names()).isEqualTo(files());
    assertThat(PackageResource.list("profile-", ".txt"))
        .contains("profile-2026.10.txt", "profile-documented.txt");
  }

  @ParameterizedTest
  @MethodSource("files")
  void aCompiledResourceIsItsFileVerbatimAndTheLinesTheInterpreterReadsFromIt(String name)
      throws IOException {
    String text = Files.readString(FOLDER.resolve(name), StandardCharsets.UTF_8);
    PackageResource.Compiled compiled = PackageResource.compiled();

    assertThat(compiled.text(name)).isEqualTo(text);
    assertThat(PackageResource.text(name)).isEqualTo(text);
    List<ProfileLine> parsed;
    try {
      parsed = ProfileResource.parse(name, text);
    } catch (IllegalStateException e) {
      assertThat(compiled.lines(name)).as("the lines of %s, which is no profile's", name).isNull();
      return;
    }
    assertThat(compiled.lines(name)).isEqualTo(parsed);
    assertThat(ProfileResource.lines(name)).contains(parsed);
  }

  /**
   * Each built-in profile, of either CLI, as the build made it again (a run takes it so, and
   * interprets no line) is the profile the interpreter reads from its resource today.
   */
  @ParameterizedTest
  @MethodSource("files")
  void aCompiledProfileIsTheOneTheInterpreterReadsFromItsResource(String name) {
    Object made = PackageResource.compiled().profile(name);
    Object read = null;
    if (name.startsWith(ProfileResource.PREFIX) && name.endsWith(ProfileResource.SUFFIX)) {
      read = ProfileResource.profile(ProfileResource.stem(name), ProfileResource.lines(name).get());
    } else if (name.startsWith(ClaudeProfile.PREFIX)
        && name.endsWith(ClaudeProfile.SUFFIX)
        && !name.equals("claude-profiles.txt")
        && !name.startsWith("claude-help-")) {
      read = ClaudeProfile.interpreted(ClaudeProfile.stem(name));
    }
    if (read == null) {
      assertThat(made).as("%s is no profile's resource", name).isNull();
      return;
    }
    // records: equal field by field (a map's order is no value's: Map.copyOf's differs by JVM)
    assertThat(made).as("%s as the build made it", name).isNotNull().isEqualTo(read);
  }

  @Test
  void theBuiltInProfilesARunLoadsAreTheCompiledOnes() {
    assertThat(Profiles.byDefault())
        .isSameAs(Profiles.byDefault())
        .isEqualTo(PackageResource.compiled().profile("profile-2026.10.txt"));
    assertThat(ClaudeProfile.byDefault())
        .isEqualTo(PackageResource.compiled().profile("claude-2.1.328.txt"));
  }

  @Test
  void aNameThatIsNoResourceHasNeitherTextNorLines() {
    assertThat(PackageResource.compiled().text("profile-none.txt")).isNull();
    assertThat(PackageResource.compiled().lines("profile-none.txt")).isNull();
    assertThat(PackageResource.compiled().profile("profile-none.txt")).isNull();
    assertThat(PackageResource.profile("profile-none.txt", Profile.class)).isNull();
    assertThat(ProfileResource.lines("profile-none.txt")).isEmpty();
  }

  @Test
  void aLiteralKeepsEveryCharacterInAsciiSource() {
    String text = "a\"b\\c\nd\re\tf\u0001g\u00e9h\u2014i\ud83d\ude00";

    String literal = ResourceCompiler.literal(text);

    assertThat(literal).matches("\"[\\x20-\\x7e]*\"");
    assertThat(literal)
        .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u00e9h\\u2014i\\ud83d\\ude00\"");
  }
}
