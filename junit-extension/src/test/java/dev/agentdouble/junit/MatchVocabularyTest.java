package dev.agentdouble.junit;

import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.newRequestPattern;
import static dev.agentdouble.junit.InvocationPattern.invocation;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.matching.RequestPattern;
import dev.agentdouble.junit.internal.match.InvocationConditions;
import dev.agentdouble.junit.internal.match.MatchWords;
import dev.agentdouble.junit.internal.match.MatchWords.Field;
import dev.agentdouble.junit.internal.match.Operator;
import dev.agentdouble.tape.Match;
import dev.agentdouble.tape.OutputFormat;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Java's {@link InvocationPattern} and {@link TextMatch} and the {@code "match"} of serve's HTTP
 * API have the same words ({@link MatchWords}, the one table), and each word means the same
 * WireMock matching on either side.
 */
class MatchVocabularyTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }

  private static RequestPattern wireMock(InvocationPattern pattern) {
    return pattern.toRequest(newRequestPattern()).build();
  }

  private static RequestPattern wireMock(InvocationConditions conditions) {
    return conditions.toRequest(newRequestPattern()).build();
  }

  private static RequestPattern http(String match) throws Exception {
    return wireMock(MatchWords.parse(json(match)).conditions());
  }

  @Test
  void everyMethodOfAnInvocationPatternIsAFieldOfTheHttpMatchAndNoOtherIs() {
    Set<String> methods =
        Arrays.stream(InvocationPattern.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()))
            .filter(m -> !Modifier.isStatic(m.getModifiers()))
            .map(Method::getName)
            .filter(n -> !n.equals("toString"))
            .collect(Collectors.toSet());

    assertThat(Arrays.stream(Field.values()).map(Field::word))
        .containsExactlyInAnyOrderElementsOf(methods);
  }

  @Test
  void everyTextMatchIsAnOperatorOfTheHttpMatchAndNoOtherIs() {
    Set<String> factories =
        Arrays.stream(TextMatch.class.getDeclaredMethods())
            .filter(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
            .map(Method::getName)
            .collect(Collectors.toSet());
    Set<Class<?>> cases = Set.of(TextMatch.class.getPermittedSubclasses());

    assertThat(Arrays.stream(Operator.values()).map(Operator::word))
        .containsExactlyInAnyOrderElementsOf(factories);
    assertThat(Arrays.stream(Operator.values()).<Class<?>>map(o -> o.of("x").getClass()))
        .containsExactlyInAnyOrderElementsOf(cases);
  }

  @Test
  void eachOperatorOverHttpIsItsTextMatchInJava() throws Exception {
    for (Operator operator : Operator.values()) {
      String value = operator == Operator.ABSENT ? "true" : "\"a.c\"";
      String http = "{\"" + operator.word() + "\":" + value + "}";
      TextMatch java = operator.of("a.c");

      assertThat(http("{\"cwd\":" + http + "}"))
          .as(operator.word())
          .isEqualTo(wireMock(invocation().cwd(java)));
      assertThat(http("{\"argv\":[" + http + "]}"))
          .as(operator.word())
          .isEqualTo(wireMock(invocation().argv(java)));
    }
  }

  @Test
  void eachFieldOverHttpIsItsMethodInJava() throws Exception {
    List<Object[]> pairs =
        List.of(
            new Object[] {
              "{\"prompt\":{\"containing\":\"fix\"}}",
              invocation().prompt(TextMatch.containing("fix"))
            },
            new Object[] {"{\"argv\":[\"--force\"]}", invocation().argv("--force")},
            new Object[] {
              "{\"argv\":[{\"matching\":\"--model=.*\"}]}",
              invocation().argv(TextMatch.matching("--model=.*"))
            },
            new Object[] {"{\"outputFormat\":\"json\"}", invocation().outputFormat("json")},
            new Object[] {"{\"model\":{\"absent\":true}}", invocation().model(TextMatch.absent())},
            new Object[] {"{\"stoppedBy\":\"trust-gate\"}", invocation().stoppedBy("trust-gate")},
            new Object[] {
              "{\"cwd\":{\"notContaining\":\"tmp\"}}",
              invocation().cwd(TextMatch.notContaining("tmp"))
            },
            new Object[] {
              "{\"stdin\":{\"equalToIgnoringCase\":\"yes\"}}",
              invocation().stdin(TextMatch.equalToIgnoringCase("yes"))
            },
            new Object[] {
              "{\"env\":{\"CI\":{\"notMatching\":\"false|0\"}}}",
              invocation().env("CI", TextMatch.notMatching("false|0"))
            },
            new Object[] {"{\"cli\":\"claude\"}", invocation().cli("claude")},
            new Object[] {
              "{\"session\":{\"absent\":true}}", invocation().session(TextMatch.absent())
            });
    Set<String> covered =
        pairs.stream()
            .map(p -> ((String) p[0]).replaceAll("^\\{\"(\\w+)\".*", "$1"))
            .collect(Collectors.toSet());

    for (Object[] pair : pairs) {
      assertThat(http((String) pair[0]))
          .as((String) pair[0])
          .isEqualTo(wireMock((InvocationPattern) pair[1]));
    }
    assertThat(covered)
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(Field.values()).map(Field::word).toList());
  }

  /**
   * A tape's {@code match} in its shorthands (as serve's stubs took it before they took every word)
   * means what it means in a tape: the prompt's regular expression found, each argv element, the
   * output format, the model whole.
   */
  @Test
  void theShorthandsAreATapesMatch() throws Exception {
    MatchWords.Parsed parsed =
        MatchWords.parse(
            json(
                "{\"prompt\":\"^fix\",\"argv\":[\"--force\"],\"outputFormat\":\"json\","
                    + "\"model\":\"gpt-5\"}"));
    Match tape =
        new Match(
            Optional.of("^fix"),
            List.of("--force"),
            Optional.of(OutputFormat.JSON),
            Optional.of("gpt-5"));

    assertThat(parsed.tapeMatch()).contains(tape);
    assertThat(wireMock(parsed.conditions()))
        .isEqualTo(
            wireMock(
                invocation()
                    .prompt(TextMatch.containingMatch("^fix"))
                    .argv("--force")
                    .outputFormat("json")
                    .model(TextMatch.equalTo("gpt-5"))));
    assertThat(MatchWords.parse(json("{\"cwd\":\"/w\"}")).tapeMatch()).isEmpty();
  }
}
