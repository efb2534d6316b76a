package dev.agentdouble.junit;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import dev.agentdouble.junit.internal.match.InvocationConditions;
import java.util.List;

/**
 * Which invocations a stub answers or a verification counts, built from {@link TextMatch}es ({@code
 * containing}, {@code matching}, {@code equalTo}, {@code absent}, ...):
 *
 * <pre>{@code
 * agent.when(invocation().prompt(containing("fix")).outputFormat("json")).reply(tape);
 * }</pre>
 *
 * Every condition given must hold. Immutable: each method returns a new pattern. Serve's HTTP API
 * takes the same words, as JSON ({@code "match":{"prompt":{"containing":"fix"},
 * "outputFormat":"json"}}: docs/cli.md).
 */
public final class InvocationPattern {
  private final InvocationConditions conditions;

  private InvocationPattern(InvocationConditions conditions) {
    this.conditions = conditions;
  }

  /** Any invocation; narrow it with the methods below. */
  public static InvocationPattern invocation() {
    return new InvocationPattern(InvocationConditions.ANY);
  }

  /** The prompt matches. */
  public InvocationPattern prompt(TextMatch pattern) {
    return new InvocationPattern(conditions.prompt(pattern));
  }

  /** argv holds this exact element. */
  public InvocationPattern argv(String element) {
    return new InvocationPattern(conditions.argv(element));
  }

  /** Some element of argv matches (e.g. {@code matching("--model=.*")}). */
  public InvocationPattern argv(TextMatch pattern) {
    return new InvocationPattern(conditions.argv(pattern));
  }

  /**
   * The requested output format is {@code format} ({@code text}, {@code json}, {@code
   * stream-json}).
   */
  public InvocationPattern outputFormat(String format) {
    return new InvocationPattern(conditions.outputFormat(format));
  }

  /** The {@code --model} matches. */
  public InvocationPattern model(TextMatch pattern) {
    return new InvocationPattern(conditions.model(pattern));
  }

  /**
   * The CLI stopped the run before it needed a tape, for this reason: {@code trust-gate}, {@code
   * auth}, {@code resume}, {@code new-session-id}, {@code allowed-tools}, ...
   */
  public InvocationPattern stoppedBy(String reason) {
    return new InvocationPattern(conditions.stoppedBy(reason));
  }

  /** The working directory matches. */
  public InvocationPattern cwd(TextMatch pattern) {
    return new InvocationPattern(conditions.cwd(pattern));
  }

  /** What the fake read on stdin matches. */
  public InvocationPattern stdin(TextMatch pattern) {
    return new InvocationPattern(conditions.stdin(pattern));
  }

  /**
   * An environment variable matches: {@code CURSOR_*} ones are seen as {@code REDACTED}; others
   * only when named in {@code AGENTDOUBLE_FORWARD_ENV}.
   */
  public InvocationPattern env(String name, TextMatch pattern) {
    return new InvocationPattern(conditions.env(name, pattern));
  }

  /**
   * The CLI that ran is {@code cli}: {@code cursor-agent} (started as {@code cursor-agent} or
   * {@code agent}) or {@code claude}, as {@link Invocation#cli()} says it.
   */
  public InvocationPattern cli(String cli) {
    return new InvocationPattern(conditions.cli(cli));
  }

  /**
   * The session id the run asked for or was given matches ({@link Invocation#session()}; {@code
   * absent()} for a run continuing the tape's own session, or stopped before it had one).
   */
  public InvocationPattern session(TextMatch pattern) {
    return new InvocationPattern(conditions.session(pattern));
  }

  /** The pattern's conditions added to a WireMock request pattern. */
  RequestPatternBuilder toRequest(RequestPatternBuilder request) {
    return conditions.toRequest(request);
  }

  /** The pattern's conditions added to a WireMock stub. */
  MappingBuilder toRequestMapping(MappingBuilder mapping) {
    return conditions.toRequestMapping(mapping);
  }

  /**
   * The conditions the invocation {@code json} (as the fake sends it) fails, each said as the
   * condition and what the invocation had: {@code prompt containing "deploy", was "say hi"}.
   */
  List<String> mismatches(String json) {
    return conditions.mismatches(json);
  }

  @Override
  public String toString() {
    return conditions.toString();
  }
}
