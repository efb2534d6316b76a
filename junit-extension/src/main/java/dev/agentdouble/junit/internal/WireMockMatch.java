package dev.agentdouble.junit.internal;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.containing;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.equalToIgnoreCase;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.notContaining;
import static com.github.tomakehurst.wiremock.client.WireMock.notMatching;

import com.github.tomakehurst.wiremock.matching.StringValuePattern;
import dev.agentdouble.junit.TextMatch;

/** {@link TextMatch}, AgentDouble's matchers, as WireMock's: the one place that translates. */
public final class WireMockMatch {
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
    } else if (match instanceof TextMatch.Absent) {
      return absent();
    }
    throw new IllegalArgumentException("no WireMock pattern for " + match);
  }
}
