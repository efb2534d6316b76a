package dev.agentdouble.junit.internal.match;

import dev.agentdouble.junit.TextMatch;

/**
 * How a text is compared: its word in Java (a {@link TextMatch} factory) and over HTTP (the key of
 * a text's operator object in serve's {@code "match"}). Other places switch over it with switch
 * expressions, so a new operator makes the compiler name them ({@link WireMockMatch}).
 */
public enum Operator {
  EQUAL_TO("equalTo"),
  EQUAL_TO_IGNORING_CASE("equalToIgnoringCase"),
  CONTAINING("containing"),
  NOT_CONTAINING("notContaining"),
  MATCHING("matching"),
  NOT_MATCHING("notMatching"),
  CONTAINING_MATCH("containingMatch"),
  ABSENT("absent");

  private final String word;

  Operator(String word) {
    this.word = word;
  }

  /** The {@link TextMatch} factory and the key of the HTTP operator object. */
  public String word() {
    return word;
  }

  /** The text match of this operator with {@code value} (ignored by {@link #ABSENT}). */
  public TextMatch of(String value) {
    return switch (this) {
      case EQUAL_TO -> TextMatch.equalTo(value);
      case EQUAL_TO_IGNORING_CASE -> TextMatch.equalToIgnoringCase(value);
      case CONTAINING -> TextMatch.containing(value);
      case NOT_CONTAINING -> TextMatch.notContaining(value);
      case MATCHING -> TextMatch.matching(value);
      case NOT_MATCHING -> TextMatch.notMatching(value);
      case CONTAINING_MATCH -> TextMatch.containingMatch(value);
      case ABSENT -> TextMatch.absent();
    };
  }

  /** A text match said in words: its operator, and the text or expression it carries. */
  public record Worded(Operator operator, String value) {}

  /**
   * {@code match} in words (the value empty for {@link Operator#ABSENT}): the one place a {@link
   * TextMatch} is told apart by its type; every other place switches over its {@link Operator}.
   */
  public static Worded words(TextMatch match) {
    if (match instanceof TextMatch.EqualTo m) {
      return new Worded(EQUAL_TO, m.text());
    } else if (match instanceof TextMatch.EqualToIgnoringCase m) {
      return new Worded(EQUAL_TO_IGNORING_CASE, m.text());
    } else if (match instanceof TextMatch.Containing m) {
      return new Worded(CONTAINING, m.text());
    } else if (match instanceof TextMatch.NotContaining m) {
      return new Worded(NOT_CONTAINING, m.text());
    } else if (match instanceof TextMatch.Matching m) {
      return new Worded(MATCHING, m.regex());
    } else if (match instanceof TextMatch.NotMatching m) {
      return new Worded(NOT_MATCHING, m.regex());
    } else if (match instanceof TextMatch.ContainingMatch m) {
      return new Worded(CONTAINING_MATCH, m.regex());
    } else if (match instanceof TextMatch.Absent) {
      return new Worded(ABSENT, "");
    }
    throw new IllegalArgumentException("no word for " + match);
  }
}
