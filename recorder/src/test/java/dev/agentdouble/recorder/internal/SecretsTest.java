package dev.agentdouble.recorder.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Replacing many secrets at once gives what replacing them one place at a time would. */
class SecretsTest {

  /** The rule, spelled out: at each place, the longest secret starting there; else move on. */
  private static String reference(
      String text, List<Secrets.Secret> secrets, Map<String, Integer> counts) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < text.length()) {
      Secrets.Secret best = null;
      for (Secrets.Secret s : secrets) {
        if (text.startsWith(s.value(), i)
            && (best == null || s.value().length() > best.value().length())) {
          best = s;
        }
      }
      if (best == null) {
        out.append(text.charAt(i++));
      } else {
        out.append(best.replacement());
        counts.merge(best.source(), 1, Integer::sum);
        i += best.value().length();
      }
    }
    return out.toString();
  }

  private static String word(Random random, int min, int max) {
    StringBuilder sb = new StringBuilder();
    int n = min + random.nextInt(max - min + 1);
    for (int k = 0; k < n; k++) {
      sb.append("ab01".charAt(random.nextInt(4)));
    }
    return sb.toString();
  }

  @Test
  void fewOrManySecretsAreFoundEarliestFirstAndLongestWhereTheyStartTogether() {
    Random random = new Random(42);
    for (int round = 0; round < 400; round++) {
      // a few secrets (searched one by one) or many (looked up together), overlapping often
      int count = round % 2 == 0 ? 1 + random.nextInt(8) : 9 + random.nextInt(200);
      List<Secrets.Secret> secrets = new ArrayList<>();
      Map<String, Secrets.Secret> byValue = new HashMap<>();
      for (int k = 0; k < count; k++) {
        String value = word(random, 1 + random.nextInt(3), 9);
        Secrets.Secret s = new Secrets.Secret(value, "<" + k + ">", "s" + k);
        secrets.add(s);
        byValue.putIfAbsent(value, s);
      }
      String text = word(random, 0, 400);
      Map<String, Integer> expectedCounts = new HashMap<>();
      String expected = reference(text, List.copyOf(byValue.values()), expectedCounts);

      Map<String, Integer> counts = new HashMap<>();
      assertThat(new Secrets(secrets).replace(text, counts))
          .as("round %d", round)
          .isEqualTo(expected);
      assertThat(counts).as("round %d", round).isEqualTo(expectedCounts);
    }
  }

  @Test
  void thousandsOfSecretsInALongTextAreReplacedInOnePass() {
    List<Secrets.Secret> secrets = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int k = 0; k < 5000; k++) {
      String value = "17842" + String.format("%08d", k * 7919L);
      secrets.add(new Secrets.Secret(value, "R", "pattern-1"));
      text.append("{\"timestamp_ms\":").append(value).append("} ");
    }
    text.append("x".repeat(1 << 20));
    Map<String, Integer> counts = new HashMap<>();

    String clean = new Secrets(secrets).replace(text.toString(), counts);

    assertThat(counts).containsEntry("pattern-1", 5000);
    assertThat(clean).startsWith("{\"timestamp_ms\":R} {\"timestamp_ms\":R} ");
  }
}
