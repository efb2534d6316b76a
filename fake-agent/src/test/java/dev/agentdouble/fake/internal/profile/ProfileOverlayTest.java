package dev.agentdouble.fake.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A profile resource may name a {@code base} and state only what differs: {@code 2026.09} is {@code
 * 2026.10} less seven commands, another version line and another status shape.
 */
class ProfileOverlayTest {
  private static String resource(String name) {
    return new String(PackageResource.read("profile-" + name + ".txt"), StandardCharsets.UTF_8);
  }

  private static Profile read(String text) {
    return ProfileResource.profile("x", ProfileResource.parse("p.txt", text));
  }

  private static CliCommand sub(CliCommand c, String name) {
    return c.subcommands().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
  }

  /**
   * Every built-in resolves to the profile its whole file gave before bases (2026.09's kept under
   * src/test/resources): every value, the command tree with every help text, every message.
   */
  @ParameterizedTest
  @ValueSource(strings = {BuiltIn.DOCUMENTED, BuiltIn.CLI_2026_10, BuiltIn.CLI_2026_09})
  void everyBuiltInIsWhatItsWholeFileWas(String name) {
    Profile now = BuiltIn.profile(name);
    Profile before = BuiltIn.wholeFile(name);

    assertThat(now.behaviour().surface().root()).isEqualTo(before.behaviour().surface().root());
    assertThat(now.behaviour().surface().messages())
        .isEqualTo(before.behaviour().surface().messages());
    assertThat(now).isEqualTo(before);
  }

  @Test
  void the2026_09ResourceIsItsDifferencesFrom2026_10Only() {
    assertThat(resource(BuiltIn.CLI_2026_09)).contains("\nbase 2026.10\n");
    assertThat(resource(BuiltIn.CLI_2026_09).lines().filter(l -> !l.startsWith("#")))
        .hasSizeLessThan(20);
    assertThat(Profiles.builtInNames())
        .containsExactlyInAnyOrder(BuiltIn.DOCUMENTED, BuiltIn.CLI_2026_10, BuiltIn.CLI_2026_09);
  }

  /** The default profile reads its own resource only; a based one reads its base once. */
  @Test
  void theDefaultReadsNoBaseAndABasedProfileReadsItsBaseOnce() {
    List<String> asked = new ArrayList<>();
    ProfileOverlay.Bases bases =
        name -> {
          asked.add(name);
          return Optional.of(ProfileResource.parse(name, resource(name)));
        };

    Profile byDefault =
        ProfileResource.profile(
            BuiltIn.CLI_2026_10,
            ProfileResource.parse("d.txt", resource(BuiltIn.CLI_2026_10)),
            bases);
    assertThat(asked).isEmpty();
    assertThat(byDefault).isEqualTo(Profiles.byDefault());

    Profile based =
        ProfileResource.profile(
            BuiltIn.CLI_2026_09,
            ProfileResource.parse("b.txt", resource(BuiltIn.CLI_2026_09)),
            bases);
    assertThat(asked).containsExactly(BuiltIn.CLI_2026_10);
    assertThat(based).isEqualTo(BuiltIn.profile(BuiltIn.CLI_2026_09));
  }

  @Test
  void aLineReplacesTheBasesInPlaceOrIsAddedAfterIt() {
    Profile base = BuiltIn.profile(BuiltIn.CLI_2026_10);
    Profile p =
        read(
            String.join(
                "\n",
                "base 2026.10",
                "version 9.9",
                "message models-tip Tip: none",
                "command agent",
                "  description Start it",
                "  option --plan",
                "    help Plan.",
                "  hidden --new-flag",
                "  drop-option --yolo",
                "  command mcp",
                "    drop-command enable",
                "    command list",
                "      description List them",
                "  command brand-new",
                "    description New",
                "    argument <thing>"));
    CliCommand root = p.behaviour().surface().root();
    CliCommand baseRoot = base.behaviour().surface().root();

    assertThat(p.version()).isEqualTo("9.9");
    assertThat(p.email()).isEqualTo(base.email());
    assertThat(p.behaviour().surface().message("models-tip")).isEqualTo("Tip: none");
    assertThat(p.behaviour().surface().message("auth-required"))
        .isEqualTo(base.behaviour().surface().message("auth-required"));
    assertThat(root.description()).isEqualTo("Start it");
    assertThat(root.arguments()).isEqualTo(baseRoot.arguments());
    List<String> flags = root.options().stream().map(CliOption::flags).toList();
    List<String> baseFlags =
        new ArrayList<>(baseRoot.options().stream().map(CliOption::flags).toList());
    baseFlags.remove("--yolo");
    baseFlags.add("--new-flag");
    assertThat(flags).isEqualTo(baseFlags);
    assertThat(root.options().get(flags.indexOf("--plan")).help()).isEqualTo("Plan.");
    assertThat(root.options().get(flags.size() - 1).hidden()).isTrue();
    assertThat(sub(root, "mcp").subcommands())
        .extracting(CliCommand::name)
        .containsExactly("login", "list", "list-tools", "disable");
    assertThat(sub(sub(root, "mcp"), "list").description()).isEqualTo("List them");
    assertThat(sub(sub(root, "mcp"), "login")).isEqualTo(sub(sub(baseRoot, "mcp"), "login"));
    assertThat(root.subcommands().get(root.subcommands().size() - 1).name()).isEqualTo("brand-new");
    assertThat(sub(root, "brand-new").arguments())
        .extracting(CliCommand.Argument::name)
        .containsExactly("thing");
  }

