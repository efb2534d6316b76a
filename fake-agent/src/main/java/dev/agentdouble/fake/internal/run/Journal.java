package dev.agentdouble.fake.internal.run;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The journal line of one run or one ACP turn, appended to {@code AGENTDOUBLE_JOURNAL} (field
 * names: {@link InvocationRecord}) with a single write on a file opened for append, so concurrent
 * invocations never interleave their lines. The invocation itself is the {@link InvocationRecord}
 * the control server is told; this adds what only the journal says: when the run started, the
 * process's working directory and {@code CURSOR_*} names, and how the run went (the tape, what was
 * derived from it, how it ends). Collected as the run unfolds; written once, when the ending is
 * known. Nulls are left out of the line.
 */
public final class Journal {
  private final long pid;
  private final long startedAtMs;
  private final List<String> argv;
  private final String cwd;
  private final Map<String, String> env;

  /** The invocation, once known (a run can end before: a usage error, a subcommand). */
  private InvocationRecord invocation;

  /**
   * The live session id, when the tape's ids are substituted: the invocation's session, or the
   * tape's own one continued.
   */
  public String sessionId;

  /** Where the tape came from. */
  String tape;

  /** The tape's own output format, when rendered to another. */
  public String renderedFrom;

  /** What was derived from the tape, e.g. {@code stream-partial-output}. */
  public String derived;

  /** Why the CLI ended the run before it needed a tape, e.g. {@code trust-gate}. */
  public String stoppedBy;

  /** In an ACP turn, the client's permission answers so far; null elsewhere (left out). */
  private List<String> permissionAnswers;

  private boolean written;

  /**
   * The line of a run of process {@code pid} started at {@code startedAtMs}, in {@code cwd} (the
   * process's, or an ACP session's), under {@code env}.
   */
  public Journal(
      long pid, long startedAtMs, List<String> argv, String cwd, Map<String, String> env) {
    this.pid = pid;
    this.startedAtMs = startedAtMs;
    this.argv = argv;
    this.cwd = cwd;
    this.env = env;
  }

  /** The invocation, once the run knows it. */
  public void invocation(InvocationRecord invocation) {
    this.invocation = invocation;
  }

  /** An ACP turn's line: it lists the client's permission answers, none yet. */
  public void keepPermissionAnswers() {
    permissionAnswers = new ArrayList<>();
  }

  /** The client chose {@code option} when asked for permission. */
  public void permissionAnswer(String option) {
    synchronized (this) {
      permissionAnswers.add(option);
    }
  }

  /**
   * Appends the line to {@code AGENTDOUBLE_JOURNAL}, once: a later call does nothing. Returns what
   * stderr is to say when it cannot be appended, else null.
   */
  public String end(Ending ending, String error) {
    String file = env.get(FakeEnvironment.JOURNAL);
    if (file == null || file.isBlank() || written) {
      return null;
    }
    written = true;
    byte[] line = line(ending, error);
    try (OutputStream out = new FileOutputStream(file, true)) {
      out.write(line);
    } catch (IOException e) {
      return cannotAppend(file, e);
    }
    return null;
  }

  /**
   * Epoch milliseconds as an ISO-8601 instant, e.g. {@code 2026-11-21T21:44:24.123Z}, without
   * loading java.time's formatters (they cost milliseconds of start-up).
   */
  public static String isoInstant(long epochMs) {
    long days = Math.floorDiv(epochMs, 86_400_000L);
    long msOfDay = Math.floorMod(epochMs, 86_400_000L);
    // civil-from-days, proleptic Gregorian (Howard Hinnant's algorithm)
    long z = days + 719_468;
    long era = Math.floorDiv(z, 146_097);
    long doe = z - era * 146_097;
    long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long mp = (5 * doy + 2) / 153;
    long day = doy - (153 * mp + 2) / 5 + 1;
    long month = mp < 10 ? mp + 3 : mp - 9;
    long year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    StringBuilder sb = new StringBuilder(24);
    pad(sb, year, 4).append('-');
    pad(sb, month, 2).append('-');
    pad(sb, day, 2).append('T');
    pad(sb, msOfDay / 3_600_000, 2).append(':');
    pad(sb, msOfDay / 60_000 % 60, 2).append(':');
    pad(sb, msOfDay / 1000 % 60, 2).append('.');
    pad(sb, msOfDay % 1000, 3).append('Z');
    return sb.toString();
  }

