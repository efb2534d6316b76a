package dev.agentdouble.recorder.internal.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.tape.Frame;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** A secret that no single frame holds whole is still redacted. */
class SplitSecretsTest {
  private static final String KEY = "sk-live-0123456789";

  private final List<Piece> out = new ArrayList<>();
  private final Map<String, Integer> counts = new HashMap<>();
  private final Secrets secrets =
      new Secrets(List.of(new Secrets.Secret(KEY, "REDACTED:API_KEY", "API_KEY")));
  private final SplitSecrets split =
      new SplitSecrets(p -> p.with(secrets.replace(p.bytes(), counts)), secrets, counts, out::add);

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private List<String> seen() {
    return out.stream()
        .map(p -> p.kind() + " " + new String(p.bytes(), StandardCharsets.UTF_8))
        .toList();
  }

  @Test
  void aSecretCutInTwoBetweenStderrWritesIsReplacedWhereItStarts() throws IOException {
    split.accept(Piece.err(1, bytes("Error: bad key sk-live-01")));
    split.accept(Piece.err(2, bytes("23456789 rejected\n")));
    split.finish();

    assertThat(seen()).containsExactly("ERR Error: bad key REDACTED:API_KEY", "ERR  rejected\n");
    assertThat(counts).containsEntry("API_KEY", 1);
  }

  @Test
  void aSecretWrittenByteByByteLeavesNoPieceOfItself() throws IOException {
    split.accept(Piece.out(0, bytes("key=")));
    for (int i = 0; i < KEY.length(); i++) {
      split.accept(Piece.out(i + 1, bytes(KEY.substring(i, i + 1))));
      split.accept(Piece.err(i + 1, bytes("tick\n")));
    }
    split.accept(Piece.out(99, bytes("\n")));
    split.finish();

    String stdout =
        String.join(
            "",
            out.stream()
                .filter(p -> p.kind() == Piece.Kind.OUT)
                .map(p -> new String(p.bytes(), StandardCharsets.UTF_8))
                .toList());
    assertThat(stdout).isEqualTo("key=REDACTED:API_KEY\n");
    assertThat(out).filteredOn(p -> p.kind() == Piece.Kind.ERR).hasSize(KEY.length());
    assertThat(out).allMatch(p -> p.bytes().length > 0);
  }

  @Test
  void framesKeepTheirOrderAndAreAllGivenOut() throws IOException {
    split.accept(Piece.out(1, bytes("partial ")));
    split.accept(Piece.err(2, bytes("warn\n")));
    split.accept(Piece.json(3, bytes("{\"type\":\"a\"}")));
    split.accept(Piece.err(4, bytes("more\n")));
    split.finish();

    assertThat(seen())
        .containsExactly("OUT partial ", "ERR warn\n", "JSON {\"type\":\"a\"}", "ERR more\n");
    assertThat(counts).isEmpty();
  }

  @Test
  void framesAreGivenOutOnceEnoughOfTheirStreamFollowed() throws IOException {
    split.accept(Piece.err(1, bytes("first\n")));
    assertThat(out).isEmpty();

    // enough to hold the longest form of the key (every character \\u-escaped, then escaped again)
    split.accept(Piece.err(2, bytes("x".repeat(secrets.longestInBytes()))));

    assertThat(seen()).containsExactly("ERR first\n");
  }

  @Test
  void framesHeldBehindAnOpenOneAreBoundedInNumber() throws IOException {
    split.accept(Piece.out(0, bytes("partial")));
    for (int i = 0; i < SplitSecrets.HELD_FRAMES; i++) {
      split.accept(Piece.err(i, bytes(".")));
    }

    assertThat(out).as("given out before the run ends").isNotEmpty();
    assertThat(seen().get(0)).isEqualTo("OUT partial");
  }

  @Test
  void aJsonLineEndsStdoutsRawBytesSoNothingIsJoinedAcrossIt() throws IOException {
    split.accept(Piece.out(1, bytes("sk-live-01")));
    split.accept(Piece.json(2, bytes("{\"n\":1}")));
    split.accept(Piece.out(3, bytes("23456789\n")));
    split.finish();

    assertThat(seen()).containsExactly("OUT sk-live-01", "JSON {\"n\":1}", "OUT 23456789\n");
  }

  @Test
  void gatesAndEndingsPassUnchanged() throws IOException {
    split.accept(Piece.err(1, bytes("sk-live")));
    split.accept(Piece.of(new Frame.Exit(2, 0)));
    split.finish();

    assertThat(out).extracting(Piece::kind).containsExactly(Piece.Kind.ERR, Piece.Kind.OTHER);
    assertThat(out.get(1).frame()).isEqualTo(new Frame.Exit(2, 0));
  }

  /** {@code s} with every character as a JSON {@code \}{@code uXXXX} escape. */
  static String unicode(String s, boolean upper) {
    StringBuilder sb = new StringBuilder();
    for (char c : s.toCharArray()) {
      String hex = String.format("%04x", (int) c);
      sb.append("\\u").append(upper ? hex.toUpperCase(Locale.ROOT) : hex);
    }
    return sb.toString();
  }

