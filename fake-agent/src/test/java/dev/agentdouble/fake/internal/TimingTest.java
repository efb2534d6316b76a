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

  @Test
  void aTimeNearTheTopOfItsRangeIsNeverDueNotDueAtOnce() {
    long t = 999_999_999_999_999_999L; // the largest "t" a tape takes: 18 digits
    long origin = System.nanoTime();

    for (String spec : new String[] {"recorded", "scale:1", "max-gap:" + Long.MAX_VALUE}) {
      long due = Timing.parse(spec).due(t);
      assertThat(Timing.nanosLeft(origin, due, origin + 1_000_000_000L)).as(spec)
          .isEqualTo(Long.MAX_VALUE);
    }
  }

  @Test
  void aHugeFactorIsClampedToNeverNotWrappedIntoThePast() {
    long origin = System.nanoTime();
    List<Long> due = schedule("scale:1e308", 0, 1, 5000);

    assertThat(due.get(0)).isZero();
    assertThat(Timing.nanosLeft(origin, due.get(1), origin)).isEqualTo(Long.MAX_VALUE);
    assertThat(Timing.nanosLeft(origin, due.get(2), origin)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aDueTimeCountsFromTheOriginAndIsPastOnceReached() {
    long origin = -5_000_000_000L; // nanoTime may be negative
    assertThat(Timing.nanosLeft(origin, 1000, origin)).isEqualTo(1_000_000_000L);
    assertThat(Timing.nanosLeft(origin, 1000, origin + 999_000_000L)).isEqualTo(1_000_000L);
    assertThat(Timing.nanosLeft(origin, 1000, origin + 2_000_000_000L)).isNegative();
    assertThat(Timing.nanosLeft(origin, Timing.NEVER_MS - 1, origin)).isPositive();
  }

  @Test
  void aFactorOrGapThatIsNotANumberIsRefused() {
    assertThatThrownBy(() -> Timing.parse("scale:NaN")).hasMessageContaining("scale needs");
    assertThatThrownBy(() -> Timing.parse("scale:1e309")).hasMessageContaining("scale needs");
    assertThatThrownBy(() -> Timing.parse("max-gap:99999999999999999999"))
        .hasMessageContaining("max-gap needs");
  }
}
