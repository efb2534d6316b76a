package dev.agentdouble.junit;

import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * How one text of an invocation is matched: its prompt, an element of its argv, its model, working
 * directory, stdin or an environment variable. {@link InvocationPattern} takes these:
 *
 * <pre>{@code
 * import static dev.agentdouble.junit.TextMatch.containing;
 *
 * agent.when(invocation().prompt(containing("fix"))).reply(tape);
 * }</pre>
 *
 * <p>AgentDouble's own small vocabulary: the JUnit extension translates it to the matchers of the
 * HTTP server it runs on, which stays out of your tests' imports.
 */
public sealed interface TextMatch {
  /** What the text is compared with, as failure messages show it. */
  String expected();

  /** The whole text is {@code text}. */
  static TextMatch equalTo(String text) {
    return new EqualTo(text);
  }

  /** The whole text is {@code text}, ignoring case. */
  static TextMatch equalToIgnoringCase(String text) {
    return new EqualToIgnoringCase(text);
  }

  /** The text contains {@code text}. */
  static TextMatch containing(String text) {
    return new Containing(text);
  }

  /** The text does not contain {@code text}. */
  static TextMatch notContaining(String text) {
    return new NotContaining(text);
  }

  /**
   * The whole text matches the regular expression {@code regex}.
   *
   * @throws IllegalArgumentException when {@code regex} is not a regular expression
   */
  static TextMatch matching(String regex) {
    return new Matching(regex);
  }

  /**
   * The whole text does not match the regular expression {@code regex}.
   *
   * @throws IllegalArgumentException when {@code regex} is not a regular expression
   */
  static TextMatch notMatching(String regex) {
    return new NotMatching(regex);
  }

  /**
   * The regular expression {@code regex} is found in the text ({@link
   * java.util.regex.Matcher#find()} : anywhere in it, unless anchored), as a tape's {@code
   * match.prompt} is.
   *
   * @throws IllegalArgumentException when {@code regex} is not a regular expression
   */
  static TextMatch containingMatch(String regex) {
    return new ContainingMatch(regex);
  }

  /** The text is not there at all (e.g. no {@code --model}, an unset environment variable). */
  static TextMatch absent() {
    return new Absent();
  }

  /** See {@link TextMatch#equalTo}. */
  record EqualTo(String text) implements TextMatch {
    public EqualTo {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String expected() {
      return text;
    }
  }

  /** See {@link TextMatch#equalToIgnoringCase}. */
  record EqualToIgnoringCase(String text) implements TextMatch {
    public EqualToIgnoringCase {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String expected() {
      return text;
    }
  }

  /** See {@link TextMatch#containing}. */
  record Containing(String text) implements TextMatch {
    public Containing {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String expected() {
      return text;
    }
  }

  /** See {@link TextMatch#notContaining}. */
  record NotContaining(String text) implements TextMatch {
    public NotContaining {
      Objects.requireNonNull(text, "text");
    }

    @Override
    public String expected() {
      return text;
    }
  }

  /** See {@link TextMatch#matching}. */
  record Matching(String regex) implements TextMatch {
    public Matching {
      checkRegex(regex);
    }

    @Override
    public String expected() {
      return regex;
    }
  }

  /** See {@link TextMatch#notMatching}. */
  record NotMatching(String regex) implements TextMatch {
    public NotMatching {
      checkRegex(regex);
    }

    @Override
    public String expected() {
      return regex;
    }
  }

  /** See {@link TextMatch#containingMatch}. */
  record ContainingMatch(String regex) implements TextMatch {
    public ContainingMatch {
      checkRegex(regex);
    }

    @Override
    public String expected() {
      return regex;
    }
  }

  /** See {@link TextMatch#absent}. */
  record Absent() implements TextMatch {
    @Override
    public String expected() {
      return "(absent)";
    }
  }

  private static void checkRegex(String regex) {
    Objects.requireNonNull(regex, "regex");
    try {
      Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "not a regular expression: "
              + regex
              + " ("
              + e.getDescription()
              + " near index "
              + e.getIndex()
              + ")",
          e);
    }
  }
}
