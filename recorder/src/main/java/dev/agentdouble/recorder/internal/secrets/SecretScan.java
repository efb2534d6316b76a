package dev.agentdouble.recorder.internal.secrets;

import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.recorder.internal.scan.JsonWalk;
import dev.agentdouble.recorder.internal.scan.Piece;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Match;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The work behind {@code Redactor}: takes secrets out of a whole tape, the header's text (argv,
 * provenance, vars, match, unknown fields), every stdout JSON line, raw stdout and stderr bytes.
 * Inside JSON every string (and field name) is decoded, cleaned and written back with {@link
 * JsonText#quote}, so a secret is found however it was escaped and the line stays valid JSON; a
 * number holding a secret becomes a string. Should a secret still show in a line's bytes afterwards
 * (it would have to straddle JSON tokens), it is replaced in the bytes, and a line that is then no
 * longer compact JSON is kept as raw stdout: the secret goes, whatever it costs the line.
 */
public final class SecretScan {
  /** The shortest value looked for everywhere: shorter ones would match ordinary text. */
  public static final int MIN_LENGTH = 8;

  /** What makes an environment variable's name look secret. */
  public static final List<String> SECRET_WORDS =
      List.of("KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "AUTH");

  private SecretScan() {}

  /** Whether an environment variable of this name holds a secret, by its name. */
  public static boolean looksSecret(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    for (String word : SECRET_WORDS) {
      for (int i = upper.indexOf(word); i >= 0; i = upper.indexOf(word, i + 1)) {
        if (!(word.equals("AUTH") && upper.startsWith("AUTHOR", i))) {
          return true;
        }
      }
    }
    return false;
  }

  /** A name fit for a marker: letters, digits, {@code _ . : -}; anything else becomes {@code _}. */
  public static String sourceName(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '.'
              || c == ':'
              || c == '-';
      sb.append(ok ? c : '_');
    }
    return sb.length() == 0 ? "_" : sb.toString();
  }

  /**
   * The secrets of a run's environment (variables whose names look secret, values of at least
   * {@code minLength} characters) and command line, in order of precedence.
   */
  public static List<Secrets.Secret> knownSecrets(
      Map<String, String> env, List<String> argv, int minLength, Predicate<String> looksSecret) {
    List<Secrets.Secret> list = new ArrayList<>();
    new TreeMap<>(env)
        .forEach(
            (name, value) -> {
              if (value != null && looksSecret.test(name)) {
                String source = sourceName(name);
                for (String v : List.of(value, value.strip())) {
                  if (v.length() >= minLength) {
                    list.add(new Secrets.Secret(v, Secrets.marker(source), source));
                  }
                }
              }
            });
    for (ArgvSecrets.Found found : ArgvSecrets.find(argv)) {
      list.addAll(found.secrets(minLength));
    }
    return list;
  }

  /**
   * The redaction of one tape, made piece by piece so a recording is never held whole: {@link
   * #scan} every piece (needed only with user patterns: what they match anywhere is replaced
   * everywhere), then take the {@link #header} and {@link #piece clean} each piece.
   */
  public static final class Job {
    private final List<Secrets.Secret> known = new ArrayList<>();
    private final List<ArgvSecrets.Found> positional;
    private final List<Pattern> patterns;
    private final List<Set<String>> matches = new ArrayList<>();
    private final Map<String, Integer> counts = new HashMap<>();
    private Secrets secrets;

    /**
     * @param known the secrets known before the tape is seen ({@link #knownSecrets})
     * @param patterns user patterns, numbered from 1 in markers
     * @param header the tape's header: the values of secret options in its argv are secrets too,
     *     and the patterns are looked for in its text
     */
    public Job(List<Secrets.Secret> known, List<Pattern> patterns, Header header, int minLength) {
      this.known.addAll(known);
      this.positional = ArgvSecrets.find(header.argv());
      for (ArgvSecrets.Found found : positional) {
        this.known.addAll(found.secrets(minLength));
      }
      this.patterns = List.copyOf(patterns);
      for (int k = 0; k < patterns.size(); k++) {
        matches.add(new LinkedHashSet<>());
      }
      if (!patterns.isEmpty()) {
        headerTexts(header, this::match);
      }
    }

    /** Whether {@link #scan} must see every piece before the first is cleaned. */
    public boolean needsScan() {
      return !patterns.isEmpty();
    }

    /** Looks for the patterns in a piece. */
    public void scan(Piece piece) {
      if (patterns.isEmpty()) {
        return;
      }
      switch (piece.kind()) {
        case JSON, IN -> jsonStrings(piece.bytes(), this::match);
        case OUT, ERR -> match(new String(piece.bytes(), StandardCharsets.UTF_8));
        case OTHER -> {
          // gates and endings hold no output
        }
      }
    }

    private void match(String text) {
      for (int k = 0; k < patterns.size(); k++) {
        Matcher m = patterns.get(k).matcher(text);
        while (m.find()) {
          String found = m.group();
          if (!found.isEmpty() && found.indexOf('\uFFFD') < 0) {
            matches.get(k).add(found);
          }
        }
      }
    }

    private Secrets secrets() {
      if (secrets == null) {
        List<Secrets.Secret> all = new ArrayList<>(known);
        for (int k = 0; k < patterns.size(); k++) {
          String source = "pattern-" + (k + 1);
          for (String found : matches.get(k)) {
            all.add(new Secrets.Secret(found, Secrets.marker(source), source));
          }
        }
        secrets = new Secrets(all);
      }
      return secrets;
    }

    /** The header without the secrets; values of secret options in argv whatever their length. */
    public Header header(Header h) {
      return SecretScan.header(h, secrets(), positional, counts);
    }

    /** The piece without the secrets it holds whole. */
    Piece piece(Piece p) {
      return SecretScan.piece(p, secrets(), counts);
    }

    /**
     * Cleans the pieces given to it, in order, secrets split across them too, and gives them to
     * {@code next}; {@link SplitSecrets#finish} at the end.
     */
    public SplitSecrets cleaning(Piece.Sink next) {
      return new SplitSecrets(this::piece, secrets(), counts, next);
    }

    /** Replacements made so far, per source. */
    public Map<String, Integer> counts() {
      return counts;
    }
  }

  /** Every piece of text in a header. */
  private static void headerTexts(Header h, Consumer<String> sink) {
    h.argv().forEach(sink);
    h.cli().ifPresent(sink);
    h.cliVersion().ifPresent(sink);
    h.profile().ifPresent(sink);
    h.recordedAt().ifPresent(sink);
    h.importedAt().ifPresent(sink);
    h.recorder().ifPresent(sink);
    Vars v = h.vars();
    v.sessionId().ifPresent(sink);
    v.cwd().ifPresent(sink);
    v.home().ifPresent(sink);
    v.prompt().ifPresent(sink);
    v.extras().values().forEach(raw -> jsonStrings(raw.getBytes(StandardCharsets.UTF_8), sink));
    h.match()
        .ifPresent(
            m -> {
              m.prompt().ifPresent(sink);
              m.argv().forEach(sink);
              m.model().ifPresent(sink);
            });
    h.extras().values().forEach(raw -> jsonStrings(raw.getBytes(StandardCharsets.UTF_8), sink));
  }

  private static void jsonStrings(byte[] json, Consumer<String> sink) {
    try {
      JsonWalk.walk(
          json,
          0,
          json.length,
          (c, token, place) -> {
            if (token == JsonCursor.Token.STRING
                || token == JsonCursor.Token.FIELD_NAME
                || token == JsonCursor.Token.NUMBER) {
              sink.accept(token == JsonCursor.Token.NUMBER ? c.raw() : c.text());
            }
          });
    } catch (JsonCursor.Malformed e) {
      sink.accept(new String(json, StandardCharsets.UTF_8));
    }
  }

  /** The tape without the secrets {@code job} knows, and what its patterns match. */
  public static Tape apply(Tape tape, Job job) {
    List<Piece> pieces = new ArrayList<>(tape.frames().size());
    for (Frame f : tape.frames()) {
      Piece p = Piece.of(f);
      job.scan(p);
      pieces.add(p);
    }
    Header header = job.header(tape.header());
    List<Frame> frames = new ArrayList<>(pieces.size());
    try {
      SplitSecrets cleaning = job.cleaning(p -> frames.add(p.toFrame()));
      for (Piece p : pieces) {
        cleaning.accept(p);
      }
      cleaning.finish();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // into a list: never
    }
    return new Tape(header, frames);
  }

  private static Header header(
      Header h, Secrets s, List<ArgvSecrets.Found> positional, Map<String, Integer> counts) {
    List<String> argv = new ArrayList<>(h.argv());
    for (ArgvSecrets.Found found : positional) {
      String redacted = found.redactedElement();
      if (!argv.get(found.index()).equals(redacted)) {
        argv.set(found.index(), redacted);
        counts.merge(found.source(), 1, Integer::sum);
      }
    }
    argv.replaceAll(a -> s.replace(a, counts));
    Vars v = h.vars();
    Vars vars =
        new Vars(
            text(v.sessionId(), s, counts),
            text(v.cwd(), s, counts),
            text(v.home(), s, counts),
            text(v.prompt(), s, counts),
            v.epochMs(),
            rawMap(v.extras(), s, counts));
    Optional<Match> match =
        h.match()
            .map(
                m ->
                    new Match(
                        text(m.prompt(), s, counts),
                        m.argv().stream().map(a -> s.replace(a, counts)).toList(),
                        m.outputFormat(),
                        text(m.model(), s, counts)));
    return new Header(
        h.version(),
        text(h.cli(), s, counts),
        text(h.cliVersion(), s, counts),
        text(h.profile(), s, counts),
        argv,
        h.outputFormat(),
        h.textStyle(),
        text(h.recordedAt(), s, counts),
        text(h.importedAt(), s, counts),
        h.source(),
        text(h.recorder(), s, counts),
        h.varied(),
        vars,
        match,
        rawMap(h.extras(), s, counts));
  }

  private static Optional<String> text(
      Optional<String> value, Secrets s, Map<String, Integer> counts) {
    return value.map(x -> s.replace(x, counts));
  }

  private static Map<String, String> rawMap(
      Map<String, String> raw, Secrets s, Map<String, Integer> counts) {
    Map<String, String> result = new LinkedHashMap<>();
    raw.forEach(
        (k, json) -> {
          Cleaned clean = json(json.getBytes(StandardCharsets.UTF_8), s, counts);
          String text = new String(clean.bytes(), StandardCharsets.UTF_8);
          result.put(s.replace(k, counts), clean.json() ? text : JsonText.quote(text));
        });
    return result;
  }

  private static Piece piece(Piece p, Secrets s, Map<String, Integer> counts) {
    switch (p.kind()) {
      case JSON -> {
        Cleaned clean = json(p.bytes(), s, counts);
        if (clean.json()) {
          return p.with(clean.bytes());
        }
        // a secret straddled JSON tokens: the line's bytes without it, verbatim
        byte[] line = Arrays.copyOf(clean.bytes(), clean.bytes().length + 1);
        line[line.length - 1] = '\n';
        return Piece.out(p.t(), line);
      }
      case IN -> {
        Cleaned clean = json(p.bytes(), s, counts);
        // a secret straddled JSON tokens: what the client sent, as one JSON string
        return p.with(
            clean.json()
                ? clean.bytes()
                : JsonText.quote(new String(clean.bytes(), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8));
      }
      case OUT, ERR -> {
        return p.with(s.replace(p.bytes(), counts));
      }
      default -> {
        if (p.frame() instanceof Frame.Gate g) {
          String name = s.replace(g.name(), counts);
          if (name.equals(g.name())) {
            return p;
          }
          name = name.replace(':', '.');
          return Piece.of(
              new Frame.Gate(g.t(), Frame.Gate.validGateName(name) ? name : "REDACTED"));
        }
        return p;
      }
    }
  }

  /**
   * What cleaning one JSON value gave.
   *
   * @param bytes the value without the secrets; the same array when nothing changed
   * @param json whether the bytes are still one compact JSON value (false only when a secret had to
   *     be replaced in the raw bytes)
   */
  record Cleaned(byte[] bytes, boolean json) {}

  /** One compact JSON value without the secrets. */
  static Cleaned json(byte[] json, Secrets s, Map<String, Integer> counts) {
    if (s.isEmpty()) {
      return new Cleaned(json, true);
    }
    if (!s.mayBeIn(json)) {
      return new Cleaned(json, true);
    }
    JsonWalk.Splice splice = new JsonWalk.Splice();
    try {
      JsonWalk.walk(
          json,
          0,
          json.length,
          (c, token, place) -> {
            if (token == JsonCursor.Token.STRING || token == JsonCursor.Token.FIELD_NAME) {
              String text = c.text();
              String clean = s.replace(text, counts);
              if (!clean.equals(text)) {
                splice.add(c.tokenStart(), c.tokenEnd(), JsonText.quote(clean));
              }
            } else if (token == JsonCursor.Token.NUMBER) {
              String raw = c.raw();
              String clean = s.replace(raw, counts);
              if (!clean.equals(raw)) {
                splice.add(c.tokenStart(), c.tokenEnd(), JsonText.quote(clean));
              }
            }
          });
    } catch (JsonCursor.Malformed e) {
      byte[] raw = s.replace(json, counts);
      return new Cleaned(raw, false);
    }
    byte[] result = splice.isEmpty() ? json : splice.apply(json, 0, json.length);
    if (s.occursIn(result)) {
      byte[] raw = s.replace(result, counts);
      return new Cleaned(raw, JsonText.isCompactValue(raw, 0, raw.length));
    }
    return new Cleaned(result, true);
  }
}
