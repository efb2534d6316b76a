package dev.agentdouble.recorder;

import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.recorder.internal.secrets.SecretFormats;
import dev.agentdouble.recorder.internal.secrets.SecretScan;
import dev.agentdouble.recorder.internal.secrets.Secrets;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes secrets out of a tape before it is written, so that a recording cannot leak one by
 * omission. Each secret is replaced everywhere — header argv and every other header text, stdout
 * JSON lines, raw stdout, stderr — in its raw form and in the forms JSON writers give it (escaped
 * as {@code JSON.stringify} escapes, with {@code \/}, with {@code \}{@code u} escapes for non-ASCII
 * characters or for every character, escaped twice), by a stable marker naming its source:
 *
 * <ul>
 *   <li>the value of an environment variable whose name contains {@code KEY}, {@code TOKEN}, {@code
 *       SECRET}, {@code PASSWORD}, {@code PASSWD}, {@code CREDENTIAL} or {@code AUTH} (any case;
 *       {@code AUTHOR} is not {@code AUTH}), at least {@value #MIN_LENGTH} characters: {@code
 *       REDACTED:CURSOR_API_KEY};
 *   <li>the values of {@code --api-key} and {@code --auth-token} ({@code REDACTED:api-key}, {@code
 *       REDACTED:auth-token}) and of {@code -H}/{@code --header}: for {@code Name: value} the whole
 *       string becomes {@code Name: REDACTED:header:Name}, the value alone and a credential after
 *       an auth scheme ({@code Bearer xyz}) become {@code REDACTED:header:Name}. Found in the argv
 *       given to {@link #from} and in the tape's own header argv. In the header argv the value is
 *       always replaced; elsewhere only values of at least {@value #MIN_LENGTH} characters are
 *       looked for, so a short value cannot wreck the tape;
 *   <li>secrets known by their shape, wherever they are found in the tape: Anthropic's keys and
 *       OAuth tokens ({@code sk-ant-api03-...}, {@code sk-ant-oat01-...}, {@code
 *       sk-ant-admin01-...}: {@code REDACTED:anthropic-key}) and a token after {@code Bearer}
 *       ({@code REDACTED:bearer-token}); so Claude Code's {@code ANTHROPIC_API_KEY}, {@code
 *       ANTHROPIC_AUTH_TOKEN} and {@code CLAUDE_CODE_OAUTH_TOKEN} go by their name and by their
 *       shape;
 *   <li>every text a user pattern matches (in header text, in each JSON string, in raw stdout and
 *       stderr): {@code REDACTED:pattern-1} for the first pattern, and so on; each match is then
 *       replaced wherever it occurs, like any other secret.
 * </ul>
 *
 * A secret that no single frame holds whole — written in two pieces, or cut by a pipe read — is
 * found across consecutive raw stdout or stderr frames of the same stream too: the marker goes in
 * the frame where it starts, its other bytes are cut from the frames after, and a frame left empty
 * is dropped. (User patterns are matched within each frame.)
 *
 * <p>Where secrets overlap the longest wins; when two sources share a value, the first in the order
 * above (environment variables by name) names it. Inside JSON, strings are decoded, cleaned and
 * written back escaped as the CLI escapes them, so lines stay valid compact JSON and nothing but
 * the secrets changes. Markers need no escaping in JSON. The same input always gives the same tape.
 *
 * <pre>{@code
 * Redactor redactor =
 *     Redactor.from(System.getenv(), argv, List.of(Pattern.compile("sk-[A-Za-z0-9]+")));
 * Redactor.Result redacted = redactor.redact(Normaliser.normalise(captured, context));
 * redacted.tape().write(file);
 * err.println("redacted " + redacted.summary());
 * }</pre>
 *
 * Normalise first, then redact: redaction then also covers what normalisation declares in {@code
 * vars} (a prompt holding a secret, say).
 */
public final class Redactor {
  /** The shortest value looked for everywhere: shorter ones would match ordinary text. */
  public static final int MIN_LENGTH = SecretScan.MIN_LENGTH;

  /** What makes an environment variable's name look secret. */
  public static final List<String> SECRET_WORDS = SecretScan.SECRET_WORDS;

  private final List<Secrets.Secret> secrets;
  private final List<Pattern> patterns;

  private Redactor(List<Secrets.Secret> secrets, List<Pattern> patterns) {
    this.secrets = List.copyOf(secrets);
    this.patterns = List.copyOf(patterns);
  }

  /**
   * A redactor of the secrets in a run's environment and command line, and of what {@code patterns}
   * match.
   *
   * @param env the environment the CLI ran with
   * @param argv the arguments it ran with (without the program name)
   * @param patterns user patterns ({@code --redact}), numbered from 1 in markers
   */
  public static Redactor from(Map<String, String> env, List<String> argv, List<Pattern> patterns) {
    Objects.requireNonNull(env, "env");
    List<Secrets.Secret> list =
        SecretScan.knownSecrets(env, argv, MIN_LENGTH, Redactor::looksSecret);
    return new Redactor(list, patterns);
  }

  /** Whether an environment variable of this name holds a secret, by its name. */
  public static boolean looksSecret(String name) {
    return SecretScan.looksSecret(name);
  }

  /**
   * The sources this redactor knows secrets of before it sees a tape, in order, e.g. {@code
   * [CURSOR_API_KEY, api-key]}; user patterns add theirs per tape. Values are never exposed.
   */
  public List<String> sources() {
    return secrets.stream().map(Secrets.Secret::source).distinct().toList();
  }

  /** The tape without the secrets, and how many replacements were made per source. */
  public Result redact(Tape tape) {
    SecretFormats formats = new SecretFormats();
    tape.header().argv().forEach(formats::scan);
    tape.header().vars().prompt().ifPresent(formats::scan);
    for (Frame frame : tape.frames()) {
      formats.scan(Piece.of(frame).bytes());
    }
    List<Secrets.Secret> all = new ArrayList<>(secrets);
    all.addAll(formats.found());
    SecretScan.Job job = new SecretScan.Job(all, patterns, tape.header(), MIN_LENGTH);
    Tape clean = SecretScan.apply(tape, job);
    return new Result(clean, job.counts());
  }

  /**
   * {@code text} without the secrets: those of the environment and argv, those known by their
   * shape, and what the patterns match in it. For redacting what a recorder prints about a run (its
   * command line, say).
   */
  public String redact(String text) {
    SecretFormats formats = new SecretFormats();
    formats.scan(text);
    List<Secrets.Secret> all = new ArrayList<>(secrets);
    all.addAll(formats.found());
    for (int k = 0; k < patterns.size(); k++) {
      String source = "pattern-" + (k + 1);
      Matcher m = patterns.get(k).matcher(text);
      while (m.find()) {
        if (!m.group().isEmpty()) {
          all.add(new Secrets.Secret(m.group(), Secrets.marker(source), source));
        }
      }
    }
    return new Secrets(all).replace(text, new HashMap<>());
  }

  /**
   * What {@link #redact(Tape)} did: the tape without the secrets, and how many replacements it made
   * per source.
   *
   * @param tape the redacted tape
   * @param counts replacements per source ({@code CURSOR_API_KEY}, {@code api-key}, {@code
   *     header:Authorization}, {@code pattern-1}, ...), sorted by source; sources that did not
   *     occur are absent
   */
  public record Result(Tape tape, Map<String, Integer> counts) {

    public Result {
      counts = Collections.unmodifiableMap(new TreeMap<>(counts));
    }

    /** All replacements made. */
    public int total() {
      return counts.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** The counts as people read them: {@code 3 (CURSOR_API_KEY 2, api-key 1)}, or {@code 0}. */
    public String summary() {
      if (counts.isEmpty()) {
        return "0";
      }
      StringBuilder sb = new StringBuilder().append(total()).append(" (");
      counts.forEach(
          (source, n) ->
              sb.append(sb.charAt(sb.length() - 1) == '(' ? "" : ", ")
                  .append(source)
                  .append(' ')
                  .append(n));
      return sb.append(')').toString();
    }
  }
}
