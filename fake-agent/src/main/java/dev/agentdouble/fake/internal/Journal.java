package dev.agentdouble.fake.internal;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One JSON line per invocation, appended to {@code AGENTDOUBLE_JOURNAL} (field names: {@link
 * InvocationRecord}) with a single write on a file opened for append, so concurrent invocations
 * never interleave their lines.
 */
public final class Journal {
  /** What an invocation was and how it ends. Empty strings and nulls are left out of the line. */
  public record Entry(
      long pid,
      String startedAt,
      List<String> argv,
      String cwd,
      String prompt,
      String stdin,
      String outputFormat,
      String model,
      String sessionId,
      Map<String, String> env,
      String tape,
      String renderedFrom,
      String derived,
      String stoppedBy,
      Ending ending,
      String error,
      List<String> permissionAnswers) {}

  private Journal() {}

  /**
   * Epoch milliseconds as an ISO-8601 instant, e.g. {@code 2026-11-21T21:44:24.123Z}, without
   * loading java.time's formatters (they cost milliseconds of start-up).
   */
  static String isoInstant(long epochMs) {
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
   * The {@code CURSOR_*} variables of {@code env}, their values redacted, as a journal line has
   * them.
   */
  static Map<String, String> cursorEnv(Map<String, String> env) {
    Map<String, String> cursor = new TreeMap<>();
    for (String name : env.keySet()) {
      if (name.startsWith("CURSOR_")) {
        cursor.put(name, "REDACTED");
      }
    }
    return cursor;
  }

  /** What stderr says when the journal cannot be appended to: one line, with its newline. */
  static String cannotAppend(String file, IOException e) {
    return "agentdouble: "
        + FakeEnvironment.JOURNAL
        + "="
        + file
        + ": cannot append: "
        + e.getMessage()
        + "\n";
  }

  /** Appends the entry to {@code file}. */
  public static void append(String file, Entry entry) throws IOException {
    byte[] line = line(entry);
    try (OutputStream out = new FileOutputStream(file, true)) {
      out.write(line);
    }
  }

  /** The entry as its line, newline included. Written by hand: no JSON library at start-up. */
  static byte[] line(Entry e) {
    StringBuilder sb = new StringBuilder(512);
    sb.append("{\"").append(InvocationRecord.PID).append("\":").append(e.pid());
    field(sb, InvocationRecord.STARTED_AT, e.startedAt());
    sb.append(",\"").append(InvocationRecord.ARGV).append("\":");
    InvocationRecord.array(sb, e.argv());
    field(sb, InvocationRecord.CWD, e.cwd());
    field(sb, InvocationRecord.PROMPT, e.prompt());
    field(sb, InvocationRecord.STDIN, e.stdin());
    field(sb, InvocationRecord.OUTPUT_FORMAT, e.outputFormat());
    field(sb, InvocationRecord.MODEL, e.model());
    field(sb, InvocationRecord.SESSION_ID, e.sessionId());
    sb.append(",\"").append(InvocationRecord.ENV).append("\":");
    InvocationRecord.object(sb, e.env());
    field(sb, InvocationRecord.TAPE, e.tape());
    field(sb, InvocationRecord.RENDERED_FROM, e.renderedFrom());
    field(sb, InvocationRecord.DERIVED, e.derived());
    field(sb, InvocationRecord.STOPPED_BY, e.stoppedBy());
    if (e.ending() != null) {
      Ending end = e.ending();
      if (end instanceof Frame.Exit exit) {
        sb.append(",\"").append(InvocationRecord.EXIT).append("\":").append(exit.code());
      } else if (end instanceof Frame.Kill kill) {
        field(sb, InvocationRecord.SIGNAL, kill.signal());
      } else if (end instanceof Frame.Hang hang) {
        sb.append(",\"")
            .append(InvocationRecord.HANG)
            .append("\":true")
            .append(hang.closeStdout() ? ",\"" + InvocationRecord.CLOSE_STDOUT + "\":true" : "");
      }
    }
    field(sb, InvocationRecord.ERROR, e.error());
    if (e.permissionAnswers() != null) {
      sb.append(",\"").append(InvocationRecord.PERMISSION_ANSWERS).append("\":");
      InvocationRecord.array(sb, e.permissionAnswers());
    }
    sb.append("}\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void field(StringBuilder sb, String name, String value) {
    InvocationRecord.field(sb, name, value);
  }
}
