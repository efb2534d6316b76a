package dev.agentdouble.junit.internal.match;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToIgnoreCase;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.notMatching;

import com.github.tomakehurst.wiremock.matching.MatchResult;
import com.github.tomakehurst.wiremock.matching.StringValuePattern;
import dev.agentdouble.junit.TextMatch;
import java.util.regex.Pattern;
import wiremock.com.fasterxml.jackson.annotation.JsonProperty;

/** {@link TextMatch}, AgentDouble's matchers, as WireMock's: the one place that translates. */
final class WireMockMatch {
  private WireMockMatch() {}

  /**
   * WireMock's pattern for {@code match}: a switch expression over its operator, so that the
   * compiler names this place when {@link Operator} grows.
   */
  public static StringValuePattern of(TextMatch match) {
    Operator.Worded words = Operator.words(match);
    String value = words.value();
    return switch (words.operator()) {
      case EQUAL_TO -> equalTo(value);
      case EQUAL_TO_IGNORING_CASE -> equalToIgnoreCase(value);
      case CONTAINING -> containing(value);
      case NOT_CONTAINING -> notContaining(value);
      case MATCHING -> matching(value);
      case NOT_MATCHING -> notMatching(value);
      case CONTAINING_MATCH -> new FindPattern(value);
      case ABSENT -> absent();
    };
  }

  /**
   * A regular expression <em>found</em> in the value, as a tape's {@code match.prompt} is
   * (WireMock's {@code matching} must match the whole value, with {@code DOTALL}). Java syntax and
   * default flags, exactly as the fake agent applies it to {@code AGENTDOUBLE_TAPES}.
   */
  public static final class FindPattern extends StringValuePattern {
    private final Pattern pattern;

    // WireMock's own (shaded) Jackson reads stub patterns: the annotation is its copy's
    public FindPattern(@JsonProperty("find") String regex) {
      super(regex);
      this.pattern = Pattern.compile(regex);
    }

    @Override
    public MatchResult match(String value) {
      return MatchResult.of(value != null && pattern.matcher(value).find());
    }
  }
}
