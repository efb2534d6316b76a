package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimingTest {
  private static List<Long> schedule(String spec, long... times) {
    Timing timing = Timing.parse(spec);
    List<Long> due = new ArrayList<>();
    for (long t : times) {
      due.add(timing.due(t));
    }
    return due;
  }

  @Test
  void recordedIsTheDefaultAndFollowsTheTape() {
    assertThat(schedule(null, 0, 5, 1000)).containsExactly(0L, 5L, 1000L);
    assertThat(schedule("recorded", 0, 5, 1000)).containsExactly(0L, 5L, 1000L);
  }

  @Test
  void fastWaitsForNothing() {
    assertThat(Timing.parse("fast").fast()).isTrue();
    assertThat(schedule("fast", 0, 5, 1000)).containsExactly(0L, 0L, 0L);
  }

  @Test
  void scaleMultipliesEveryTimeFromTheStart() {
    assertThat(schedule("scale:0.5", 0, 5, 1000, 3001)).containsExactly(0L, 3L, 500L, 1501L);
  }

  @Test
  void maxGapCapsEachSilenceAndKeepsTheRest() {
    assertThat(schedule("max-gap:100", 0, 50, 5050, 5060, 9000)).containsExactly(0L, 50L, 150L, 160L, 260L);
  }

  @Test
  void badSpecsSayWhatIsAccepted() {
    assertThatThrownBy(() -> Timing.parse("slow")).hasMessage(
        "AGENTDOUBLE_TIMING=slow: use fast, recorded, scale:F or max-gap:MS");
    assertThatThrownBy(() -> Timing.parse("scale:-1")).hasMessageContaining("scale needs a factor >= 0");
    assertThatThrownBy(() -> Timing.parse("max-gap:x")).hasMessageContaining("max-gap needs whole milliseconds");
  }
}
