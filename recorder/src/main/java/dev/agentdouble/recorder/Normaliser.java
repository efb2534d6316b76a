package dev.agentdouble.recorder;

import dev.agentdouble.recorder.internal.normalise.Rebase;
import dev.agentdouble.tape.Tape;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Rebases a recorded tape's volatile values to stable canonical ones and declares them in the
 * header's {@code vars}, so the same scenario recorded twice gives the same bytes but for timing,
 * and the fake agent substitutes live values at replay ({@code docs/tape-format.md}, §4).
 *
 * <table>
 *   <caption>What changes</caption>
 *   <tr><th>value</th><th>becomes</th><th>declared</th></tr>
 *   <tr><td>the session id (vars, else the init event's, else the first {@code session_id}):
 *       every JSON string equal to it</td><td>{@value #SESSION_ID}</td><td>{@code
 *       sessionId}</td></tr>
 *   <tr><td>the cwd (the recorder's, else vars, else the init event's): every JSON string equal
 *       to it or starting with it and {@code /}</td><td>{@value #CWD}</td><td>{@code cwd}</td></tr>
 *   <tr><td>the home folder (the recorder's, else vars), the same way; where both fit, the longer
 *       wins</td><td>{@value #HOME}</td><td>{@code home}</td></tr>
 *   <tr><td>the prompt (the recorder's, else vars, else the user event's text)</td><td>kept as
 *       recorded</td><td>{@code prompt}</td></tr>
 *   <tr><td>{@code timestamp_ms} numbers, {@code startedAtMs}/{@code completedAtMs} digit strings,
 *       anywhere</td><td>moved so the run's start (the recorder's, else vars.epochMs, else the
 *       first {@code timestamp_ms} less its frame's {@code t}) is at {@value #EPOCH_MS}
 *       (2026-01-01T00:00:00Z)</td><td>{@code epochMs}</td></tr>
 *   <tr><td>request ids ({@code request_id}, and the uuid part of {@code model_call_id})</td>
 *       <td>{@code 00000000-0000-4000-9000-00000000000N}, N in order of first appearance (other
 *       shapes keep their shape, see below)</td><td>no (the fake does not replace them)</td></tr>
 *   <tr><td>{@code model_call_id}s, {@code <request>-<turn>-<4 chars>}</td><td>the request's
 *       stand-in, the same turn, and N in place of the 4 characters ({@code 0001}), N counting
 *       model calls in order of first appearance</td><td>no</td></tr>
 *   <tr><td>tool call ids ({@code call_id}, {@code toolCallId})</td><td>the same shape — length,
 *       separators, a literal newline, a prefix such as {@code call_} or {@code fc_} — with the
 *       digits of N in place of the random characters</td><td>no</td></tr>
 * </table>
 *
 * A Claude Code tape ({@code "cli":"claude"}) is normalised with Claude's keys as well: line ids
 * ({@code uuid}, {@code ..._uuid}) become {@code 00000000-0000-4000-a000-00000000000N}, message
 * ({@code msg_...}) and tool use ({@code toolu_...}) ids keep their shape, ISO {@code timestamp}
 * strings and {@code resetsAt} move with the run's start, the cwd's form in {@code
 * ~/.claude/projects/} becomes the canonical one's, and the cwd inside a string where it stands as
 * a path (after the opening quote, a space, {@code '} or {@code (}, before the end, {@code /}, a
 * space, {@code '} or {@code )}: {@code ... ('/workspace')}) becomes the canonical cwd, as the fake
 * substitutes it there ({@code docs/tape-format.md}, §4).
 *
 * <p>Ids are replaced wherever a JSON string equals them (a {@code toolCallId} in a tool's args, a
 * {@code conversationId} equal to the session id); ids shorter than 8 characters are left alone.
 * Only whole JSON strings change (and field names, as the fake matches those too), but for the
 * cwd/home prefix and a Claude Code tape's cwd where it stands as a path; they are spliced into the
 * line's bytes, so key order, number spelling and escapes stay as the CLI wrote them. The user
 * event's text that equals the prompt is never rebased (replay puts the live prompt there). Raw
 * stdout and stderr are kept verbatim, since the fake never substitutes there. Header argv elements
 * equal to (or under) the session id, cwd or home are rebased too, as is the value of an {@code
 * --option=value}.
 *
 * <p>A value is kept as recorded (and declared so) when rebasing it could not be undone at replay:
 * when the tape already holds a string equal to (or under) its canonical value, say a tool output
 * mentioning {@code /workspace} while the run's cwd was elsewhere (in a Claude Code tape, also one
 * naming {@code /workspace} as a path inside it). Normalising twice gives the same tape as
 * normalising once.
 *
 * <p>Normalise first, then {@link Redactor redact}.
 */
public final class Normaliser {
  /** The canonical session id. */
  public static final String SESSION_ID = Rebase.Canon.SESSION_ID;

  /** The canonical working folder. */
  public static final String CWD = Rebase.Canon.CWD;

  /** The canonical home folder. */
  public static final String HOME = Rebase.Canon.HOME;

  /** The canonical start of a run: 2026-01-01T00:00:00Z, epoch milliseconds. */
  public static final long EPOCH_MS = Rebase.Canon.EPOCH_MS;

  private Normaliser() {}

  /**
   * What the recorder knows about the run it captured; each value is empty where it does not know,
   * and then the tape itself is asked.
   *
   * @param cwd the folder the CLI ran in (its {@code --workspace}, else its working folder)
   * @param home the {@code $HOME} it ran with
   * @param prompt the prompt it was given
   * @param epochMs the wall-clock time the process started, epoch milliseconds (frame time 0)
   */
  public record Context(
      Optional<String> cwd, Optional<String> home, Optional<String> prompt, OptionalLong epochMs) {

    /** Nothing known: everything is taken from the tape. */
    public static final Context NONE =
        new Context(Optional.empty(), Optional.empty(), Optional.empty(), OptionalLong.empty());

    public Context {
      Objects.requireNonNull(cwd, "cwd");
      Objects.requireNonNull(home, "home");
      Objects.requireNonNull(prompt, "prompt");
      Objects.requireNonNull(epochMs, "epochMs");
    }

    public Context cwd(String value) {
      return new Context(Optional.of(value), home, prompt, epochMs);
    }

    public Context home(String value) {
      return new Context(cwd, Optional.of(value), prompt, epochMs);
    }

    public Context prompt(String value) {
      return new Context(cwd, home, Optional.of(value), epochMs);
    }

    public Context epochMs(long value) {
      return new Context(cwd, home, prompt, OptionalLong.of(value));
    }
  }

  /** {@code tape} with its volatile values rebased to the canonical ones and declared. */
  public static Tape normalise(Tape tape, Context context) {
    return Rebase.normalise(
        tape,
        new Rebase.Known(context.cwd(), context.home(), context.prompt(), context.epochMs()),
        Rebase.Canon.STANDARD);
  }
}
