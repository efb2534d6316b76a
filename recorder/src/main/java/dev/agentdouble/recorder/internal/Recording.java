package dev.agentdouble.recorder.internal;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.internal.Json;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A captured run made ready to keep: redacted (always) and normalised (unless raw), with the
 * figures of the summary line.
 */
record Recording(Tape tape, int events, int toolCalls, int redactions) {
  static Recording finish(Tape captured, Map<String, String> env, List<String> command,
      List<Pattern> redact, boolean raw) {
    Tape tape = captured;
    int redactions = 0;
    int events = 0;
    int tools = 0;
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Out out) {
        events++;
        JsonNode node = Json.tree(out.json());
        if ("tool_call".equals(node.path("type").asText())
            && "completed".equals(node.path("subtype").asText())) {
          tools++;
        }
      }
    }
    return new Recording(tape, events, tools, redactions);
  }
}
