package dev.agentdouble.junit.internal.match;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.MatchMiss;
import dev.agentdouble.tape.Match;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What {@code agentdouble serve} answers (HTTP 404, printed by the fake) when no stub, queued tape
 * or tape of its folder answers an invocation: the invocation in its own terms, and the candidate
 * whose {@code match} it missed least, with the conditions missed. No HTTP paths, no WireMock
 * table.
 */
public final class NoTapeReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A tape or stub that could have answered: its name, and the conditions of its match an
   * invocation misses, each said with what the invocation had.
   */
  public record Candidate(String name, Function<InvocationRecord, List<String>> misses) {
    /** A tape's {@code match} (or a stub's in the same words): {@link MatchMiss} evaluates it. */
    public static Candidate of(String name, Match match) {
      return new Candidate(name, invocation -> NoTapeReport.misses(match, invocation));
    }
  }

  private NoTapeReport() {}

  public static String render(String body, List<Candidate> candidates, int queued) {
    InvocationRecord invocation;
    try {
      invocation = InvocationRecord.parse(body);
    } catch (IllegalArgumentException e) {
      return "no tape answers this request: it is not an invocation of the fake (" + body + ")";
    }
    StringBuilder report =
        new StringBuilder("no stub, queued tape or tape of the folder answers prompt ")
            .append(json(invocation.prompt()))
            .append(", ")
            .append(invocation.outputFormat());
    invocation.model().ifPresent(m -> report.append(", model ").append(m));
    report.append(", argv ").append(json(invocation.argv())).append(", cwd ");
    report.append(invocation.cwd());
    report.append("\n").append(enqueued(queued));
    Candidate best = null;
    List<String> fewest = null;
    for (Candidate c : candidates) {
      List<String> misses = c.misses().apply(invocation);
      if (fewest == null || misses.size() < fewest.size()) {
        best = c;
        fewest = misses;
      }
    }
    if (best != null) {
      report
          .append("\n")
          .append(
              fewest.isEmpty()
                  ? best.name() + " matches, but its replies are used up"
                  : "closest: " + best.name() + "; it missed: " + String.join("; ", fewest));
    }
    return report.toString();
  }

  /**
   * What a report says of the queue when nothing answered: {@code nothing was enqueued}, or how
   * many tapes were (all taken, or one would have answered).
   */
  public static String enqueued(int queued) {
    return queued == 0
        ? "nothing was enqueued"
        : queued + (queued == 1 ? " tape was" : " tapes were") + " enqueued, all taken";
  }

  /** The conditions of {@code match} that {@code invocation} fails, with what it had. */
  static List<String> misses(Match match, InvocationRecord invocation) {
    List<String> misses = new ArrayList<>();
    for (MatchMiss miss : MatchMiss.of(match, invocation)) {
      misses.add(
          switch (miss.condition()) {
            case PROMPT ->
                "prompt matching " + json(miss.wanted()) + ", was " + json(invocation.prompt());
            case ARGV -> "argv has " + json(miss.wanted()) + ", was " + json(invocation.argv());
            case OUTPUT_FORMAT ->
                "output format " + miss.wanted() + ", was " + json(invocation.outputFormat());
            case MODEL ->
                "model "
                    + miss.wanted()
                    + ", was "
                    + invocation.model().map(NoTapeReport::json).orElse("absent");
          });
    }
    return misses;
  }

  /** {@code value} as JSON, compact. */
  private static String json(Object value) {
    return JSON.valueToTree(value).toString();
  }
}
