package dev.agentdouble.recorder.internal.normalise;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Stable stand-ins for a run's random ids, numbered in order of first appearance, shaped like the
 * originals so a normalised tape still reads like a real run:
 *
 * <ul>
 *   <li>a request id that is a UUID becomes {@code 00000000-0000-4000-9000-00000000000N};
 *   <li>any other id keeps its length and separators, and its letters-only prefix such as {@code
 *       call_} or {@code fc_} (at most 5 letters, on each line of the id), while its other letters
 *       and digits become the digits of N, right-aligned and zero-filled: {@code
 *       call_PFAupCWibROFKbdASSdiHCoi\nfc_0d26...a9} becomes {@code
 *       call_000000000000000000000001\nfc_00...01};
 *   <li>a {@code model_call_id}, {@code <request id>-<turn>-<4 chars>}, keeps its turn; its request
 *       id becomes that request's stand-in and its last part the digits of N;
 *   <li>Claude Code's line ids ({@code uuid}, {@code head_uuid} and the like) that are UUIDs become
 *       {@code 00000000-0000-4000-a000-00000000000N}, its API message ids ({@code msg_...}) keep
 *       their shape as tool call ids do, numbered on their own.
 * </ul>
 */
final class CanonicalIds {
  private static final Pattern UUID =
      Pattern.compile(
          "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
  private static final Pattern MODEL_CALL_ID = Pattern.compile("(.+)-([0-9]+)-([A-Za-z0-9]+)");
  private static final Pattern PREFIX = Pattern.compile("[A-Za-z]{1,5}[_-]");

  /** The shortest id replaced: shorter strings would match ordinary values. */
  public static final int MIN_LENGTH = 8;

  private final Map<String, String> requests = new LinkedHashMap<>();
  private final Map<String, String> modelCalls = new LinkedHashMap<>();
  private final Map<String, String> calls = new LinkedHashMap<>();
  private final Map<String, String> messages = new LinkedHashMap<>();
  private final Map<String, String> uuids = new LinkedHashMap<>();

  /** Notes a {@code request_id}. */
  public void request(String id) {
    if (id.length() >= MIN_LENGTH && !requests.containsKey(id)) {
      long n = requests.size() + 1;
      requests.put(
          id,
          UUID.matcher(id).matches()
              ? String.format("00000000-0000-4000-9000-%012d", n)
              : fill(id, n));
    }
  }

  /** Notes a {@code model_call_id}; its request id too. */
  public void modelCall(String id) {
    Matcher m = MODEL_CALL_ID.matcher(id);
    if (!m.matches() || m.group(1).length() < MIN_LENGTH || modelCalls.containsKey(id)) {
      return;
    }
    request(m.group(1));
    long n = modelCalls.size() + 1;
    modelCalls.put(id, requests.get(m.group(1)) + "-" + m.group(2) + "-" + fill(m.group(3), n));
  }

  /** Notes a tool call's id ({@code call_id}, {@code toolCallId}). */
  public void call(String id) {
    if (id.length() >= MIN_LENGTH && !calls.containsKey(id)) {
      calls.put(id, fill(id, calls.size() + 1));
    }
  }

  /** Notes a model API message's id ({@code msg_...}). */
  public void message(String id) {
    if (id.length() >= MIN_LENGTH && !messages.containsKey(id)) {
      messages.put(id, fill(id, messages.size() + 1));
    }
  }

  /** Notes a line's id ({@code uuid}, {@code parent_uuid}, ...). */
  public void uuid(String id) {
    if (id.length() >= MIN_LENGTH && !uuids.containsKey(id)) {
      long n = uuids.size() + 1;
      uuids.put(
          id,
          UUID.matcher(id).matches()
              ? String.format("00000000-0000-4000-a000-%012d", n)
              : fill(id, n));
    }
  }

  /** Every id noted and its stand-in. */
  public Map<String, String> all() {
    Map<String, String> all = new LinkedHashMap<>(requests);
    modelCalls.forEach(all::putIfAbsent);
    calls.forEach(all::putIfAbsent);
    messages.forEach(all::putIfAbsent);
    uuids.forEach(all::putIfAbsent);
    return all;
  }

  /** {@code id}'s shape with the digits of {@code n} in place of its letters and digits. */
  static String fill(String id, long n) {
    StringBuilder out = new StringBuilder(id.length());
    for (String line : id.split("\n", -1)) {
      if (out.length() > 0) {
        out.append('\n');
      }
      Matcher prefix = PREFIX.matcher(line);
      int start = prefix.lookingAt() && prefix.end() < line.length() ? prefix.end() : 0;
      out.append(line, 0, start).append(fillPart(line.substring(start), n));
    }
    return out.toString();
  }

  private static String fillPart(String part, long n) {
    int slots = 0;
    for (int i = 0; i < part.length(); i++) {
      if (Character.isLetterOrDigit(part.charAt(i))) {
        slots++;
      }
    }
    if (slots == 0) {
      return part;
    }
    String digits = Long.toString(n);
    String padded =
        digits.length() >= slots ? digits : "0".repeat(slots - digits.length()) + digits;
    // digits that do not fit all go into the first slot
    int overflow = padded.length() - slots;
    StringBuilder sb = new StringBuilder(part.length() + overflow);
    int k = 0;
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        sb.append(c);
      } else if (k == 0) {
        sb.append(padded, 0, overflow + 1);
        k = overflow + 1;
      } else {
        sb.append(padded.charAt(k++));
      }
    }
    return sb.toString();
  }
}
