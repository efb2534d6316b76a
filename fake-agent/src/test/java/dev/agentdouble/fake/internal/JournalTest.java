package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JournalTest {
  @ParameterizedTest
  @ValueSource(
      longs = {
        0L,
        1L,
        951_782_400_000L,
        1_709_164_800_123L,
        1_795_298_467_916L,
        4_102_444_799_999L,
        253_402_300_799_999L
      })
  void formatsInstantsAsJavaTimeDoesWithMilliseconds(long epochMs) {
    String expected = Instant.ofEpochMilli(epochMs).truncatedTo(ChronoUnit.MILLIS).toString();
    String withMillis = expected.contains(".") ? expected : expected.replace("Z", ".000Z");

    assertThat(Journal.isoInstant(epochMs)).isEqualTo(withMillis);
  }
}
