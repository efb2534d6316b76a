package dev.agentdouble.fake.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.cursor.CursorMessages;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ProfileResourceTest {
  @Test
  void linesNestByTwoSpacesAndSkipCommentsAndBlankLines() {
    List<ProfileLine> top =
        ProfileResource.parse(
            "t.txt",
            "# a comment\nversion 1\n\ncommand agent\n  # inside\n  description A b\nacp\n");

    assertThat(top).extracting(ProfileLine::key).containsExactly("version", "command", "acp");
    assertThat(top.get(1).children())
        .singleElement()
        .satisfies(
            n -> {
              assertThat(n.key()).isEqualTo("description");
              assertThat(n.value()).isEqualTo("A b");
              assertThat(n.line()).isEqualTo(6);
            });
    assertThat(top.get(2).value()).isEmpty();
  }

  @Test
  void aValueEscapesNewlinesAndBackslashesOnly() {
    assertThat(ProfileResource.parse("t.txt", "m a\\nb\\\\c").get(0).value()).isEqualTo("a\nb\\c");
    assertThatThrownBy(() -> ProfileResource.parse("t.txt", "x\nm a\\tb"))
        .hasMessage("t.txt:2: \\t; a value escapes only \\n and \\\\");
  }

  @Test
  void anIndentationOutOfStepIsNamedWithItsLine() {
    assertThatThrownBy(() -> ProfileResource.parse("t.txt", "a\n    b"))
        .hasMessage("t.txt:2: indented by 4 spaces; two under its parent");
    assertThatThrownBy(() -> ProfileResource.parse("t.txt", "a\n b"))
        .hasMessageStartingWith("t.txt:2: indented by 1 spaces");
  }

  @Test
  void anUnknownKeyOrCheckIsNamedWithItsLine() {
    assertThatThrownBy(
            () -> ProfileResource.profile("x", ProfileResource.parse("p.txt", "colour blue")))
        .hasMessageStartingWith("p.txt:1: unknown key \"colour\"; a profile has [version, ");
    assertThatThrownBy(
            () -> ProfileResource.profile("x", ProfileResource.parse("p.txt", "checks auth vibes")))
        .hasMessageStartingWith("p.txt:1: unknown check \"vibes\"; one of [auth, api-key, ");
  }

  @Test
  void anOptionTakesItsUnlistedChoicesAndReadsThemAsTheProgramDoes() {
    CliCommand root =
        ProfileResource.command(
            ProfileResource.parse(
                    "p.txt",
                    "command c\n"
                        + "  option --mode <mode>\n"
                        + "    choices plan manual\n"
                        + "    unlisted-choices default\n"
                        + "  option --on [value]\n"
                        + "    choices true false\n"
                        + "    choices-ignore case-and-blanks\n"
                        + "  hidden --kind <kind>\n"
                        + "    choices a b\n")
                .get(0));
    CliOption mode = root.findOption("--mode");
    CliOption on = root.findOption("--on");
    CliOption kind = root.findOption("--kind");

    assertThat(mode.choices()).containsExactly("plan", "manual");
    assertThat(List.of("plan", "manual", "default")).allMatch(mode::allows);
    assertThat(List.of("Default", " default", "bogus", "")).noneMatch(mode::allows);
    assertThat(List.of("TRUE", " False\t", "\u00a0true\ufeff")).allMatch(on::allows);
    assertThat(List.of("y", "", "\u001ctrue")).noneMatch(on::allows);
    assertThat(kind.allows("a")).isTrue();
    assertThat(kind.allows("A")).isFalse();
  }

  @Test
  void anOptionTakesTheChecksTheProgramMakesOfItsValueItself() {
    CliCommand root =
        ProfileResource.command(
            ProfileResource.parse(
                    "p.txt",
                    "command c\n"
                        + "  option --window <auto|tokens>\n"
                        + "    tokens auto 100000 It must be auto\n"
                        + "  option --level <level>\n"
                        + "    known low high\n"
                        + "    known-ignore case-and-blanks\n"
                        + "    unknown-warning odd '{value}'\\n\n"
                        + "  option --sources <sources>\n"
                        + "    each-of user local\n"
                        + "    each-of-refusal no {value}\\n\n"
                        + "  option --tips [value]\n"
                        + "    choices true false\n"
                        + "    stream-json-only true\n"
                        + "    stream-json-refusal only in stream-json\\n\n")
                .get(0));
    CliOption window = root.findOption("--window");
    CliOption level = root.findOption("--level");
    CliOption sources = root.findOption("--sources");
    CliOption tips = root.findOption("--tips");

    assertThat(window.rule()).contains(new ValueRule.TokenCount("auto", 100000, "It must be auto"));
    assertThat(List.of(" AUTO", "100k", "200", "1e6", "1,000,000"))
        .allMatch(window.rule().get()::accepts);
    assertThat(List.of("", "99", "1001", "99k", "0x186a0")).noneMatch(window.rule().get()::accepts);
    assertThat(level.warning().get().of(" HIGH")).isEmpty();
    assertThat(level.warning().get().of("x")).contains("odd 'x'\n");
    assertThat(sources.ownCheck())
        .contains(new CliOption.EachOf(List.of("user", "local"), "no {value}\n"));
    assertThat(((CliOption.EachOf) sources.ownCheck().get()).unknown(" user ,x")).contains("x");
    assertThat(((CliOption.EachOf) sources.ownCheck().get()).unknown("")).isEmpty();
    assertThat(tips.ownCheck())
        .contains(new CliOption.StreamJsonOnly(List.of("true"), "only in stream-json\n"));
    assertThatThrownBy(
            () ->
                ProfileResource.command(
                    ProfileResource.parse(
                            "p.txt", "command c\n  option --level <l>\n    known low\n")
                        .get(0)))
        .hasMessage("p.txt:2: \"known\" and \"unknown-warning\" go together; give both or neither");
  }

  @Test
  void anUnlistedChoiceNeedsTheChoicesItAddsTo() {
    assertThatThrownBy(
            () ->
                ProfileResource.command(
                    ProfileResource.parse(
                            "p.txt", "command c\n  option --mode <m>\n    unlisted-choices x\n")
                        .get(0)))
        .hasMessage(
            "p.txt:3: \"unlisted-choices\" with no \"choices\"; give the option its choices");
    assertThatThrownBy(
            () ->
                ProfileResource.command(
                    ProfileResource.parse(
                            "p.txt",
                            "command c\n  option --m <m>\n    choices a\n    choices-ignore case\n")
                        .get(0)))
        .hasMessage("p.txt:4: \"choices-ignore\" takes case-and-blanks");
  }

  @Test
  void aNameThatIsNoResourceIsNoBuiltInProfile() {
    assertThat(Profiles.builtIn("../profile-2026.10")).isEmpty();
    assertThat(Profiles.builtIn("/etc/passwd")).isEmpty();
    assertThat(Profiles.builtIn("")).isEmpty();
    assertThat(Profiles.builtIn("2025.01")).isEmpty();
  }

  @Test
  void theDefaultIsTheNewestRealCliAndEveryBuiltInIsListed() {
    assertThat(ProfileResource.defaultName()).isEqualTo(BuiltIn.CLI_2026_10);
    assertThat(Profiles.byDefault()).isEqualTo(BuiltIn.profile(BuiltIn.CLI_2026_10));
    assertThat(Profiles.builtInNames())
        .startsWith(BuiltIn.DOCUMENTED)
        .contains(BuiltIn.CLI_2026_10);
  }

  /** The texts a profile holds are the CLI's, byte for byte, as the catalog's tapes carry them. */
  @ParameterizedTest
  @MethodSource("dev.agentdouble.fake.internal.profile.BuiltIn#surfaces")
  void everyProfileHoldsTheCliTexts(Profile.Surface surface) {
    assertThat(surface.message("trust-required").replace("{workspace}", "/w/x"))
        .isEqualTo(CursorMessages.trustRequired("/w/x"));
    assertThat(surface.message("auth-required")).isEqualTo(CursorMessages.AUTH_REQUIRED);
    assertThat(surface.message("models-signed-out"))
        .isIn(CursorMessages.AUTH_REQUIRED, CursorMessages.AUTH_REQUIRED_FOR_MODELS);
    assertThat(surface.message("models-tip")).startsWith("Tip: use --model <id>");
    assertThat(surface.acp().description())
        .isEqualTo("Start the Cursor Agent as an ACP (Agent Client Protocol) server");
  }
}
