package dev.agentdouble.fake.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.agentdouble.tape.internal.Json;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
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

  /** The entry as its line, newline included. */
  static byte[] line(Entry e) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
    try (JsonGenerator g = Json.factory().createGenerator(bytes)) {
      g.writeStartObject();
      g.writeNumberField("pid", e.pid());
      g.writeStringField("startedAt", e.startedAt());
      g.writeArrayFieldStart("argv");
      for (String a : e.argv()) {
        g.writeString(a);
      }
      g.writeEndArray();
      g.writeStringField("cwd", e.cwd());
      optional(g, "prompt", e.prompt());
      optional(g, "stdin", e.stdin());
      optional(g, "outputFormat", e.outputFormat());
      optional(g, "model", e.model());
      optional(g, "sessionId", e.sessionId());
      g.writeObjectFieldStart("env");
      for (Map.Entry<String, String> v : new TreeMap<>(e.env()).entrySet()) {
        g.writeStringField(v.getKey(), v.getValue());
      }
      g.writeEndObject();
      optional(g, "tape", e.tape());
      optional(g, "renderedFrom", e.renderedFrom());
      if (e.ending() != null) {
        Ending end = e.ending();
        switch (end.kind()) {
          case EXIT -> g.writeNumberField("exit", end.code());
          case KILL -> g.writeStringField("signal", end.signal());
          case HANG -> {
            g.writeBooleanField("hang", true);
            if (end.closeStdout()) {
              g.writeBooleanField("closeStdout", true);
            }
          }
        }
      }
      optional(g, "error", e.error());
      g.writeEndObject();
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    bytes.write('\n');
    return bytes.toByteArray();
  }

  private static void optional(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }
}
