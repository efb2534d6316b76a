package dev.agentdouble.fake.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TextStyle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileTest {
  @TempDir Path dir;

  private String file(String json) throws IOException {
    Path f = dir.resolve("profile.json");
    Files.writeString(f, json, StandardCharsets.UTF_8);
    return f.toString();
  }

  private Profile load(String json) throws Exception {
    return Profiles.load(Map.of(Profile.ENV, file(json)));
  }

  private String problem(String json) throws IOException {
    String f = file(json);
    Throwable thrown = Assertions.catchThrowable(() -> Profiles.load(Map.of(Profile.ENV, f)));
    assertThat(thrown).isInstanceOf(ProfileException.class);
    assertThat(thrown.getMessage()).startsWith(f + ": ");
    assertThat(thrown.getStackTrace()).isEmpty();
    return thrown.getMessage().substring(f.length() + 2);
  }

  @Test
  void theNewestRealCliIsTheDefault() throws Exception {
    Profile p = Profiles.load(Map.of());

    assertThat(p.name()).isEqualTo("2026.10");
    assertThat(p.defaultOutputFormat()).isEqualTo(OutputFormat.TEXT);
    assertThat(p.behaviour()).isEqualTo(BuiltIn.profile(BuiltIn.CLI_2026_10).behaviour());
    assertThat(p.behaviour().trustGate()).isTrue();
    assertThat(p.behaviour().authFirst()).isTrue();
    assertThat(p.behaviour().stdin()).isEqualTo(Profile.StdinRule.RUN_THEN_AWAIT_EOF);
    assertThat(p.apiKeyValid()).isTrue();
    assertThat(p.version()).isEqualTo("2026.10.01-e373342");
    assertThat(p.loggedIn()).isTrue();
    assertThat(p.email()).isEqualTo("dev@example.com");
    assertThat(p.model()).isEqualTo("Auto");
    assertThat(p.models()).isNotEmpty();
    assertThat(p.about()).isEmpty();
    assertThat(Profiles.load(Map.of(Profile.ENV, ""))).isEqualTo(p);
  }

  @Test
  void theDocumentedProfileFollowsTheVendorPage() throws Exception {
    Profile p = Profiles.load(Map.of(Profile.ENV, "documented"));

    assertThat(p.defaultOutputFormat()).isEqualTo(OutputFormat.STREAM_JSON);
    assertThat(p.textStyle()).isEqualTo(TextStyle.ACTIONS);
    assertThat(p.behaviour()).isEqualTo(BuiltIn.profile(BuiltIn.DOCUMENTED).behaviour());
    assertThat(p.behaviour().trustGate()).isFalse();
    assertThat(p.behaviour().stdin()).isEqualTo(Profile.StdinRule.READ_BEFORE_RUN);
  }

  @Test
  void aFileCanTurnTheTrustGateOffAndRejectApiKeys() throws Exception {
    Profile p = load("{\"trustGate\":false,\"apiKeyValid\":false}");

    assertThat(p.behaviour().trustGate()).isFalse();
    assertThat(p.behaviour().surface()).isEqualTo(BuiltIn.surface(BuiltIn.CLI_2026_10));
    assertThat(p.apiKeyValid()).isFalse();
    assertThat(problem("{\"trustGate\":\"yes\"}")).contains("\"trustGate\" must be true or false");
  }

  @Test
  void the2026ProfileDefaultsToFinalText() throws Exception {
    Profile p = Profiles.load(Map.of(Profile.ENV, "2026.10"));

    assertThat(p.name()).isEqualTo("2026.10");
    assertThat(p.defaultOutputFormat()).isEqualTo(OutputFormat.TEXT);
    assertThat(p.textStyle()).isEqualTo(TextStyle.FINAL);
  }

  @Test
  void aFileSetsEveryField() throws Exception {
    Profile p =
        load(
            "{\"version\":\"2026.11.02-abc1234\",\"loggedIn\":false,"
                + "\"email\":\"qa@example.org\",\"defaultOutputFormat\":\"json\",\"textStyle\":\"final\","
                + "\"model\":\"Sonnet 4.6 1M\",\"models\":[{\"id\":\"s\",\"name\":\"Sonnet 4.6 1M\"}],"
                + "\"about\":\"About\\n\"}");

    assertThat(p.version()).isEqualTo("2026.11.02-abc1234");
    assertThat(p.loggedIn()).isFalse();
    assertThat(p.email()).isEqualTo("qa@example.org");
    assertThat(p.defaultOutputFormat()).isEqualTo(OutputFormat.JSON);
    assertThat(p.textStyle()).isEqualTo(TextStyle.FINAL);
    assertThat(p.model()).isEqualTo("Sonnet 4.6 1M");
    assertThat(p.models()).containsExactly(new Model("s", "Sonnet 4.6 1M"));
    assertThat(p.about()).contains("About\n");
  }

  @Test
  void aFileTakesWhatItLeavesOutFromItsBase() throws Exception {
    Profile documented = load("{\"base\":\"documented\",\"loggedIn\":false}");
    Profile cli = load("{\"email\":\"x@y.z\"}");

    assertThat(documented.loggedIn()).isFalse();
    assertThat(documented.defaultOutputFormat()).isEqualTo(OutputFormat.STREAM_JSON);
    assertThat(cli.email()).isEqualTo("x@y.z");
    assertThat(cli.defaultOutputFormat()).isEqualTo(OutputFormat.TEXT);
    assertThat(cli.name()).endsWith("profile.json");
  }

  @Test
  void anEmptyModelListIsAllowed() throws Exception {
    assertThat(load("{\"models\":[]}").models()).isEmpty();
  }

  @Test
  void aMissingFileIsNamedWithTheChoices() {
    String missing = dir.resolve("nope.json").toString();

    assertThatThrownBy(() -> Profiles.load(Map.of(Profile.ENV, missing)))
        .isInstanceOf(ProfileException.class)
        .hasMessageStartingWith(missing + ": no such file")
        .hasMessageContaining("documented")
        .hasMessageContaining("2026.10");
  }

  @Test
  void aDirectoryCannotBeRead() {
    assertThatThrownBy(() -> Profiles.load(Map.of(Profile.ENV, dir.toString())))
        .isInstanceOf(ProfileException.class)
        .hasMessageStartingWith(dir + ": cannot read");
  }

  @Test
  void invalidJsonIsReportedWithItsLine() throws Exception {
    assertThat(problem("{\n\"loggedIn\": tru\n}")).startsWith("line 2: not valid JSON: ");
  }

  @Test
  void anEmptyFileIsNotAProfile() throws Exception {
    assertThat(problem("")).isEqualTo("empty file; a profile is a JSON object");
  }

  @Test
  void aProfileIsAnObject() throws Exception {
    assertThat(problem("[1]")).isEqualTo("line 1: a profile is a JSON object");
  }

  @Test
  void anUnknownFieldIsNamed() throws Exception {
    assertThat(problem("{\"emial\":\"a@b.c\"}"))
        .startsWith("line 1: unknown field \"emial\"; ")
        .contains("email");
  }

  @Test
  void aFieldOfTheWrongTypeIsNamed() throws Exception {
    assertThat(problem("{\"loggedIn\":\"yes\"}"))
        .isEqualTo("line 1: \"loggedIn\" must be true or false");
    assertThat(problem("{\n\"version\":2026}")).isEqualTo("line 2: \"version\" must be a string");
  }

  @Test
  void anUnknownOutputFormatOrStyleIsNamed() throws Exception {
    assertThat(problem("{\"defaultOutputFormat\":\"yaml\"}"))
        .isEqualTo(
            "line 1: \"defaultOutputFormat\" must be text, json or stream-json, was \"yaml\"");
    assertThat(problem("{\"textStyle\":\"loud\"}"))
        .isEqualTo("line 1: \"textStyle\" must be actions or final, was \"loud\"");
  }

  /** The built-ins named are the resources there are: "documented or 2026.10" for those two. */
  @Test
  void anUnknownBaseIsNamed() throws Exception {
    List<String> names = Profiles.builtInNames();
    assertThat(names).startsWith("documented").contains("2026.10");
    assertThat(problem("{\"base\":\"2025\"}"))
        .isEqualTo(
            "\"base\" must be "
                + String.join(", ", names.subList(0, names.size() - 1))
                + " or "
                + names.get(names.size() - 1)
                + ", was \"2025\"");
  }

  @Test
  void aModelNeedsAnIdAndAName() throws Exception {
    assertThat(problem("{\"models\":[{\"id\":\"a\"}]}"))
        .isEqualTo("line 1: \"models\"[0] needs both \"id\" and \"name\"");
    assertThat(problem("{\"models\":[\"a\"]}"))
        .startsWith("line 1: \"models\"[0] must be an object");
    assertThat(problem("{\"models\":{}}")).startsWith("line 1: \"models\" must be a list");
    assertThat(problem("{\"models\":[{\"id\":\"a\",\"name\":1}]}"))
        .isEqualTo("line 1: \"models\"[0].name must be a string");
  }

  @Test
  void aDuplicateFieldIsAnError() throws Exception {
    assertThat(problem("{\"email\":\"a\",\"email\":\"b\"}"))
        .contains("not valid JSON")
        .contains("email");
  }

  @Test
  void contentAfterTheObjectIsAnError() throws Exception {
    assertThat(problem("{} {}")).contains("more than one JSON value");
  }
}
