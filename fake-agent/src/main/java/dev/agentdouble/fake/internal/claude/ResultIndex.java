package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.fake.internal.run.Player;
import dev.agentdouble.tape.Frame;
import java.util.List;

/**
 * A turn's {@code result} line with the turn's place in its stdin session as its {@code
 * result_index}: the real CLI counts a session's results 0, 1, 2, … (docs/claude-2.1.328-runs.md
 * f.2, f.4), where a tape of one turn holds the 0 of its own run. A result without the field (a CLI
 * older than the field) is left as it is, as is every other frame.
 */
final class ResultIndex implements Player.Transform {
  private static final String RESULT = "{\"type\":\"result\"";
  private static final String KEY = "\"result_index\":";

  private final int index;

  ResultIndex(int index) {
    this.index = index;
  }

  @Override
  public List<Frame> next(Frame frame) {
    if (!(frame instanceof Frame.Out out) || !out.json().startsWith(RESULT)) {
      return List.of(frame);
    }
    String json = out.json();
    // a top-level key near the line's end (in a string the key's quotes would be escaped)
    int key = json.lastIndexOf(KEY);
    if (key < 0) {
      return List.of(frame);
    }
    int start = key + KEY.length();
    int end = start;
    while (end < json.length() && Character.isDigit(json.charAt(end))) {
      end++;
    }
    if (end == start) {
      return List.of(frame);
    }
    return List.of(new Frame.Out(out.t(), json.substring(0, start) + index + json.substring(end)));
  }
}