  @Test
  void aBaseMayHaveABaseOfItsOwn() {
    Map<String, String> texts = Map.of("mid", "base 2026.10\nversion 1.0\nemail m@example.com");
    ProfileOverlay.Bases bases =
        name ->
            texts.containsKey(name)
                ? Optional.of(ProfileResource.parse(name + ".txt", texts.get(name)))
                : Optional.of(ProfileResource.parse(name, resource(name)));

    Profile p =
        ProfileResource.profile(
            "top", ProfileResource.parse("t.txt", "base mid\nversion 2.0"), bases);

    assertThat(p.version()).isEqualTo("2.0");
    assertThat(p.email()).isEqualTo("m@example.com");
    assertThat(p.behaviour().surface().root()).isEqualTo(BuiltIn.root(BuiltIn.CLI_2026_10));
  }

  @Test
  void anUnknownBaseIsNamedWithItsLine() {
    assertThatThrownBy(() -> read("version 1\nbase 2026.01"))
        .hasMessageStartingWith(
            "p.txt:2: unknown base \"2026.01\"; a base is a built-in profile: documented, ");
    assertThatThrownBy(() -> read("base ../profile-2026.10"))
        .hasMessageStartingWith("p.txt:1: unknown base \"../profile-2026.10\"");
    assertThatThrownBy(() -> read("base 2026.10\nbase documented"))
        .hasMessage("p.txt:2: \"base\" given twice");
  }

  @Test
  void aCycleOfBasesIsNamedWithTheLineThatCloses() {
    Map<String, String> texts = Map.of("a", "version 1\nbase b", "b", "base a", "c", "base c");
    ProfileOverlay.Bases bases =
        name -> Optional.of(ProfileResource.parse("profile-" + name + ".txt", texts.get(name)));

    assertThatThrownBy(() -> ProfileResource.profile("a", bases.top("a").orElseThrow(), bases))
        .hasMessage("profile-b.txt:1: a cycle of bases: a -> b -> a");
    assertThatThrownBy(() -> ProfileResource.profile("c", bases.top("c").orElseThrow(), bases))
        .hasMessage("profile-c.txt:1: a cycle of bases: c -> c");
  }

  @Test
  void droppingWhatTheBaseLacksIsNamedWithItsLine() {
    assertThatThrownBy(() -> read("base 2026.09\ncommand agent\n  drop-command bedrock"))
        .hasMessage("p.txt:3: command \"agent\" of the base has no command \"bedrock\" to drop");
    assertThatThrownBy(
            () -> read("base 2026.10\ncommand agent\n  command worker\n    drop-option --pools"))
        .hasMessage("p.txt:4: command \"worker\" of the base has no option \"--pools\" to drop");
    assertThatThrownBy(() -> read("base 2026.10\ncommand agent\n  command x\n    drop-option --y"))
        .hasMessage("p.txt:4: command \"x\" has no option \"--y\" to drop");
    assertThatThrownBy(() -> read(resource(BuiltIn.CLI_2026_10) + "\n  drop-command bedrock\n"))
        .hasMessageEndingWith(": \"drop-command\" edits a base; this profile names none")
        .hasMessageStartingWith("p.txt:");
  }
}
