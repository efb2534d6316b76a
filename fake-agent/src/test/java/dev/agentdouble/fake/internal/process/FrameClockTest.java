package dev.agentdouble.fake.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Timing policies as the fake reads them from its environment, and the waits they give. */
class FrameClockTest {
  /** The policy as the fake reads {@code AGENTDOUBLE_TIMING} ({@code null}: unset). */
  private static Timing parse(String spec) {
    Map<String, String> env = new HashMap<>();
    if (spec != null) {
      env.put(FakeEnvironment.TIMING, spec);
    }
    return FakeEnvironment.read(env).timing();
  }

  private static List<Long> schedule(String spec, long... times) {
    Timing timing = parse(spec);
    List<Long> due = new ArrayList<>();
    long lastT = 0;
    long lastDue = 0;
    for (long t : times) {
      lastDue = timing.due(t, lastT, lastDue);
      lastT = t;
      due.add(lastDue);
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
    assertThat(parse("fast")).isInstanceOf(Timing.Fast.class);
    assertThat(schedule("fast", 0, 5, 1000)).containsExactly(0L, 0L, 0L);
  }

  @Test
  void scaleMultipliesEveryTimeFromTheStart() {
    assertThat(schedule("scale:0.5", 0, 5, 1000, 3001)).containsExactly(0L, 3L, 500L, 1501L);
  }

  @Test
  void maxGapCapsEachSilenceAndKeepsTheRest() {
    assertThat(schedule("max-gap:100", 0, 50, 5050, 5060, 9000))
        .containsExactly(0L, 50L, 150L, 160L, 260L);
  }

  @Test
  void badSpecsSayWhatIsAccepted() {
    assertThatThrownBy(() -> parse("slow"))
        .hasMessage("AGENTDOUBLE_TIMING=slow: use fast, recorded, scale:F or max-gap:MS");
    assertThatThrownBy(() -> parse("scale:-1")).hasMessageContaining("scale needs a factor >= 0");
    assertThatThrownBy(() -> parse("max-gap:x"))
        .hasMessageContaining("max-gap needs whole milliseconds");
  }

  @Test
  void aTimeNearTheTopOfItsRangeIsNeverDueNotDueAtOnce() {
    long t = 999_999_999_999_999_999L; // the largest "t" a tape takes: 18 digits
    long origin = System.nanoTime();

    for (String spec : new String[] {"recorded", "scale:1", "max-gap:" + Long.MAX_VALUE}) {
      long due = parse(spec).due(t, 0, 0);
      assertThat(FrameClock.nanosLeft(origin, due, origin + 1_000_000_000L))
          .as(spec)
          .isEqualTo(Long.MAX_VALUE);
    }
  }

  @Test
  void aHugeFactorIsClampedToNeverNotWrappedIntoThePast() {
    long origin = System.nanoTime();
    List<Long> due = schedule("scale:1e308", 0, 1, 5000);

    assertThat(due.get(0)).isZero();
    assertThat(FrameClock.nanosLeft(origin, due.get(1), origin)).isEqualTo(Long.MAX_VALUE);
    assertThat(FrameClock.nanosLeft(origin, due.get(2), origin)).isEqualTo(Long.MAX_VALUE);
  }

  @Test
  void aDueTimeCountsFromTheOriginAndIsPastOnceReached() {
    long origin = -5_000_000_000L; // nanoTime may be negative
    assertThat(FrameClock.nanosLeft(origin, 1000, origin)).isEqualTo(1_000_000_000L);
    assertThat(FrameClock.nanosLeft(origin, 1000, origin + 999_000_000L)).isEqualTo(1_000_000L);
    assertThat(FrameClock.nanosLeft(origin, 1000, origin + 2_000_000_000L)).isNegative();
    assertThat(FrameClock.nanosLeft(origin, FrameClock.NEVER_MS - 1, origin)).isPositive();
  }

  @Test
  void aFactorOrGapThatIsNotANumberIsRefused() {
    assertThatThrownBy(() -> parse("scale:NaN")).hasMessageContaining("scale needs");
    assertThatThrownBy(() -> parse("scale:1e309")).hasMessageContaining("scale needs");
    assertThatThrownBy(() -> parse("max-gap:99999999999999999999"))
        .hasMessageContaining("max-gap needs");
  }
}
