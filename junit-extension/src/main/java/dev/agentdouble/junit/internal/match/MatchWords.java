package dev.agentdouble.junit.internal.match;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.junit.InvocationPattern;
import dev.agentdouble.junit.TextMatch;
import dev.agentdouble.tape.Match;
import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The words of a match, one table for Java and for serve's HTTP API: each {@link Field} is a method
 * of {@link InvocationPattern} and a key of a stub's {@code "match"}; each {@link Operator} a
 * factory of {@link TextMatch} and the key of a text's operator object. Both build the same {@link
 * InvocationConditions}, so both compile to the same WireMock matching.
 *
 * <pre>{@code
 * {"prompt": "^fix", "argv": ["--force", {"matching": "--model=.*"}], "model": "gpt-5",
 *  "outputFormat": "json", "stoppedBy": "trust-gate", "cwd": {"containing": "/work"},
 *  "stdin": {"absent": true}, "env": {"CI": "true", "HOME": {"notContaining": "root"}},
 *  "cli": "claude", "session": {"absent": true}}
 * }</pre>
 *
 * A text's value is a string (its shorthand: for {@code prompt} a regular expression found in it,
 * as in a tape's {@code match}; for the others the whole text) or an object of one operator.
 */
public final class MatchWords {
  private MatchWords() {}

  /** A field of the invocation a match can set: its word in Java and over HTTP. */
  public enum Field {
    PROMPT("prompt"),
    ARGV("argv"),
    OUTPUT_FORMAT("outputFormat"),
    MODEL("model"),
    STOPPED_BY("stoppedBy"),
    CWD("cwd"),
    STDIN("stdin"),
    ENV("env"),
    CLI("cli"),
    SESSION("session");

    private final String word;

    Field(String word) {
      this.word = word;
    }

    /** The {@link InvocationPattern} method and the HTTP key. */
    public String word() {
      return word;
    }
  }

  /**
   * A stub's match: its conditions, and the same as a tape's {@code match} when it uses only a
   * tape's words ({@code prompt}, {@code argv}, {@code model}, {@code outputFormat} in their
   * shorthands), for the report of an invocation nothing answers.
   */
  public record Parsed(InvocationConditions conditions, Optional<Match> tapeMatch) {}

