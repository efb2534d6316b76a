package dev.agentdouble.junit;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One run of the fake agent, as the code under test started it.
 *
 * @param argv the arguments after the program name
 * @param prompt the prompt (from argv, or from stdin when argv has none)
 * @param cwd the working directory ({@code --workspace} when given)
 * @param outputFormat the requested {@code --output-format}, or the profile's default
 * @param model the {@code --model}, if given
 * @param stdin what the fake read on stdin, if stdin was not a terminal
 * @param pid the fake's process id
 * @param env {@code CURSOR_*} variables (values redacted) and those named in {@code
 *     AGENTDOUBLE_FORWARD_ENV}
 * @param stoppedBy why the CLI ended the run before it needed a tape, e.g. {@code trust-gate} (a
 *     print run in an untrusted workspace) or {@code resume} (a bad {@code --resume} id); empty for
 *     a run a tape answered
 * @param permissionAnswers in a turn of an ACP session ({@code outputFormat} {@code acp}), the
 *     options the client chose when the agent asked for permission, in order ({@code allow-once},
 *     {@code allow-always}, {@code reject-once}, or {@code cancelled}, {@code error}, {@code
 *     invalid}: see {@link FakeAgent#permissionAnswers()}), as far as it had answered when this was
 *     read; empty elsewhere
 */
public record Invocation(
    List<String> argv,
    String prompt,
    String cwd,
    String outputFormat,
    Optional<String> model,
    Optional<String> stdin,
    long pid,
    Map<String, String> env,
    Optional<String> stoppedBy,
    List<String> permissionAnswers) {

  public Invocation {
    argv = List.copyOf(argv);
    permissionAnswers = List.copyOf(permissionAnswers);
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
  }

  /** A one-line summary for failure messages. */
  public String summary() {
    String p = prompt.length() > 60 ? prompt.substring(0, 57) + "..." : prompt;
    return "prompt \""
        + p.replace("\n", "\\n")
        + "\", "
        + outputFormat
        + model.map(m -> ", model " + m).orElse("")
        + ", argv "
        + argv
        + stoppedBy.map(s -> ", stopped by the CLI: " + s).orElse("")
        + (permissionAnswers.isEmpty() ? "" : ", permission answers " + permissionAnswers);
  }
}
