package dev.agentdouble.fake.internal.run;

import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Vars;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Replaces a tape's recorded volatile values with live ones in the JSON text of stdout lines,
 * without re-serialising anything else. Rules (docs/tape-format.md, "Variables"):
 *
 * <ul>
 *   <li>{@code sessionId}: a JSON string equal to it;
 *   <li>{@code cwd}, {@code home}: a JSON string equal to it or starting with it followed by {@code
 *       /} (the longer variable wins when both fit);
 *   <li>{@code cwd} in a Claude Code tape, also inside a string where it stands as a path: an
 *       absolute cwd other than {@code /} that follows the string's opening quote, a space, a
 *       {@code '} or a {@code (}, and is followed by the string's end, a {@code /}, a space, a
 *       {@code '} or a {@code )} (the CLI's own messages name the folder so: {@code touch in
 *       '/workspace/made.txt' needs approval ... ('/workspace')}, runs part k); nowhere else;
 *   <li>Claude Code's project folder ({@code projectRoot}, not a variable: the folder the live run
 *       names its project after): a JSON string equal to {@code home + "/.claude/projects/"} and
 *       the recorded cwd with every character but a letter or digit as {@code -}, or starting with
 *       it followed by {@code /} ({@code memory_paths.auto} of the init event), takes the live home
 *       and the live project root in that form (docs/claude-2.1.328-runs.md, part j);
 *   <li>{@code prompt}: only the {@code user} event's {@code message.content[].text};
 *   <li>{@code apiKeySource} (not a variable: how the live run was given its key): the string under
 *       the key {@code apiKeySource}, when the key came by flag or environment;
 *   <li>{@code model} (not a variable: the model {@code --model} chose): the string under the key
 *       {@code model} of the system init event, a line that starts {@code
 *       {"type":"system","subtype":"init"};
 *   <li>{@code messagingSocket} (not a variable: Claude Code's socket, named after its folder for
 *       temporary files and its pid): the string under the key {@code messaging_socket_path},
 *       whatever it was;
 *   <li>{@code epochMs}: numbers under the key {@code timestamp_ms} and digit strings under {@code
 *       startedAtMs} / {@code completedAtMs} move by (live start - epochMs); in a Claude Code tape
 *       ({@code "cli":"claude"}) also ISO-8601 strings under {@code timestamp}, in their shape, and
 *       the epoch seconds under {@code resetsAt}, by whole seconds rounded down: the keys {@link
 *       Vars} names, where the recorder moved them.
 * </ul>
 *
 * Values are matched in the JSON text as the CLI escapes them (JavaScript's {@code
 * JSON.stringify}). A match always starts at an unescaped quote: in well-formed JSON such a quote
 * followed by the value's first character opens a string, so no substring of a longer string is
 * ever touched.
 */
public final class Substitution {
  private record Rule(byte[] needle, byte[] replacement, boolean prefix) {}

