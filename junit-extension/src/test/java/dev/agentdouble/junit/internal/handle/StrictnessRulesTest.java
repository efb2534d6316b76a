package dev.agentdouble.junit.internal.handle;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Of the runs left waiting for their stdin, which failed the test and which only get a note. */
class StrictnessRulesTest {
  @Test
  void aRunThatAskedForATapeIsANoteOneThatNeverAskedIsAProblem() {
    List<String> notes = new ArrayList<>();

    List<Long> neverAsked = Strictness.neverAsked(List.of(11L, 12L), () -> List.of(12L), notes);

    assertThat(neverAsked).containsExactly(11L);
    assertThat(notes)
        .singleElement()
        .asString()
        .startsWith("fake agent process 12 had run its tape and was waiting for its stdin");
  }

  @Test
  void withNoRunWaitingTheInvocationsAreNotRead() {
    List<String> notes = new ArrayList<>();

    List<Long> neverAsked =
        Strictness.neverAsked(
            List.of(),
            () -> {
              throw new AssertionError("read the invocations for nothing");
            },
            notes);

    assertThat(neverAsked).isEmpty();
    assertThat(notes).isEmpty();
  }
}
