package dev.agentdouble.fake.internal.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The model lists of the profiles, read from their data files. */
class ModelCatalogTest {
  private static final String TEXT =
      "# a comment\n"
          + "\n"
          + "auto - Auto (current, default)\n"
          + "composer-2.5 - Composer 2.5\n"
          + "claude-fable-5-high - Claude Fable 5 1M (NO ZDR)\n"
          + "[variants]\n"
          + "composer-2.5[fast=true] - Composer 2.5 Fast\n";

  @Test
  void aCatalogReadsTheLinesModelsPrintsWithTheirMarksAndTheVariants() {
    ModelCatalog c = ModelCatalog.parse("t", TEXT);

    assertThat(c.listed())
        .containsExactly(
            new Model("auto", "Auto"),
            new Model("composer-2.5", "Composer 2.5"),
            new Model("claude-fable-5-high", "Claude Fable 5 1M (NO ZDR)"));
    assertThat(c.current()).contains("auto");
    assertThat(c.byDefault()).contains("auto");
    assertThat(c.variants())
        .containsExactly(new Model("composer-2.5[fast=true]", "Composer 2.5 Fast"));
    assertThat(c.ids()).containsExactly("auto", "composer-2.5", "claude-fable-5-high");
  }

  @Test
  void theCurrentAndTheDefaultCanBeTwoModels() {
    ModelCatalog c = ModelCatalog.parse("t", "auto - Auto (default)\ncomposer-2.5 - C (current)\n");

    assertThat(c.current()).contains("composer-2.5");
    assertThat(c.byDefault()).contains("auto");
  }

  @Test
  void anIdResolvesInAnyLetterCaseAVariantOnlyExactly() {
    ModelCatalog c = ModelCatalog.parse("t", TEXT);

    assertThat(c.resolve("Composer-2.5")).contains(new Model("composer-2.5", "Composer 2.5"));
    assertThat(c.resolve("composer-2.5[fast=true]"))
        .contains(new Model("composer-2.5[fast=true]", "Composer 2.5 Fast"));
    assertThat(c.resolve("composer-2.5[fast=false]")).isEmpty();
    assertThat(c.resolve("composer-2.5[FAST=true]")).isEmpty();
    assertThat(c.resolve("Composer 2.5")).isEmpty();
    assertThat(c.resolve("")).isEmpty();
  }

  @Test
  void aLineThatIsNotAModelIsNamedWithItsNumber() {
    assertThatThrownBy(() -> ModelCatalog.parse("models-x.txt", "auto - Auto\nbroken\n"))
        .hasMessage("models-x.txt:2: not \"<id> - <display name>\": broken");
  }

  @Test
  void the2026ProfilesListIsThe2026_10_01CaptureWithOneCurrentDefaultAndThreeVariants() {
    ModelCatalog c = BuiltIn.profile(BuiltIn.CLI_2026_10).catalog();

    // cagase/dsh-cursor fixtures/live/models.txt: 246 models of 2026.10.01-e373342
    assertThat(c.listed()).hasSize(246);
    assertThat(c.ids())
        .startsWith("auto", "gpt-5.3-codex-low")
        .contains("grok-4.7-xhigh", "claude-opus-5-5-high", "muse-spark-1.3-max")
        .endsWith("glm-5.2-high", "glm-5.2-max")
        .doesNotContain("composer-2");
    assertThat(c.listed().get(0)).isEqualTo(new Model("auto", "Auto"));
    assertThat(c.current()).contains("auto");
    assertThat(c.byDefault()).contains("auto");
    Set<String> lower = new HashSet<>();
    for (String id : c.ids()) {
      assertThat(id).doesNotContain(" ", "[");
      assertThat(lower.add(id.toLowerCase(Locale.ROOT))).as("unique: %s", id).isTrue();
    }
    assertThat(c.resolve("claude-4.6-sonnet-medium").orElseThrow().name())
        .isEqualTo("Claude Sonnet 4.6 1M");
    assertThat(c.variants())
        .extracting(Model::id)
        .containsExactly(
            "grok-4.7[context=256k,reasoning_effort=xhigh,fast=false]",
            "composer-2.5[fast=true]",
            "gpt-5.4-nano[reasoning=low]");
  }

  @Test
  void theDocumentedProfileListsSixModels() {
    List<Model> listed = BuiltIn.profile(BuiltIn.DOCUMENTED).models();

    assertThat(listed).hasSize(6).first().isEqualTo(new Model("auto", "Auto"));
    assertThat(BuiltIn.profile(BuiltIn.DOCUMENTED).catalog().current()).contains("auto");
  }

  @Test
  void aBuiltInProfilesModelsAreItsDataFile() {
    // equal profiles compare by resource without reading it
    assertThat(BuiltIn.profile(BuiltIn.CLI_2026_10))
        .isEqualTo(BuiltIn.profile(BuiltIn.CLI_2026_10));
    assertThat(BuiltIn.profile(BuiltIn.CLI_2026_10).catalog().toString())
        .isEqualTo("models-2026.10.txt");
  }
}