  private static final byte[] TIMESTAMP = ascii('"' + Vars.EPOCH_MS_NUMBER_KEY + "\":");
  private static final byte[] STARTED = ascii('"' + Vars.STARTED_MS_STRING_KEY + "\":\"");
  private static final byte[] COMPLETED = ascii('"' + Vars.COMPLETED_MS_STRING_KEY + "\":\"");
  private static final byte[] ISO_TIME = ascii('"' + Vars.CLAUDE_ISO_TIME_KEY + "\":\"");
  private static final byte[] EPOCH_SECONDS = ascii('"' + Vars.CLAUDE_EPOCH_SECONDS_KEY + "\":");
  private static final byte[] API_KEY_SOURCE =
      "\"apiKeySource\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] INIT =
      "{\"type\":\"system\",\"subtype\":\"init\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] MODEL = "\"model\":\"".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] SOCKET = ascii('"' + Vars.CLAUDE_MESSAGING_SOCKET_KEY + "\":\"");

  private final Rule[] strings;
  private final long shift;

  /**
   * Whether the tape is Claude Code's: its ISO times and resetsAt move, its cwd is replaced in
   * text.
   */
  private final boolean claudeTape;

  private final byte[] promptNeedle;
  private final String recordedPrompt;
  private final byte[] promptReplacement;
  private final byte[] apiKeySource;
  private final byte[] model;
  private final byte[] socket;

  /** The recorded cwd as it stands inside a string (its escaped bytes), and the live one's. */
  private final byte[] cwdInText;

  private final byte[] cwdInTextReplacement;

  /**
   * The pairs of bytes that can follow an opening quote where a rule starts, indexed {@code first
   * << 8 | second}: a quote followed by any other pair (most of a line's quotes: keys, closing
   * quotes) is passed without trying a rule. A replay runs interpreted, and trying every rule at
   * every quote was half its time (a JFR sample of a 10 KB Claude Code tape under {@code -Xint}).
   */
  private final boolean[] lead = new boolean[1 << 16];

  private final Splices matches = new Splices();

  private Substitution(
      List<Rule> strings,
      long shift,
      boolean claudeTape,
      String recordedPrompt,
      String livePrompt,
      Optional<String> apiKeySource,
      Optional<String> model,
      Optional<String> socket,
      byte[][] cwdInText) {
    this.strings = strings.toArray(new Rule[0]);
    this.socket = socket.isPresent() ? jsonInner(socket.get()) : null;
    this.cwdInText = cwdInText == null ? null : cwdInText[0];
    this.cwdInTextReplacement = cwdInText == null ? null : cwdInText[1];
    this.claudeTape = claudeTape;
    this.apiKeySource =
        apiKeySource.isPresent() ? apiKeySource.get().getBytes(StandardCharsets.UTF_8) : null;
    this.model = model.isPresent() ? jsonInner(model.get()) : null;
    this.shift = shift;
    this.recordedPrompt = recordedPrompt;
    if (recordedPrompt != null) {
      this.promptNeedle = JsonText.quote(recordedPrompt).getBytes(StandardCharsets.UTF_8);
      this.promptReplacement = JsonText.quote(livePrompt).getBytes(StandardCharsets.UTF_8);
    } else {
      this.promptNeedle = null;
      this.promptReplacement = null;
    }
    for (Rule rule : this.strings) {
      lead(rule.needle, 1);
    }
    lead(promptNeedle, 1);
    lead(this.cwdInText, 0);
    if (shift != 0) {
      lead(TIMESTAMP, 1);
      lead(STARTED, 1);
      lead(COMPLETED, 1);
      if (claudeTape) {
        lead(ISO_TIME, 1);
        lead(EPOCH_SECONDS, 1);
      }
    }
    if (this.model != null) {
      lead(MODEL, 1);
    }
    if (this.socket != null) {
      lead(SOCKET, 1);
    }
    if (this.apiKeySource != null) {
      lead(API_KEY_SOURCE, 1);
    }
  }

  private void lead(byte[] needle, int at) {
    if (needle == null || needle.length <= at) {
      return;
    }
    int first = (needle[at] & 0xff) << 8;
    if (needle.length > at + 1) {
      lead[first | (needle[at + 1] & 0xff)] = true;
    } else {
      for (int second = 0; second < 256; second++) {
        lead[first | second] = true; // a one-byte needle: whatever follows it
      }
    }
  }

  /** Whether a rule may start at {@code buf[at]}, the byte after a quote or a space. */
  private boolean mayLead(byte[] buf, int at, int end) {
    return at + 1 < end && lead[(buf[at] & 0xff) << 8 | (buf[at + 1] & 0xff)];
  }

  /**
   * The substitution from a tape's variables to the live run's values, with the times of the CLI
   * its header names.
   */
  public static Substitution of(Header tape, LiveValues live) {
    Optional<String> cli = tape.cli();
    return of(tape.vars(), live, cli.isPresent() && cli.get().equals(ClaudeProfile.CLI));
  }

  /** The substitution from a tape's variables to the live run's values, with Cursor's times. */
  public static Substitution of(Vars recorded, LiveValues live) {
    return of(recorded, live, false);
  }

  private static Substitution of(Vars recorded, LiveValues live, boolean claudeTape) {
    List<Rule> rules = new ArrayList<>();
    addRule(rules, recorded.sessionId(), live.sessionId(), false);
    addRule(rules, recorded.cwd(), live.cwd(), true);
    addRule(rules, recorded.home(), live.home(), true);
    if (recorded.home().isPresent()
        && recorded.cwd().isPresent()
        && live.projectRoot().isPresent()) {
      addRule(
          rules,
          Optional.of(projectFolder(recorded.home().get(), recorded.cwd().get())),
          Optional.of(
              projectFolder(live.home().orElse(recorded.home().get()), live.projectRoot().get())),
          true);
    }
    long shift = 0;
    if (recorded.epochMs().isPresent() && live.epochMs().isPresent()) {
      shift = live.epochMs().getAsLong() - recorded.epochMs().getAsLong();
    }
    String recordedPrompt = null;
    String livePrompt = null;
    if (recorded.prompt().isPresent()
        && live.prompt().isPresent()
        && !recorded.prompt().get().equals(live.prompt().get())) {
      recordedPrompt = recorded.prompt().get();
      livePrompt = live.prompt().get();
    }
    byte[][] cwdInText = null;
    if (claudeTape
        && recorded.cwd().isPresent()
        && live.cwd().isPresent()
        && !recorded.cwd().get().equals(live.cwd().get())
        && recorded.cwd().get().length() > 1
        && recorded.cwd().get().charAt(0) == '/') {
      cwdInText = new byte[][] {jsonInner(recorded.cwd().get()), jsonInner(live.cwd().get())};
    }
    return new Substitution(
        rules,
        shift,
        claudeTape,
        recordedPrompt,
        livePrompt,
        live.apiKeySource(),
        live.model(),
        live.messagingSocket(),
        cwdInText);
  }

  /**
   * Claude Code's folder of a project under {@code home}: {@code .claude/projects/} and {@code
   * root} with every character but an ASCII letter or digit as {@code -}.
   */
  static String projectFolder(String home, String root) {
    char[] name = root.toCharArray();
    for (int i = 0; i < name.length; i++) {
      char c = name[i];
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) {
        name[i] = '-';
      }
    }
    return home + "/.claude/projects/" + new String(name);
  }

  private static byte[] jsonInner(String value) {
    String quoted = JsonText.quote(value);
    return quoted.substring(1, quoted.length() - 1).getBytes(StandardCharsets.UTF_8);
  }

  private static void addRule(
      List<Rule> rules, Optional<String> recorded, Optional<String> live, boolean prefix) {
    if (recorded.isEmpty()
        || live.isEmpty()
        || recorded.get().equals(live.get())
        || recorded.get().isEmpty()) {
      return;
    }
    String quoted = JsonText.quote(recorded.get());
    char first = quoted.charAt(1);
    if (first == ',' || first == ':' || first == ']' || first == '}' || first <= ' ') {
      return; // could not be told apart from a closing quote; documented as not substituted
    }
    String inner = JsonText.quote(live.get());
    rules.add(
        new Rule(
            quoted.substring(0, quoted.length() - 1).getBytes(StandardCharsets.UTF_8),
            inner.substring(1, inner.length() - 1).getBytes(StandardCharsets.UTF_8),
            prefix));
  }

  /** Whether anything would ever change. */
  public boolean active() {
    return strings.length > 0
        || shift != 0
        || promptNeedle != null
        || apiKeySource != null
        || model != null
        || socket != null
        || cwdInText != null;
  }

  /**
   * Appends {@code buf[off, off+len)}, one JSON value, to {@code out} with live values in place of
   * recorded ones.
   */
  public void apply(byte[] buf, int off, int len, ByteBuf out) {
    if (!active()) {
      out.append(buf, off, len);
      return;
    }
    matches.clear();
    boolean promptCandidate = false;
    int end = off + len;
    boolean init = model != null && len >= INIT.length && regionMatches(buf, off, end, INIT);
    for (int i = off; i < end; i++) {
      byte b = buf[i];
      if (b != '"') {
        if (cwdInText != null && (b == ' ' || b == '\'' || b == '(') && mayLead(buf, i + 1, end)) {
          i = cwdInText(buf, i, end);
        }
        continue;
      }
      if (!mayLead(buf, i + 1, end) || !unescaped(buf, off, i)) {
        continue;
      }
      if (promptNeedle != null && regionMatches(buf, i, end, promptNeedle)) {
        promptCandidate = true; // whatever else starts here: the prompt is replaced whole
      }
      Rule best = null;
      for (Rule rule : strings) {
        byte[] n = rule.needle;
        int after = i + n.length;
        if (after < end
            && regionMatches(buf, i, end, n)
            && (buf[after] == '"' || (rule.prefix && buf[after] == '/'))
            && (best == null || n.length > best.needle.length)) {
          best = rule;
        }
      }
      if (best != null) {
        add(i + 1, best.needle.length - 1, best.replacement);
        continue;
      }
      if (cwdInText != null) {
        int at = cwdInText(buf, i, end);
        if (at != i) {
          i = at;
          continue;
        }
      }
      if (shift != 0) {
        if (regionMatches(buf, i, end, TIMESTAMP)) {
          i = shiftDigits(buf, i + TIMESTAMP.length, end, false);
          continue;
        }
        if (regionMatches(buf, i, end, STARTED)) {
          i = shiftDigits(buf, i + STARTED.length, end, true);
          continue;
        }
        if (regionMatches(buf, i, end, COMPLETED)) {
          i = shiftDigits(buf, i + COMPLETED.length, end, true);
          continue;
        }
        if (claudeTape && regionMatches(buf, i, end, ISO_TIME)) {
          i = shiftIso(buf, i, i + ISO_TIME.length, end);
          continue;
        }
        if (claudeTape && regionMatches(buf, i, end, EPOCH_SECONDS)) {
          int from = i + EPOCH_SECONDS.length;
          // as the recorder: a number of at most 12 characters, its sign included
          int digits = from < end && buf[from] == '-' ? 11 : 12;
          i = shiftDigits(buf, from, end, false, Math.floorDiv(shift, 1000L), digits);
          continue;
        }
      }
      if (init && regionMatches(buf, i, end, MODEL)) {
        int close = replaceString(buf, i + MODEL.length, end, model);
        if (close >= 0) {
          i = close;
          init = false; // the init event's own model, not one nested further on
        }
        continue;
      }
      if (socket != null && regionMatches(buf, i, end, SOCKET)) {
        int close = replaceString(buf, i + SOCKET.length, end, socket);
        i = close >= 0 ? close : i;
        continue;
      }
      if (apiKeySource != null && regionMatches(buf, i, end, API_KEY_SOURCE)) {
        int from = i + API_KEY_SOURCE.length;
        int close = from;
        while (close < end && buf[close] != '"' && buf[close] != '\\') {
          close++;
        }
        if (close < end && buf[close] == '"') {
          add(from, close - from, apiKeySource);
          i = close;
        }
        continue;
      }
    }
    if (promptCandidate) {
      addPromptMatches(buf, off, len);
    }
    if (matches.isEmpty()) {
      out.append(buf, off, len);
      return;
    }
    if (promptCandidate) {
      matches.sort();
    }
    matches.writeTo(buf, off, end, out);
  }

  /**
   * After {@code buf[at]}, a string's opening quote, a space, {@code '} or {@code (}: the recorded
   * cwd followed by the string's end, {@code /}, a space, {@code '} or {@code )} is replaced; the
   * index of its last byte then, else {@code at}.
   */
  private int cwdInText(byte[] buf, int at, int end) {
    int after = at + 1 + cwdInText.length;
    if (after >= end || !regionMatches(buf, at + 1, end, cwdInText)) {
      return at;
    }
    byte next = buf[after];
    if (next != '"' && next != '/' && next != ' ' && next != '\'' && next != ')') {
      return at;
    }
    add(at + 1, cwdInText.length, cwdInTextReplacement);
    return after - 1;
  }

  /**
   * Replaces the string value that starts at {@code from} (after its opening quote) with {@code
   * replacement}; the index of its closing quote, or -1 when the line ends first.
   */
  private int replaceString(byte[] buf, int from, int end, byte[] replacement) {
    int close = from;
    while (close < end && buf[close] != '"') {
      close += buf[close] == '\\' ? 2 : 1;
    }
    if (close >= end) {
      return -1;
    }
    add(from, close - from, replacement);
    return close;
  }

  private void add(int start, int length, byte[] replacement) {
    matches.add(start, length, replacement);
  }

  private int shiftDigits(byte[] buf, int from, int end, boolean quoted) {
    return shiftDigits(buf, from, end, quoted, shift, 18);
  }

  /**
   * Moves the integer of at most {@code maxDigits} digits at {@code from} by {@code delta}; the
   * index before the first byte after its digits.
   */
  private int shiftDigits(
      byte[] buf, int from, int end, boolean quoted, long delta, int maxDigits) {
    int i = from;
    boolean negative = i < end && buf[i] == '-';
    if (negative) {
      i++;
    }
    int digitsStart = i;
    long value = 0;
    while (i < end && buf[i] >= '0' && buf[i] <= '9' && i - digitsStart < maxDigits) {
      value = value * 10 + (buf[i] - '0');
      i++;
    }
    boolean wellEnded =
        i > digitsStart
            && (i == end
                || (quoted
                    ? buf[i] == '"'
                    : buf[i] != '.'
                        && buf[i] != 'e'
                        && buf[i] != 'E'
                        && (buf[i] < '0' || buf[i] > '9')));
    if (wellEnded) {
      long shifted = (negative ? -value : value) + delta;
      add(from, i - from, Long.toString(shifted).getBytes(StandardCharsets.US_ASCII));
    }
    return i - 1;
  }

  /**
   * Moves the ISO time whose text starts at {@code from} (after the key at {@code key}) when it is
   * one; the index of its closing quote, or {@code key} when nothing moved.
   */
  private int shiftIso(byte[] buf, int key, int from, int end) {
    int close = from;
    while (close < end && buf[close] != '"' && buf[close] != '\\') {
      close++;
    }
    if (close == end || buf[close] != '"') {
      return key;
    }
    byte[] moved = IsoDigits.shift(buf, from, close, shift);
    if (moved == null) {
      return key;
    }
    add(from, close - from, moved);
    return close;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  /** Replaces the prompt where the rules allow it ({@link UserPrompt}), whole. */
  private void addPromptMatches(byte[] buf, int off, int len) {
    for (int at : UserPrompt.offsets(buf, off, len, recordedPrompt)) {
      // the prompt is replaced whole: what another rule found inside it is dropped
      matches.dropWithin(at, at + promptNeedle.length);
      add(at, promptNeedle.length, promptReplacement);
    }
  }

  private static boolean unescaped(byte[] buf, int lineStart, int quote) {
    int backslashes = 0;
    for (int i = quote - 1; i >= lineStart && buf[i] == '\\'; i--) {
      backslashes++;
    }
    return (backslashes & 1) == 0;
  }

  private static boolean regionMatches(byte[] buf, int at, int end, byte[] needle) {
    if (at + needle.length > end) {
      return false;
    }
    for (int k = 0; k < needle.length; k++) {
      if (buf[at + k] != needle[k]) {
        return false;
      }
    }
    return true;
  }
}
