package dev.agentdouble.recorder.internal;

import dev.agentdouble.recorder.Normaliser;
import dev.agentdouble.recorder.Redacted;
import dev.agentdouble.recorder.Redactor;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A captured run made ready to keep: normalised (unless raw), then redacted (always, last, so no
 * secret survives in the vars either), with the figures of the summary line.
 */
record Recording(Tape tape, int events, int toolCalls, Redacted redacted) {

  /**
   * @param cwd the folder the command ran in ({@code --workspace} when it named one)
   * @param epochMs the wall-clock time at which the command started
   */
  static Recording finish(Tape captured, Map<String, String> env, List<String> command,
      List<Pattern> redact, boolean raw, String cwd, long epochMs) {
    Tape tape = captured;
    if (!raw) {
      Normaliser.Context context = Normaliser.Context.NONE.cwd(workspace(command).orElse(cwd))
          .epochMs(epochMs);
      String home = env.get("HOME");
      if (home != null && !home.isEmpty() && !home.equals("/")) {
        context = context.home(home);
      }
      tape = Normaliser.normalise(tape, context);
    }
    Redacted redacted = Redactor.from(env, command.subList(1, command.size()), redact).redact(tape);
    int events = 0;
    int tools = 0;
    for (Frame f : redacted.tape().frames()) {
      if (f instanceof Frame.Out out) {
        events++;
        // the CLI writes type and subtype first; enough for a summary line, and no parse of
        // events that can hold whole files
        if (out.json().startsWith("{\"type\":\"tool_call\",\"subtype\":\"completed\"")) {
          tools++;
        }
      }
    }
    return new Recording(redacted.tape(), events, tools, redacted);
  }

  int redactions() {
    return redacted.total();
  }

  private static java.util.Optional<String> workspace(List<String> command) {
    for (int i = 1; i < command.size(); i++) {
      if (command.get(i).equals("--workspace") && i + 1 < command.size()) {
        return java.util.Optional.of(command.get(i + 1));
      }
      if (command.get(i).startsWith("--workspace=")) {
        return java.util.Optional.of(command.get(i).substring("--workspace=".length()));
      }
    }
    return java.util.Optional.empty();
  }
}
