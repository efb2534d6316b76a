package dev.agentdouble.recorder.internal.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.recorder.ConformanceTest;
import dev.agentdouble.recorder.NormaliserConformanceTest;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.nio.charset.StandardCharsets;
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

  /**
   * The one pass that tells whether a JSON line may hold a secret answers as looking for each form
   * of each secret, and for {@code \\u} and {@code \\/}, with {@link String#indexOf} would: on
   * every stdout line of every real capture and built-in tape, with secrets that hit some of them.
   */
  @Test
  void onePassOverALineFindsWhatLookingForEachFormFinds() throws Exception {
    List<String> values =
        List.of(
            "assistant", "tool_call", "\u00e9b\u00e8ne-cl\u00e9", "a/b\"c\\d", "session_id\":\"");
    List<Secrets.Secret> list = new ArrayList<>();
    for (String v : values) {
      list.add(new Secrets.Secret(v, "REDACTED:x", "x"));
    }
    List<Tape> tapes = new ArrayList<>();
    for (ConformanceTest.Case c : ConformanceTest.cases()) {
      tapes.add(NormaliserConformanceTest.imported(c));
    }
    for (Catalog.Entry entry : Catalog.entries()) {
      tapes.add(Catalog.tape(entry.name()));
    }
    int lines = 0;
    int hits = 0;
    for (List<Secrets.Secret> secrets : List.of(list, list.subList(0, 1), list.subList(2, 4))) {
      Secrets s = new Secrets(secrets);
      for (Tape tape : tapes) {
        for (Frame f : tape.frames()) {
          if (f instanceof Frame.Out o) {
            byte[] json = o.json().getBytes(StandardCharsets.UTF_8);
            boolean expected = lookedForOneByOne(json, secrets);
            assertThat(s.mayBeIn(json)).as(o.json()).isEqualTo(expected);
            lines++;
            hits += expected ? 1 : 0;
          }
        }
      }
    }
    assertThat(hits).isPositive().isLessThan(lines);
  }

  private static boolean lookedForOneByOne(byte[] json, List<Secrets.Secret> secrets) {
    String latin = new String(json, StandardCharsets.ISO_8859_1);
    if (latin.contains("\\u") || latin.contains("\\/")) {
      return true;
    }
    for (Secrets.Secret secret : secrets) {
      for (String form : Secrets.forms(secret.value())) {
        byte[] bytes = form.getBytes(StandardCharsets.UTF_8);
        if (latin.contains(new String(bytes, StandardCharsets.ISO_8859_1))) {
          return true;
        }
      }
    }
    return false;
  }
}
