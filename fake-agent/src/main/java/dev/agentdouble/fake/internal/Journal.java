package dev.agentdouble.fake.internal;

import dev.agentdouble.json.JsonText;
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
 * One JSON line per invocation, appended to {@code AGENTDOUBLE_JOURNAL} with a single write on a
 * file opened for append, so concurrent invocations never interleave their lines.
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
      String error) {}

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
    sb.append("{\"pid\":").append(e.pid());
    field(sb, "startedAt", e.startedAt());
    sb.append(",\"argv\":");
    array(sb, e.argv());
    field(sb, "cwd", e.cwd());
    field(sb, "prompt", e.prompt());
    field(sb, "stdin", e.stdin());
    field(sb, "outputFormat", e.outputFormat());
    field(sb, "model", e.model());
    field(sb, "sessionId", e.sessionId());
    sb.append(",\"env\":");
    object(sb, e.env());
    field(sb, "tape", e.tape());
    field(sb, "renderedFrom", e.renderedFrom());
    field(sb, "derived", e.derived());
    field(sb, "stoppedBy", e.stoppedBy());
    if (e.ending() != null) {
      Ending end = e.ending();
      if (end instanceof Frame.Exit exit) {
        sb.append(",\"exit\":").append(exit.code());
      } else if (end instanceof Frame.Kill kill) {
        field(sb, "signal", kill.signal());
      } else if (end instanceof Frame.Hang hang) {
        sb.append(",\"hang\":true").append(hang.closeStdout() ? ",\"closeStdout\":true" : "");
      }
    }
    field(sb, "error", e.error());
    sb.append("}\n");
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Appends {@code ,"name":"value"} unless value is null. */
  static void field(StringBuilder sb, String name, String value) {
    if (value != null) {
      sb.append(",\"").append(name).append("\":").append(JsonText.quote(value));
    }
  }

  static void array(StringBuilder sb, List<String> values) {
    sb.append('[');
    for (int i = 0; i < values.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(JsonText.quote(values.get(i)));
    }
    sb.append(']');
  }

  static void object(StringBuilder sb, Map<String, String> values) {
    sb.append('{');
    boolean first = true;
    for (Map.Entry<String, String> v : new TreeMap<>(values).entrySet()) {
      sb.append(first ? "" : ",").append(JsonText.quote(v.getKey())).append(':')
          .append(JsonText.quote(v.getValue()));
      first = false;
    }
    sb.append('}');
  }
}
