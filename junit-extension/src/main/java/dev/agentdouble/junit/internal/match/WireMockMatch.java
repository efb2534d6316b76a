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

  /** WireMock's pattern for {@code match}. */
  public static StringValuePattern of(TextMatch match) {
    if (match instanceof TextMatch.EqualTo m) {
      return equalTo(m.text());
    } else if (match instanceof TextMatch.EqualToIgnoringCase m) {
      return equalToIgnoreCase(m.text());
    } else if (match instanceof TextMatch.Containing m) {
      return containing(m.text());
    } else if (match instanceof TextMatch.NotContaining m) {
      return notContaining(m.text());
    } else if (match instanceof TextMatch.Matching m) {
      return matching(m.regex());
    } else if (match instanceof TextMatch.NotMatching m) {
      return notMatching(m.regex());
    } else if (match instanceof TextMatch.ContainingMatch m) {
      return new FindPattern(m.regex());
    } else if (match instanceof TextMatch.Absent) {
      return absent();
    }
    throw new IllegalArgumentException("no WireMock pattern for " + match);
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
