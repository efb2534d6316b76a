package dev.agentdouble.recorder.internal.normalise;

import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.JsonWalk;
import dev.agentdouble.tape.Vars;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How {@link Rebase} rewrites one stdout line once its scan has decided the rules: ids to their
 * canonical form, the strings the rules name, the project folder, and the times moved by the shift;
 * the user event's prompt is left for replay's own rule. Only whole JSON strings (and the numbers
 * under a time key) change, spliced into the line's bytes.
 */
final class LineRewrite {
  private static final String TIMESTAMP_MS = '"' + Vars.EPOCH_MS_NUMBER_KEY + '"';
  private static final String TIMESTAMP = '"' + Vars.CLAUDE_ISO_TIME_KEY + '"';
  private static final String RESETS_AT = '"' + Vars.CLAUDE_EPOCH_SECONDS_KEY + '"';
  private static final String MESSAGING_SOCKET = '"' + Vars.CLAUDE_MESSAGING_SOCKET_KEY + '"';
  private static final Set<String> MS_STRINGS =
      Set.of('"' + Vars.STARTED_MS_STRING_KEY + '"', '"' + Vars.COMPLETED_MS_STRING_KEY + '"');
  private static final Pattern DIGITS = Pattern.compile("\"-?[0-9]{1,18}\"");

  private final StringRules rules;
  private final Map<String, String> idMap;
  private final long shift;
  private final Optional<String> prompt;
  private final Optional<ProjectFolder> project;
  private final CliKeys keys;
  private final String canonicalSocket;
  private final int minRaw;
  private final int maxRaw;

  LineRewrite(
      StringRules rules,
      Map<String, String> idMap,
      long shift,
      Optional<String> prompt,
      Optional<ProjectFolder> project,
      CliKeys keys,
      String canonicalSocket) {
    this.rules = rules;
    this.idMap = idMap;
    this.shift = shift;
    this.prompt = prompt;
    this.project = project;
    this.keys = keys;
    this.canonicalSocket = canonicalSocket;
    // an id's token is at least its length plus quotes, at most six bytes a character
    this.minRaw = idMap.keySet().stream().mapToInt(String::length).min().orElse(0) + 2;
    this.maxRaw = idMap.keySet().stream().mapToInt(String::length).max().orElse(0) * 6 + 2;
  }

  /** {@code json}, a stdout line (a user event's when {@code user}), rewritten. */
  byte[] apply(byte[] json, boolean user) {
    JsonWalk.Splice splice = new JsonWalk.Splice();
    walk(
        json,
        (c, token, place) -> {
          if (token == JsonCursor.Token.NUMBER) {
            if (shift != 0
                && place.keyRaw().equals(TIMESTAMP_MS)
                && c.isInteger()
                && c.raw().replace("-", "").length() <= 18) {
              splice.add(c.tokenStart(), c.tokenEnd(), Long.toString(c.longValue() + shift));
            } else if (shift != 0
                && keys == CliKeys.CLAUDE
                && place.keyRaw().equals(RESETS_AT)
                && c.isInteger()
                && c.raw().length() <= 12) {
              long seconds = c.longValue() + Math.floorDiv(shift, 1000);
              splice.add(c.tokenStart(), c.tokenEnd(), Long.toString(seconds));
            }
            return;
          }
          if (token != JsonCursor.Token.STRING && token != JsonCursor.Token.FIELD_NAME) {
            return;
          }
          if (isPrompt(user, token, place, c, prompt)) {
            return;
          }
          if (keys == CliKeys.CLAUDE
              && token == JsonCursor.Token.STRING
              && place.keyRaw().equals(MESSAGING_SOCKET)) {
            String canonical = JsonText.quote(canonicalSocket);
            if (!c.raw().equals(canonical)) {
              splice.add(c.tokenStart(), c.tokenEnd(), canonical);
            }
            return;
          }
          int length = c.tokenEnd() - c.tokenStart();
          if (!idMap.isEmpty() && length >= minRaw && length <= maxRaw) {
            String id = idMap.get(c.text());
            if (id != null) {
              splice.add(c.tokenStart(), c.tokenEnd(), JsonText.quote(id));
              return;
            }
          }
          if (rules.mayMatch(json, c.tokenStart(), c.tokenEnd())) {
            Optional<String> rebased = rules.applyRaw(c.raw());
            if (rebased.isPresent()) {
              String raw = rebased.get();
              splice.add(
                  c.tokenStart(), c.tokenEnd(), project.map(p -> p.applyRaw(raw)).orElse(raw));
              return;
            }
          }
          if (project.isPresent() && token == JsonCursor.Token.STRING) {
            String raw = c.raw();
            String moved = project.get().applyRaw(raw);
            if (!moved.equals(raw)) {
              splice.add(c.tokenStart(), c.tokenEnd(), moved);
              return;
            }
          }
          if (shift != 0
              && keys == CliKeys.CLAUDE
              && token == JsonCursor.Token.STRING
              && place.keyRaw().equals(TIMESTAMP)) {
            Optional<String> moved = IsoTime.shift(c.text(), shift);
            if (moved.isPresent()) {
              splice.add(c.tokenStart(), c.tokenEnd(), JsonText.quote(moved.get()));
              return;
            }
          }
          if (shift != 0
              && token == JsonCursor.Token.STRING
              && length <= 21
              && MS_STRINGS.contains(place.keyRaw())
              && DIGITS.matcher(c.raw()).matches()) {
            String raw = c.raw();
            long ms = Long.parseLong(raw.substring(1, raw.length() - 1));
            splice.add(c.tokenStart(), c.tokenEnd(), '"' + Long.toString(ms + shift) + '"');
          }
        });
    return splice.isEmpty() ? json : splice.apply(json, 0, json.length);
  }

  /** Whether the token is the user event's prompt, which replay replaces by its own rule. */
  static boolean isPrompt(
      boolean user,
      JsonCursor.Token token,
      JsonWalk.Place place,
      JsonCursor c,
      Optional<String> prompt)
      throws JsonCursor.Malformed {
    if (!user || prompt.isEmpty() || token != JsonCursor.Token.STRING) {
      return false;
    }
    List<Object> path = place.path();
    return path.size() == 4
        && "message".equals(path.get(0))
        && "content".equals(path.get(1))
        && path.get(2) instanceof Integer
        && "text".equals(path.get(3))
        && prompt.get().equals(c.text());
  }

  static void walk(byte[] json, JsonWalk.Visitor visitor) {
    try {
      JsonWalk.walk(json, 0, json.length, visitor);
    } catch (JsonCursor.Malformed e) {
      // an out frame holds well-formed JSON by construction
      throw new IllegalStateException("malformed out frame: " + e.getMessage(), e);
    }
  }
}
