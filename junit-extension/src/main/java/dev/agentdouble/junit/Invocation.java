package dev.agentdouble.junit;

import dev.agentdouble.contract.InvocationRecord;
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
 * @param cli the CLI the fake played: {@code cursor-agent} (started as {@code cursor-agent} or
 *     {@code agent}) or {@code claude}, the word a tape's header says it with
 * @param session the id of the session the run asked for or was given, the one the fake's output
 *     carries in place of the tape's where the tape's is a variable ({@code vars.sessionId}, as in
 *     a recorded tape): the id given ({@code --session-id} of claude, {@code --new-session-id} of
 *     cursor-agent), the one resumed by id ({@code --resume ID} without {@code --fork-session}), an
 *     ACP turn's session, or a fresh one (a new session, a fork); empty for a run that continues
 *     the tape's own session ({@code --continue}, cursor-agent's {@code --resume} without an id)
 *     and for a run the CLI stopped that asked for none
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
    List<String> permissionAnswers,
    String cli,
    Optional<String> session) {

  public Invocation {
    argv = List.copyOf(argv);
    permissionAnswers = List.copyOf(permissionAnswers);
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env));
    if (cli.isEmpty()) {
      throw new IllegalArgumentException("an invocation's cli is not empty");
    }
  }

  /**
   * A run of {@code cursor-agent} with no session id, as 0.1.0 made it.
   *
   * @deprecated an invocation has its CLI and its session: use the canonical constructor, with
   *     {@code "cursor-agent", Optional.empty()} after {@code permissionAnswers} for what this made
   */
  @Deprecated
  public Invocation(
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
    this(
        argv,
        prompt,
        cwd,
        outputFormat,
        model,
        stdin,
        pid,
        env,
        stoppedBy,
        permissionAnswers,
        InvocationRecord.CLI_CURSOR,
        Optional.empty());
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
