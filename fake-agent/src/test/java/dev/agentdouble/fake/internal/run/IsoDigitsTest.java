package dev.agentdouble.fake.internal.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsoDigitsTest {
  private static String shift(String text, long ms) {
    byte[] bytes = ("\"" + text + "\"").getBytes(StandardCharsets.US_ASCII);
    byte[] moved = IsoDigits.shift(bytes, 1, bytes.length - 1, ms);
    return moved == null ? null : new String(moved, StandardCharsets.US_ASCII);
  }

  /** What java.time makes of it, as the recorder's rebase moves a time: its digits cut. */
  private static String byJavaTime(Instant at, int digits, long ms) {
    Instant moved = at.plusMillis(ms);
    if (moved.isBefore(Instant.EPOCH) || moved.getEpochSecond() > 253_402_300_799L) {
      return null;
    }
    String pattern =
        "yyyy-MM-dd'T'HH:mm:ss" + (digits == 0 ? "" : "." + "S".repeat(digits)) + "'Z'";
    return DateTimeFormatter.ofPattern(pattern).withZone(ZoneOffset.UTC).format(moved);
  }

  @Test
  void movesAsJavaTimeDoesOverLeapYearsMonthEndsAndEveryFractionLength() {
    Random random = new Random(25);
    for (int n = 0; n < 20_000; n++) {
      long second = Math.floorMod(random.nextLong(), 253_402_300_800L);
      Instant at = Instant.ofEpochSecond(second, random.nextInt(1_000_000_000));
      int digits = random.nextInt(10);
      String text = byJavaTime(at, digits, 0);
      Instant written = Instant.parse(text);
      long ms =
          switch (n % 3) {
            case 0 -> random.nextInt(2_000) - 1_000;
            case 1 -> random.nextLong() % 400_000_000_000L;
            default -> random.nextLong() % 400_000_000_000_000L;
          };

      assertThat(shift(text, ms))
          .as("%s by %d", text, ms)
          .isEqualTo(byJavaTime(written, digits, ms));
    }
  }

  @Test
  void crossesDaysMonthsAndLeapDaysByTheMillisecond() {
    assertThat(shift("2028-02-28T23:59:59.999Z", 1)).isEqualTo("2028-02-29T00:00:00.000Z");
    assertThat(shift("2027-02-28T23:59:59.999Z", 1)).isEqualTo("2027-03-01T00:00:00.000Z");
    assertThat(shift("2026-01-01T00:00:00.000Z", -1)).isEqualTo("2025-12-31T23:59:59.999Z");
    assertThat(shift("2026-01-01T00:00:00Z", 1_999)).isEqualTo("2026-01-01T00:00:01Z");
  }

  @Test
  void isNoneForWhatIsNoSuchTimeOrMovesOutOfTheYears1970To9999() {
    assertThat(shift("2026-01-01 00:00:00.000Z", 0)).isNull();
    assertThat(shift("2026-01-01T00:00:00.Z", 0)).isNull();
    assertThat(shift("2026-13-01T00:00:00.000Z", 0)).isNull();
    assertThat(shift("2026-02-29T00:00:00.000Z", 0)).isNull();
    assertThat(shift("2026-01-01T24:00:00.000Z", 0)).isNull();
    assertThat(shift("2026-01-01T00:00:00.0000000000Z", 0)).isNull();
    assertThat(shift("2026-01-01T00:00:00.000+00:00", 0)).isNull();
    assertThat(shift("1970-01-01T00:00:00.000Z", -1)).isNull();
    assertThat(shift("9999-12-31T23:59:59.999Z", 1)).isNull();
  }
}
