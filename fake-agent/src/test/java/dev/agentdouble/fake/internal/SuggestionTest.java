package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionTest {

  @Test
  void editDistanceCountsATranspositionAsOneEdit() {
    assertThat(Suggestion.editDistance("fore", "froe")).isEqualTo(1);
    assertThat(Suggestion.editDistance("format", "force")).isEqualTo(3);
    assertThat(Suggestion.editDistance("", "abc")).isEqualTo(3);
  }

  @Test
  void editDistanceGivesUpOnVeryDifferentLengths() {
    assertThat(Suggestion.editDistance("ab", "abcdefg")).isEqualTo(7);
  }

  @Test
  void suggestsTheClosestCandidateOnly() {
    assertThat(Suggestion.similar("--modell", List.of("--mode", "--model", "--print")))
        .isEqualTo("\n(Did you mean --model?)");
  }

  @Test
  void listsTiesSorted() {
    assertThat(Suggestion.similar("--modes", List.of("--model", "--mode")))
        .isEqualTo("\n(Did you mean one of --mode, --model?)");
  }

  @Test
  void requiresSimilarityAboveFortyPercent() {
    // distance 3 over length 5: similarity exactly 0.4
    assertThat(Suggestion.similar("--fo", List.of("--force"))).isEmpty();
    // distance 3 over length 6: similarity 0.5
    assertThat(Suggestion.similar("--format", List.of("--force"))).isNotEmpty();
  }

  @Test
  void neverSuggestsOneCharacterCandidates() {
    assertThat(Suggestion.similar("--x", List.of("--y"))).isEmpty();
  }

  @Test
  void suggestsCommandsWithoutDashes() {
    assertThat(Suggestion.similar("stauts", List.of("status", "login")))
        .isEqualTo("\n(Did you mean status?)");
  }

  @Test
  void noCandidatesMeansNoHint() {
    assertThat(Suggestion.similar("--x", List.of())).isEmpty();
  }
}