  /**
   * A JSON line written in two writes is two raw frames: a secret written with every character
   * {@code \}{@code u}-escaped inside its string (lower or upper case hex, or escaped once more for
   * JSON inside a JSON string), cut between them, is still replaced where it starts.
   */
  @Test
  void aFullyUnicodeEscapedSecretCutInTwoIsReplaced() throws IOException {
    for (String escaped :
        List.of(
            unicode(KEY, false), unicode(KEY, true), unicode(KEY, false).replace("\\", "\\\\"))) {
      out.clear();
      int cut = escaped.length() / 2 + 1;
      split.accept(
          Piece.out(
              1, bytes("{\"type\":\"assistant\",\"text\":\"key " + escaped.substring(0, cut))));
      split.accept(Piece.out(2, bytes(escaped.substring(cut) + " end\"}\n")));
      split.finish();

      assertThat(String.join("", seen()))
          .as(escaped)
          .isEqualTo("OUT {\"type\":\"assistant\",\"text\":\"key REDACTED:API_KEYOUT  end\"}\n");
    }
  }

  @Test
  void withoutSecretsFramesPassStraightThrough() throws IOException {
    SplitSecrets none =
        new SplitSecrets(UnaryOperator.identity(), new Secrets(List.of()), counts, out::add);

    none.accept(Piece.err(1, bytes("a")));

    assertThat(seen()).containsExactly("ERR a");
  }

  /**
   * Random stdout and stderr, with secrets planted anywhere in any of their JSON string forms, cut
   * into random interleaved frames: what each stream says in the end is what cleaning the whole
   * stream at once gives, and no form of a secret is left.
   */
  @Test
  void eachStreamEndsAsIfItHadBeenCleanedWhole() throws IOException {
    Random random = new Random(11);
    List<Secrets.Secret> planted =
        List.of(
            new Secrets.Secret(KEY, "<K>", "K"),
            new Secrets.Secret("tok-ABCDEFGH", "<T>", "T"),
            new Secrets.Secret("ünï-cödé-✓✓", "<U>", "U"));
    Secrets many = new Secrets(planted);
    // each secret as it is and in the JSON string forms a writer gives it: escaped, every
    // character \\u-escaped (either case), and that escaped once more
    List<String> forms = new ArrayList<>();
    for (Secrets.Secret secret : planted) {
      String v = secret.value();
      String quoted = JsonText.quote(v);
      forms.addAll(
          List.of(
              v,
              quoted.substring(1, quoted.length() - 1),
              unicode(v, false),
              unicode(v, true),
              unicode(v, false).replace("\\", "\\\\")));
    }
    String[] words = {"a", "bc", "sk-live", "0123", "tok-", "ABCD", "ünï", "✓", "\n", " "};
    for (int round = 0; round < 1500; round++) {
      byte[][] streams = new byte[2][];
      for (int s = 0; s < 2; s++) {
        StringBuilder sb = new StringBuilder();
        for (int k = random.nextInt(30); k >= 0; k--) {
          sb.append(
              random.nextInt(5) == 0
                  ? forms.get(random.nextInt(forms.size()))
                  : words[random.nextInt(words.length)]);
        }
        streams[s] = bytes(sb.toString());
      }
      List<Piece> given = new ArrayList<>();
      Map<String, Integer> got = new HashMap<>();
      SplitSecrets cleaning =
          new SplitSecrets(p -> p.with(many.replace(p.bytes(), got)), many, got, given::add);
      int[] at = {0, 0};
      long t = 0;
      while (at[0] < streams[0].length || at[1] < streams[1].length) {
        int s =
            at[1] >= streams[1].length || (at[0] < streams[0].length && random.nextBoolean())
                ? 0
                : 1;
        int n = 1 + random.nextInt(Math.min(9, streams[s].length - at[s]));
        byte[] chunk = Arrays.copyOfRange(streams[s], at[s], at[s] + n);
        cleaning.accept(s == 0 ? Piece.out(t++, chunk) : Piece.err(t++, chunk));
        at[s] += n;
      }
      cleaning.finish();

      Map<String, Integer> expected = new HashMap<>();
      for (int s = 0; s < 2; s++) {
        Piece.Kind kind = s == 0 ? Piece.Kind.OUT : Piece.Kind.ERR;
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        given.stream().filter(p -> p.kind() == kind).forEach(p -> joined.writeBytes(p.bytes()));
        String cleaned = joined.toString(StandardCharsets.UTF_8);
        assertThat(cleaned)
            .as("round %d, stream %d", round, s)
            .isEqualTo(new String(many.replace(streams[s], expected), StandardCharsets.UTF_8));
        for (String form : forms) {
          assertThat(cleaned).as("round %d, stream %d", round, s).doesNotContain(form);
        }
      }
      assertThat(got).as("round %d", round).isEqualTo(expected);
      assertThat(given).as("round %d", round).allMatch(p -> p.bytes().length > 0);
    }
  }
}
