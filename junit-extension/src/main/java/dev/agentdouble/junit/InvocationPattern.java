package dev.agentdouble.junit;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static dev.agentdouble.junit.TextMatch.equalTo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.junit.internal.WireMockMatch;
import java.util.ArrayList;
import java.util.List;

/**
 * Which invocations a stub answers or a verification counts, built from {@link TextMatch}es ({@code
 * containing}, {@code matching}, {@code equalTo}, {@code absent}, ...):
 *
 * <pre>{@code
 * agent.when(invocation().prompt(containing("fix")).outputFormat("json")).reply(tape);
 * }</pre>
 *
 * Every condition given must hold. Immutable: each method returns a new pattern.
 */
public final class InvocationPattern {
  private record Condition(String path, TextMatch pattern, String description) {}

  private final List<Condition> conditions;

  private InvocationPattern(List<Condition> conditions) {
    this.conditions = List.copyOf(conditions);
  }

  /** Any invocation; narrow it with the methods below. */
  public static InvocationPattern invocation() {
    return new InvocationPattern(List.of());
  }

  private InvocationPattern and(String path, TextMatch pattern, String description) {
    List<Condition> more = new ArrayList<>(conditions);
    more.add(new Condition(path, pattern, description));
    return new InvocationPattern(more);
  }

  /** The prompt matches. */
  public InvocationPattern prompt(TextMatch pattern) {
    return and(InvocationRecord.PATH_PROMPT, pattern, "prompt " + pattern.expected());
  }

  /** argv holds this exact element. */
  public InvocationPattern argv(String element) {
    // on an array, WireMock's matchingJsonPath holds when any element matches
    return and(InvocationRecord.PATH_ARGV, equalTo(element), "argv has \"" + element + "\"");
  }

  /** Some element of argv matches (e.g. {@code matching("--model=.*")}). */
  public InvocationPattern argv(TextMatch pattern) {
    return and(InvocationRecord.PATH_ARGV, pattern, "argv " + pattern.expected());
  }

  /**
   * The requested output format is {@code format} ({@code text}, {@code json}, {@code
   * stream-json}).
   */
  public InvocationPattern outputFormat(String format) {
    return and(InvocationRecord.PATH_OUTPUT_FORMAT, equalTo(format), "output format " + format);
  }

  /** The {@code --model} matches. */
  public InvocationPattern model(TextMatch pattern) {
    return and(InvocationRecord.PATH_MODEL, pattern, "model " + pattern.expected());
  }

  /**
   * The CLI stopped the run before it needed a tape, for this reason: {@code trust-gate}, {@code
   * auth}, {@code resume}, {@code new-session-id}, {@code allowed-tools}, ...
   */
  public InvocationPattern stoppedBy(String reason) {
    return and(InvocationRecord.PATH_STOPPED_BY, equalTo(reason), "stopped by " + reason);
  }

  /** The working directory matches. */
  public InvocationPattern cwd(TextMatch pattern) {
    return and(InvocationRecord.PATH_CWD, pattern, "cwd " + pattern.expected());
  }

  /** What the fake read on stdin matches. */
  public InvocationPattern stdin(TextMatch pattern) {
    return and(InvocationRecord.PATH_STDIN, pattern, "stdin " + pattern.expected());
  }

  /**
   * An environment variable matches: {@code CURSOR_*} ones are seen as {@code REDACTED}; others
   * only when named in {@code AGENTDOUBLE_FORWARD_ENV}.
   */
  public InvocationPattern env(String name, TextMatch pattern) {
    return and(InvocationRecord.pathOfEnv(name), pattern, "env " + name + " " + pattern.expected());
  }

  /** The pattern's conditions added to a WireMock request pattern. */
  RequestPatternBuilder toRequest(RequestPatternBuilder request) {
    for (Condition c : conditions) {
      request.withRequestBody(matchingJsonPath(c.path(), WireMockMatch.of(c.pattern())));
    }
    return request;
  }

  /** The pattern's conditions added to a WireMock stub. */
  MappingBuilder toRequestMapping(MappingBuilder mapping) {
    for (Condition c : conditions) {
      mapping.withRequestBody(matchingJsonPath(c.path(), WireMockMatch.of(c.pattern())));
    }
    return mapping;
  }

  /**
   * The conditions the invocation {@code json} (as the fake sends it) fails, each said as the
   * condition and what the invocation had: {@code prompt containing "deploy", was "say hi"}.
   */
  List<String> mismatches(String json) {
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
