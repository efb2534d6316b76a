package dev.agentdouble.recorder;

import dev.agentdouble.tape.Tape;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@link Redactor#redact} did: the tape without the secrets, and how many replacements it
 * made per source.
 *
 * @param tape the redacted tape
 * @param counts replacements per source ({@code CURSOR_API_KEY}, {@code api-key}, {@code
 *     header:Authorization}, {@code pattern-1}, ...), sorted by source; sources that did not occur
 *     are absent
 */
public record Redacted(Tape tape, Map<String, Integer> counts) {

  public Redacted {
    counts = Collections.unmodifiableMap(new TreeMap<>(counts));
  }

  /** All replacements made. */
  public int total() {
    return counts.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** The counts as people read them: {@code 3 (CURSOR_API_KEY 2, api-key 1)}, or {@code 0}. */
  public String summary() {
    if (counts.isEmpty()) {
      return "0";
    }
    StringBuilder sb = new StringBuilder().append(total()).append(" (");
    counts.forEach((source, n) -> sb.append(sb.charAt(sb.length() - 1) == '(' ? "" : ", ")
        .append(source).append(' ').append(n));
    return sb.append(')').toString();
  }
}
