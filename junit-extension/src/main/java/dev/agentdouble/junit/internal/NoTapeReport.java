package dev.agentdouble.junit.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.tape.Match;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code agentdouble serve} answers (HTTP 404, printed by the fake) when no stub, queued tape
 * or tape of its folder answers an invocation: the invocation in its own terms, and the candidate
 * whose {@code match} it missed least, with the conditions missed. No HTTP paths, no WireMock
 * table.
 */
public final class NoTapeReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A tape or stub that could have answered: its name and its match. */
  record Candidate(String name, Match match) {}

  private NoTapeReport() {}

  static String render(String body, List<Candidate> candidates, int queued) {
    JsonNode invocation;
    try {
      invocation = JSON.readTree(body);
    } catch (JsonProcessingException e) {
      return "no tape answers this request: it is not an invocation of the fake (" + body + ")";
    }
    StringBuilder report =
        new StringBuilder("no stub, queued tape or tape of the folder answers prompt ")
            .append(invocation.path("prompt"))
            .append(", ")
            .append(invocation.path("outputFormat").asText());
    if (invocation.hasNonNull("model")) {
      report.append(", model ").append(invocation.path("model").asText());
    }
    report.append(", argv ").append(invocation.path("argv")).append(", cwd ");
    report.append(invocation.path("cwd").asText());
    report.append("\n").append(enqueued(queued));
    Candidate best = null;
    List<String> fewest = null;
    for (Candidate c : candidates) {
      List<String> misses = misses(c.match(), invocation);
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
  static List<String> misses(Match match, JsonNode invocation) {
    List<String> misses = new ArrayList<>();
    String prompt = invocation.path("prompt").asText("");
    match
        .promptPattern()
        .filter(p -> !p.matcher(prompt).find())
        .ifPresent(
            p ->
                misses.add(
                    "prompt matching "
                        + JSON.valueToTree(p.pattern())
                        + ", was "
                        + invocation.path("prompt")));
    List<String> argv = new ArrayList<>();
    invocation.path("argv").forEach(a -> argv.add(a.asText()));
    for (String element : match.argv()) {
      if (!argv.contains(element)) {
        misses.add("argv has " + JSON.valueToTree(element) + ", was " + invocation.path("argv"));
      }
    }
    match
        .outputFormat()
        .filter(f -> !f.cliName().equals(invocation.path("outputFormat").asText()))
        .ifPresent(
            f ->
                misses.add(
                    "output format " + f.cliName() + ", was " + invocation.path("outputFormat")));
    match
        .model()
        .filter(m -> !m.equals(invocation.path("model").asText(null)))
        .ifPresent(
            m ->
                misses.add(
                    "model "
                        + m
                        + ", was "
                        + (invocation.hasNonNull("model") ? invocation.path("model") : "absent")));
    return misses;
  }
}