  private static StringBuilder pad(StringBuilder sb, long value, int width) {
    String digits = Long.toString(value);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    return sb.append(digits);
  }

  /**
   * The {@code CURSOR_*} variables of {@code env}, their values redacted, as a journal line and an
   * invocation record ({@code Turn}) have them: a sorted map of the caller's own.
   */
  static Map<String, String> redactedEnv(Map<String, String> env) {
    Map<String, String> redacted = new TreeMap<>();
    for (String name : env.keySet()) {
      if (name.startsWith(InvocationRecord.REDACTED_ENV_PREFIX)) {
        redacted.put(name, "REDACTED");
      }
    }
    return redacted;
  }

  /** What stderr says when the journal cannot be appended to: one line, with its newline. */
  private static String cannotAppend(String file, IOException e) {
    return "agentdouble: "
        + FakeEnvironment.JOURNAL
        + "="
        + file
        + ": cannot append: "
        + e.getMessage()
        + "\n";
  }

  /** The line, newline included. Written by hand: no JSON library at start-up. */
  byte[] line(Ending ending, String error) {
    InvocationRecord r = invocation;
    StringBuilder sb = new StringBuilder(512);
    sb.append("{\"").append(InvocationRecord.PID).append("\":").append(pid);
    field(sb, InvocationRecord.STARTED_AT, isoInstant(startedAtMs));
    sb.append(",\"").append(InvocationRecord.ARGV).append("\":");
    InvocationRecord.array(sb, argv);
    field(sb, InvocationRecord.CWD, cwd);
    if (r != null) {
      field(sb, InvocationRecord.CLI, r.cli());
      field(sb, InvocationRecord.PROMPT, r.prompt());
      field(sb, InvocationRecord.STDIN, r.stdin().orElse(null));
      field(sb, InvocationRecord.OUTPUT_FORMAT, r.outputFormat());
      field(sb, InvocationRecord.MODEL, r.model().orElse(null));
    }
    field(sb, InvocationRecord.SESSION_ID, sessionId);
    sb.append(",\"").append(InvocationRecord.ENV).append("\":");
    InvocationRecord.object(sb, redactedEnv(env));
    field(sb, InvocationRecord.TAPE, tape);
    field(sb, InvocationRecord.RENDERED_FROM, renderedFrom);
    field(sb, InvocationRecord.DERIVED, derived);
    field(sb, InvocationRecord.STOPPED_BY, stoppedBy);
    if (ending instanceof Frame.Exit exit) {
      sb.append(",\"").append(InvocationRecord.EXIT).append("\":").append(exit.code());
    } else if (ending instanceof Frame.Kill kill) {
      field(sb, InvocationRecord.SIGNAL, kill.signal());
    } else if (ending instanceof Frame.Hang hang) {
      sb.append(",\"")
          .append(InvocationRecord.HANG)
          .append("\":true")
          .append(hang.closeStdout() ? ",\"" + InvocationRecord.CLOSE_STDOUT + "\":true" : "");
    }
    field(sb, InvocationRecord.ERROR, error);
    if (permissionAnswers != null) {
      sb.append(",\"").append(InvocationRecord.PERMISSION_ANSWERS).append("\":");
      synchronized (this) {
        InvocationRecord.array(sb, permissionAnswers);
      }
    }
    sb.append("}\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void field(StringBuilder sb, String name, String value) {
    InvocationRecord.field(sb, name, value);
  }
}