  /** A match the HTTP API refuses: what to fix. */
  public static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message);
    }
  }

  private static final Set<String> TAPE_WORDS = Set.of("prompt", "argv", "model", "outputFormat");

  /**
   * The conditions of {@code node}, a stub's {@code "match"} (missing or null: any invocation).
   *
   * @throws Refused when it is not a match, saying what to fix
   */
  public static Parsed parse(JsonNode node) {
    if (node.isMissingNode() || node.isNull()) {
      return new Parsed(InvocationConditions.ANY, Optional.of(Match.ANY));
    }
    if (!node.isObject()) {
      throw new Refused("\"match\" must be an object");
    }
    boolean tapeWords = true;
    InvocationConditions c = InvocationConditions.ANY;
    Optional<String> prompt = Optional.empty();
    List<String> argv = new ArrayList<>();
    Optional<OutputFormat> format = Optional.empty();
    Optional<String> model = Optional.empty();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = it.next();
      String key = entry.getKey();
      JsonNode value = entry.getValue();
      Field field = field(key);
      String what = "match." + key;
      tapeWords &= TAPE_WORDS.contains(key) && (value.isTextual() || field == Field.ARGV);
      // a switch expression: a new Field does not compile until it is parsed here
      c =
          switch (field) {
            case PROMPT -> {
              if (value.isTextual()) {
                prompt = Optional.of(value.asText());
                try { // a tape's match.prompt, refused as a tape's is
                  new Match(prompt, List.of(), Optional.empty(), Optional.empty());
                } catch (IllegalArgumentException e) {
                  throw new Refused(e.getMessage());
                }
              }
              yield c.prompt(text(value, what, Operator.CONTAINING_MATCH));
            }
            case ARGV -> {
              if (!value.isArray()) {
                throw new Refused(what + " must be an array of strings or operator objects");
              }
              for (JsonNode element : value) {
                if (element.isTextual()) {
                  argv.add(element.asText());
                  c = c.argv(element.asText());
                } else {
                  tapeWords = false;
                  c = c.argv(text(element, what + "[]", Operator.EQUAL_TO));
                }
              }
              yield c;
            }
            case OUTPUT_FORMAT -> {
              String name = string(value, what);
              format =
                  Optional.of(
                      OutputFormat.fromTapeName(name)
                          .orElseThrow(
                              () ->
                                  new Refused(
                                      what
                                          + " must be text, json, stream-json or acp, was \""
                                          + name
                                          + "\"")));
              yield c.outputFormat(name);
            }
            case MODEL -> {
              if (value.isTextual()) {
                model = Optional.of(value.asText());
              }
              yield c.model(text(value, what, Operator.EQUAL_TO));
            }
            case STOPPED_BY -> c.stoppedBy(string(value, what));
            case CWD -> c.cwd(text(value, what, Operator.EQUAL_TO));
            case STDIN -> c.stdin(text(value, what, Operator.EQUAL_TO));
            case CLI -> c.cli(string(value, what));
            case SESSION -> c.session(text(value, what, Operator.EQUAL_TO));
            case ENV -> {
              if (!value.isObject()) {
                throw new Refused(what + " must be an object: {\"NAME\": TEXT, ...}");
              }
              for (Iterator<Map.Entry<String, JsonNode>> vars = value.properties().iterator();
                  vars.hasNext(); ) {
                Map.Entry<String, JsonNode> var = vars.next();
                c =
                    c.env(
                        var.getKey(),
                        text(var.getValue(), what + "." + var.getKey(), Operator.EQUAL_TO));
              }
              yield c;
            }
          };
    }
    if (!tapeWords) {
      return new Parsed(c, Optional.empty());
    }
    Match match = new Match(prompt, argv, format, model);
    return new Parsed(InvocationConditions.of(match), Optional.of(match));
  }

  private static Field field(String key) {
    for (Field f : Field.values()) {
      if (f.word.equals(key)) {
        return f;
      }
    }
    throw new Refused(
        "unknown match condition \"" + key + "\"; the conditions are " + words(Field.values()));
  }

  /** A text: a string (the {@code shorthand} operator's), or an object of one operator. */
  private static TextMatch text(JsonNode value, String what, Operator shorthand) {
    if (value.isTextual()) {
      return of(shorthand, value.asText(), what);
    }
    if (!value.isObject() || value.size() != 1) {
      throw new Refused(
          what + " must be a string or an object of one operator: " + words(Operator.values()));
    }
    Map.Entry<String, JsonNode> only = value.properties().iterator().next();
    Operator operator =
        Arrays.stream(Operator.values())
            .filter(o -> o.word().equals(only.getKey()))
            .findFirst()
            .orElseThrow(
                () ->
                    new Refused(
                        what
                            + ": unknown operator \""
                            + only.getKey()
                            + "\"; the operators are "
                            + words(Operator.values())));
    if (operator == Operator.ABSENT) {
      if (!only.getValue().isBoolean() || !only.getValue().asBoolean()) {
        throw new Refused(what + ".absent must be true");
      }
      return TextMatch.absent();
    }
    return of(operator, string(only.getValue(), what + "." + operator.word()), what);
  }

  private static TextMatch of(Operator operator, String value, String what) {
    try {
      return operator.of(value);
    } catch (IllegalArgumentException e) {
      throw new Refused(what + ": " + e.getMessage());
    }
  }

  private static String string(JsonNode value, String what) {
    if (!value.isTextual()) {
      throw new Refused(what + " must be a string");
    }
    return value.asText();
  }

  private static String words(Enum<?>[] values) {
    return Arrays.stream(values)
        .map(v -> v instanceof Field f ? f.word : ((Operator) v).word())
        .collect(Collectors.joining(", "));
  }
}
