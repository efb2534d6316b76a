package dev.agentdouble.junit.internal.match;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static dev.agentdouble.junit.TextMatch.containingMatch;
import static dev.agentdouble.junit.TextMatch.equalTo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.junit.TextMatch;
import dev.agentdouble.tape.Match;
import java.util.ArrayList;
import java.util.List;

/**
 * The conditions on an invocation that an {@code InvocationPattern}, a stub of serve's HTTP API
 * ({@link MatchWords}) or a tape of serve's folder sets: each a field of the invocation record (its
 * JSON path), a {@link TextMatch} and how failure messages say it. Compiled to WireMock here only,
 * through {@link WireMockMatch}. Immutable: each method returns new conditions.
 */
public final class InvocationConditions {
  private record Condition(String path, TextMatch pattern, String description) {}

  /** No condition: any invocation. */
  public static final InvocationConditions ANY = new InvocationConditions(List.of());

  private final List<Condition> conditions;

  private InvocationConditions(List<Condition> conditions) {
    this.conditions = List.copyOf(conditions);
  }

  /**
   * A tape's {@code match} as conditions: the regular expression of its prompt found in the prompt,
   * each of its argv elements in argv, its output format and its model.
   */
  public static InvocationConditions of(Match match) {
    InvocationConditions c = ANY;
    if (match.prompt().isPresent()) {
      c = c.prompt(containingMatch(match.prompt().get()));
    }
    for (String element : match.argv()) {
      c = c.argv(element);
    }
    if (match.outputFormat().isPresent()) {
      c = c.outputFormat(match.outputFormat().get().cliName());
    }
    if (match.model().isPresent()) {
      c = c.model(equalTo(match.model().get()));
    }
    return c;
  }

  private InvocationConditions and(String path, TextMatch pattern, String description) {
    List<Condition> more = new ArrayList<>(conditions);
    more.add(new Condition(path, pattern, description));
    return new InvocationConditions(more);
  }

  /** See {@code InvocationPattern.prompt}. */
  public InvocationConditions prompt(TextMatch pattern) {
    return and(InvocationRecord.PATH_PROMPT, pattern, "prompt " + pattern.expected());
  }

  /** See {@code InvocationPattern.argv(String)}. */
  public InvocationConditions argv(String element) {
    // on an array, WireMock's matchingJsonPath holds when any element matches
    return and(InvocationRecord.PATH_ARGV, equalTo(element), "argv has \"" + element + "\"");
  }

  /** See {@code InvocationPattern.argv(TextMatch)}. */
  public InvocationConditions argv(TextMatch pattern) {
    return and(InvocationRecord.PATH_ARGV, pattern, "argv " + pattern.expected());
  }

  /** See {@code InvocationPattern.outputFormat}. */
  public InvocationConditions outputFormat(String format) {
    return and(InvocationRecord.PATH_OUTPUT_FORMAT, equalTo(format), "output format " + format);
  }

  /** See {@code InvocationPattern.model}. */
  public InvocationConditions model(TextMatch pattern) {
    return and(InvocationRecord.PATH_MODEL, pattern, "model " + pattern.expected());
  }

  /** See {@code InvocationPattern.stoppedBy}. */
  public InvocationConditions stoppedBy(String reason) {
    return and(InvocationRecord.PATH_STOPPED_BY, equalTo(reason), "stopped by " + reason);
  }

  /** See {@code InvocationPattern.cwd}. */
  public InvocationConditions cwd(TextMatch pattern) {
    return and(InvocationRecord.PATH_CWD, pattern, "cwd " + pattern.expected());
  }

  /** See {@code InvocationPattern.stdin}. */
  public InvocationConditions stdin(TextMatch pattern) {
    return and(InvocationRecord.PATH_STDIN, pattern, "stdin " + pattern.expected());
  }

  /** See {@code InvocationPattern.env}. */
  public InvocationConditions env(String name, TextMatch pattern) {
    return and(InvocationRecord.pathOfEnv(name), pattern, "env " + name + " " + pattern.expected());
  }

  /** See {@code InvocationPattern.cli}. */
  public InvocationConditions cli(String cli) {
    return and(InvocationRecord.PATH_CLI, equalTo(cli), "cli " + cli);
  }

  /** See {@code InvocationPattern.session}. */
  public InvocationConditions session(TextMatch pattern) {
    return and(InvocationRecord.PATH_SESSION, pattern, "session " + pattern.expected());
  }

  /** The conditions added to a WireMock request pattern. */
  public RequestPatternBuilder toRequest(RequestPatternBuilder request) {
    for (Condition c : conditions) {
      request.withRequestBody(matchingJsonPath(c.path(), WireMockMatch.of(c.pattern())));
    }
    return request;
  }

  /** The conditions added to a WireMock stub. */
  public MappingBuilder toRequestMapping(MappingBuilder mapping) {
    for (Condition c : conditions) {
      mapping.withRequestBody(matchingJsonPath(c.path(), WireMockMatch.of(c.pattern())));
    }
    return mapping;
  }

  /**
   * The conditions the invocation {@code json} (as the fake sends it) fails, each said as the
   * condition and what the invocation had: {@code prompt containing "deploy", was "say hi"}.
   */
  public List<String> mismatches(String json) {
    List<String> failed = new ArrayList<>();
    JsonNode invocation;
    try {
      invocation = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      return List.of("not an invocation: " + json);
    }
    for (Condition c : conditions) {
      if (!matchingJsonPath(c.path(), WireMockMatch.of(c.pattern())).match(json).isExactMatch()) {
        failed.add(c.description() + ", was " + shown(invocation, c.path()));
      }
    }
    return failed;
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The value at {@code path} ({@code $.a.b}) of {@code invocation}, as JSON, or absent. */
  private static String shown(JsonNode invocation, String path) {
    JsonNode node = invocation;
    for (String part : path.substring(2).split("\\.")) {
      node = node.path(part);
    }
    return node.isMissingNode() || node.isNull() ? "absent" : node.toString();
  }

  @Override
  public String toString() {
    if (conditions.isEmpty()) {
      return "any invocation";
    }
    List<String> parts = new ArrayList<>();
    for (Condition c : conditions) {
      parts.add(c.description());
    }
    return String.join(", ", parts);
  }
}
