package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.importer.Capture;
import dev.agentdouble.importer.ImportOptions;
import dev.agentdouble.importer.Importer;
import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.lint.Linter;
import dev.agentdouble.recorder.internal.scan.JsonWalk;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Normalisation of the real captures in {@code ../shared/conformance/} (read in place, never
 * copied): every byte of every line is kept but the volatile values, which change exactly as
 * documented. Skipped, saying why, when the corpus is absent.
 */
public class NormaliserConformanceTest {

  /** One JSON scalar or field name as written, with the key it stands under. */
  record Token(JsonCursor.Token type, String raw, String keyRaw, String text) {}

  static List<Token> tokens(String json) throws JsonCursor.Malformed {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    List<Token> tokens = new ArrayList<>();
    JsonWalk.walk(
        bytes,
        0,
        bytes.length,
        (c, token, place) ->
            tokens.add(
                new Token(
                    token,
                    c.raw(),
                    place.keyRaw(),
                    token == JsonCursor.Token.STRING || token == JsonCursor.Token.FIELD_NAME
                        ? c.text()
                        : c.raw())));
    return tokens;
  }

  /** The line with every scalar and field name taken out: its structure. */
  static String skeleton(String json) throws JsonCursor.Malformed {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    JsonWalk.Splice splice = new JsonWalk.Splice();
    JsonWalk.walk(
        bytes, 0, bytes.length, (c, token, place) -> splice.add(c.tokenStart(), c.tokenEnd(), "_"));
    return new String(splice.apply(bytes, 0, bytes.length), StandardCharsets.UTF_8);
  }

  public static Tape imported(ConformanceTest.Case c) throws Exception {
    byte[] stdout = Files.readAllBytes(c.stdout());
    byte[] stderr = Files.exists(c.stderr()) ? Files.readAllBytes(c.stderr()) : new byte[0];
    return Importer.importRun(
        Capture.exited(stdout, stderr, c.exit()), ImportOptions.builder().raw(true).build());
  }

  @Test
  void theCorpusIsBesideTheProject() {
    assertThat(ConformanceTest.cases()).isNotEmpty();
  }

  @TestFactory
  Stream<DynamicTest> everyCaptureKeepsEveryByteButTheVolatileValues() {
    return ConformanceTest.cases().stream()
        .map(
            c ->
                DynamicTest.dynamicTest(
                    c.name(),
                    () -> {
                      Tape raw = imported(c);
                      Tape normalised = Normaliser.normalise(raw, Normaliser.Context.NONE);

                      // what the test itself knows to be volatile, read from the capture
                      Set<String> ids = new HashSet<>();
                      String session = null;
                      String cwd = null;
                      for (Frame f : raw.frames()) {
                        if (f instanceof Frame.Out out) {
                          for (Token t : tokens(out.json())) {
                            if (t.type() != JsonCursor.Token.STRING) {
                              continue;
                            }
                            switch (t.keyRaw()) {
                              case "\"session_id\"" ->
                                  session = session == null ? t.text() : session;
                              case "\"cwd\"" -> cwd = cwd == null ? t.text() : cwd;
                              case "\"request_id\"", "\"call_id\"", "\"toolCallId\"" ->
                                  ids.add(t.text());
                              case "\"model_call_id\"" -> {
                                ids.add(t.text());
                                ids.add(t.text().replaceFirst("-[0-9]+-[A-Za-z0-9]+$", ""));
                              }
                              default -> {}
                            }
                          }
                        }
                      }

                      assertThat(normalised.frames()).hasSameSizeAs(raw.frames());
                      Long shift = null;
                      int changed = 0;
                      for (int i = 0; i < raw.frames().size(); i++) {
                        Frame before = raw.frames().get(i);
                        Frame after = normalised.frames().get(i);
                        assertThat(after.t()).isEqualTo(before.t());
                        if (!(before instanceof Frame.Out out)) {
                          assertThat(after).as("frame %d of %s", i, c.name()).isEqualTo(before);
                          continue;
                        }
                        String now = ((Frame.Out) after).json();
                        assertThat(skeleton(now)).isEqualTo(skeleton(out.json()));
                        List<Token> was = tokens(out.json());
                        List<Token> is = tokens(now);
                        assertThat(is).hasSameSizeAs(was);
                        for (int k = 0; k < was.size(); k++) {
                          Token w = was.get(k);
                          Token n = is.get(k);
                          if (w.raw().equals(n.raw())) {
                            continue;
                          }
                          changed++;
                          String where =
                              c.name()
                                  + " frame "
                                  + i
                                  + " "
                                  + w.keyRaw()
                                  + ": "
                                  + w.raw()
                                  + " -> "
                                  + n.raw();
                          if (w.keyRaw().equals("\"timestamp_ms\"")
                              || w.keyRaw().equals("\"startedAtMs\"")
                              || w.keyRaw().equals("\"completedAtMs\"")) {
                            long moved =
                                Long.parseLong(n.text().replace("\"", ""))
                                    - Long.parseLong(w.text().replace("\"", ""));
                            shift = shift == null ? moved : shift;
                            assertThat(moved)
                                .as("one shift for all timestamps: %s", where)
                                .isEqualTo(shift);
                          } else if (w.text().equals(session)) {
                            assertThat(n.raw())
                                .as(where)
                                .isEqualTo(JsonText.quote(Normaliser.SESSION_ID));
                          } else if (ids.contains(w.text())) {
                            // the same shape, random characters turned into digits; prefixes like
                            // call_ kept
                            assertThat(n.text()).as(where).hasSameSizeAs(w.text());
                            assertThat(n.text().replaceAll("(?m)^[A-Za-z]{1,5}[_-]", ""))
                                .as(where)
                                .matches("[0-9_\\-\\n]+");
                          } else {
                            assertThat(cwd)
                                .as("only the cwd changes besides ids and times: %s", where)
                                .isNotNull();
                            assertThat(w.text()).as(where).startsWith(cwd);
                            assertThat(n.text())
                                .as(where)
                                .isEqualTo(Normaliser.CWD + w.text().substring(cwd.length()));
                          }
                        }
                      }
                      if (session != null && session.length() >= 8) {
                        assertThat(changed).as("values rebased in %s", c.name()).isPositive();
                      }
                      Linter.Scope scope = c.excerpt() ? Linter.Scope.EXCERPT : Linter.Scope.RUN;
                      assertThat(Linter.lint(normalised, scope))
                          .as("lint of %s", c.name())
                          .noneMatch(f -> f.isError());
                      assertThat(
                              Normaliser.normalise(normalised, Normaliser.Context.NONE).toBytes())
                          .as("normalising %s twice", c.name())
                          .isEqualTo(normalised.toBytes());
                    }));
  }
}
