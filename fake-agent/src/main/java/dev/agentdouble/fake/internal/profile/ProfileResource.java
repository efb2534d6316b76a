package dev.agentdouble.fake.internal.profile;

import dev.agentdouble.fake.internal.profile.CliCommand.Argument;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TextStyle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in profiles: one resource of this package per CLI version, {@code profile-<name>.txt},
 * read by this one interpreter. What differs between versions is in those files, never in code: the
 * version line, the defaults of a run, the order of checks, the command tree (options with their
 * arity, hidden options, subcommands, aliases, and the help texts commander prints from them), the
 * texts, the shapes of the subcommands' answers, the model list ({@code models-<name>.txt}, which
 * the profile names). A new CLI version is a new file, most often a small one: {@code base <name>}
 * and what differs from that version; {@code profiles.txt} names the default.
 *
 * <p>The format, line by line (UTF-8): blank lines and lines starting with {@code #} (after any
 * indentation) are skipped; every other line is {@code <key> <value>} or a bare {@code <key>},
 * indented by two spaces under the line it belongs to. In a value, {@code \n} is a newline and
 * {@code \\} a backslash. Keys at the top:
 *
 * <ul>
 *   <li>{@code version}, {@code email}, {@code model} (display name), {@code models} (the model
 *       list's resource), {@code logged-in}, {@code api-key-valid}, {@code trust-gate}, {@code
 *       auth-first} ({@code true} or {@code false}), {@code default-output-format} ({@code text},
 *       {@code json}, {@code stream-json}), {@code text-style} ({@code actions}, {@code final}),
 *       {@code stdin} ({@code read-before-run}, {@code run-then-await-eof});
 *   <li>{@code checks}: the checks of a print run, in order, by their names in {@link RunCheck};
 *   <li>{@code json} ({@code pretty} or {@code compact}), {@code status-user-info} (keys), {@code
 *       status-signed-out-message}, {@code about-latest}: the shapes of {@code status} and {@code
 *       about};
 *   <li>{@code message <key> <text>}: a text ({@code {workspace}} stands for the path in {@code
 *       trust-required});
 *   <li>{@code acp}: the description {@code agent acp --help} shows;
 *   <li>{@code command <name>}: the root command, with under it {@code description}, {@code alias},
 *       {@code action false} (a group such as {@code mcp}), {@code argument <term> [description]}
 *       ({@code [prompt...]}, {@code <identifier>}), {@code option <flags>} with {@code help} and
 *       its value rules under it ({@code choices}, {@code unlisted-choices}, {@code
 *       choices-ignore}, {@code number}, {@code positive-number}, {@code tokens}, {@code known}
 *       with {@code known-ignore} and {@code unknown-warning}, {@code each-of} with {@code
 *       each-of-refusal}, {@code stream-json-only} with {@code stream-json-refusal}), {@code hidden
 *       <flags>} (accepted, left out of help; the same value rules), and its {@code command}s, in
 *       the order help lists them;
 *   <li>{@code base <name>}: the lines of that built-in profile, which this file's lines replace,
 *       extend or, with {@code drop-command <name>} and {@code drop-option <flags>} in a command,
 *       remove ({@link ProfileOverlay}).
 * </ul>
 *
 * <p>Start-up: a run takes a built-in profile as the build read it with this interpreter, made
 * again by code ({@link PackageResource.Compiled#profile}, in the launcher's archive): no jar is
 * opened, no text parsed, no line interpreted. Only a build without that step (an IDE's) reads the
 * lines at run time; the reader makes no lambda and loads no JSON class.
 */
final class ProfileResource {
  /** The resource that names the default profile. */
  static final String INDEX = "profiles.txt";

  static final String PREFIX = "profile-";
  static final String SUFFIX = ".txt";

  /** The key of the hidden {@code acp} command's description, and the command's name. */
  private static final String ACP = "acp";

  private static final Map<String, Profile> LOADED = new HashMap<>();

  private ProfileResource() {}

  /** The name of the default profile, as {@value #INDEX} gives it. */
  static String defaultName() {
    for (ProfileLine n : lines(INDEX).orElseThrow()) {
      if (n.key().equals("default")) {
        return n.value();
      }
    }
    throw new IllegalStateException(INDEX + ": no \"default\" line");
  }

  /** The name of the built-in profile in the resource {@code file} ({@value #PREFIX}NAME.txt). */
  static String stem(String file) {
    return file.substring(PREFIX.length(), file.length() - SUFFIX.length());
  }

  /**
   * The names of the built-in profiles, in reverse order of their names: {@code documented}, then
   * the versions, the newest first.
   */
  static List<String> names() {
    List<String> names = new ArrayList<>();
    for (String file : PackageResource.list(PREFIX, SUFFIX)) {
      names.add(0, file.substring(PREFIX.length(), file.length() - SUFFIX.length()));
    }
    return names;
  }

  /** The built-in profile {@code name}, read once per process; empty when there is none. */
  static synchronized Optional<Profile> load(String name) {
    Profile loaded = LOADED.get(name);
    if (loaded != null) {
      return Optional.of(loaded);
    }
    // as the build read it: a run interprets no line (issue 34's start-up)
    Profile profile = PackageResource.profile(PREFIX + name + SUFFIX, Profile.class);
    if (profile == null) {
      Optional<List<ProfileLine>> top = top(name);
      if (top.isEmpty()) {
        return Optional.empty();
      }
      profile = profile(name, top.get());
    }
    LOADED.put(name, profile);
    return Optional.of(profile);
  }

  /** The lines of the built-in profile {@code name}'s resource; empty when there is none. */
  private static Optional<List<ProfileLine>> top(String name) {
    if (!isName(name)) {
      return Optional.empty();
    }
    return lines(PREFIX + name + SUFFIX);
  }

  /** The lines of the package's resource {@code file}; empty when there is none. */
  static Optional<List<ProfileLine>> lines(String file) {
    PackageResource.Compiled compiled = PackageResource.compiled();
    if (compiled != null) {
      // parsed by the build: the text is there too when its lines are not (a resource that is no
      // profile's lines), parsed here to give the same error
      List<ProfileLine> lines = compiled.lines(file);
      if (lines != null) {
        return Optional.of(lines);
      }
    }
    Optional<byte[]> bytes = PackageResource.find(file);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(parse(file, new String(bytes.get(), StandardCharsets.UTF_8)));
  }

  /** The built-in profiles as bases: only a profile that names a base loads this class. */
  private static final class BuiltIns implements ProfileOverlay.Bases {
    static final ProfileOverlay.Bases BASES = new BuiltIns();

    @Override
    public Optional<List<ProfileLine>> top(String name) {
      return ProfileResource.top(name);
    }

    @Override
    public List<String> names() {
      return ProfileResource.names();
    }
  }

  /** A name that can only be a resource of this package: no folder, nothing hidden. */
  static boolean isName(String name) {
    return !name.isEmpty()
        && name.charAt(0) != '.'
        && name.indexOf('/') < 0
        && name.indexOf('\\') < 0;
  }

  /** The lines of {@code text} as a tree: the top-level lines, each with its indented ones. */
  static List<ProfileLine> parse(String source, String text) {
    List<ProfileLine> top = new ArrayList<>();
    List<List<ProfileLine>> open = new ArrayList<>(); // open.get(d): where a line of depth d goes
    open.add(top);
    int number = 0;
    for (String raw : text.split("\n", -1)) {
      number++;
      int spaces = 0;
      while (spaces < raw.length() && raw.charAt(spaces) == ' ') {
        spaces++;
      }
      String line = raw.substring(spaces);
      if (line.isEmpty() || line.charAt(0) == '#') {
        continue;
      }
      if (spaces % 2 != 0 || spaces / 2 >= open.size()) {
        throw new IllegalStateException(
            source + ":" + number + ": indented by " + spaces + " spaces; two under its parent");
      }
      int depth = spaces / 2;
      int space = line.indexOf(' ');
      String key = space < 0 ? line : line.substring(0, space);
      String value = space < 0 ? "" : unescape(source, number, line.substring(space + 1));
      ProfileLine node = new ProfileLine(source, number, key, value, new ArrayList<>());
      open.get(depth).add(node);
      while (open.size() > depth + 1) {
        open.remove(open.size() - 1);
      }
      open.add(node.children());
    }
    return top;
  }

  private static String unescape(String source, int number, String value) {
    if (value.indexOf('\\') < 0) {
      return value;
    }
    StringBuilder sb = new StringBuilder(value.length());
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char next = i + 1 < value.length() ? value.charAt(i + 1) : ' ';
      if (next == 'n') {
        sb.append('\n');
      } else if (next == '\\') {
        sb.append('\\');
      } else {
        throw new IllegalStateException(
            source + ":" + number + ": \\" + next + "; a value escapes only \\n and \\\\");
      }
      i++;
    }
    return sb.toString();
  }

  /**
   * The profile the top-level lines {@code top} of the resource of {@code name} describe, laid over
   * the built-in profile they name as their {@code base} if they name one ({@link ProfileOverlay}).
   */
  static Profile profile(String name, List<ProfileLine> top) {
    for (ProfileLine n : top) {
      if (n.key().equals(ProfileOverlay.BASE)) {
        // a field of the parameter's type: the verifier loads no class of the overlay for it
        return profile(name, top, BuiltIns.BASES);
      }
    }
    return read(name, top.isEmpty() ? name : top.get(0).source(), top);
  }

  /** {@link #profile(String, List)} with the bases it may name from {@code bases}. */
  static Profile profile(String name, List<ProfileLine> top, ProfileOverlay.Bases bases) {
    return read(
        name, top.isEmpty() ? name : top.get(0).source(), ProfileOverlay.resolve(name, top, bases));
  }

  /** The profile of the lines {@code top}, a base's laid over already; {@code source} names it. */
  private static Profile read(String name, String source, List<ProfileLine> top) {
    Map<String, ProfileLine> one = new HashMap<>();
    Map<String, String> messages = new HashMap<>();
    for (ProfileLine n : top) {
      if (n.key().equals("message")) {
        int space = n.value().indexOf(' ');
        if (space < 0) {
          throw n.problem("a message is \"message <key> <text>\"");
        }
        messages.put(n.value().substring(0, space), n.value().substring(space + 1));
      } else if (one.put(n.key(), n) != null) {
        throw n.problem("\"" + n.key() + "\" given twice");
      }
    }
    for (String key : one.keySet()) {
      if (!KEYS.contains(key)) {
        throw one.get(key).problem("unknown key \"" + key + "\"; a profile has " + KEYS);
      }
    }
    List<RunCheck> checks = new ArrayList<>();
    ProfileLine checkLine = required(source, one, "checks");
    for (String check : words(checkLine)) {
      Optional<RunCheck> c = RunCheck.named(check);
      if (c.isEmpty()) {
        throw checkLine.problem("unknown check \"" + check + "\"; one of " + RunCheck.NAMES);
      }
      checks.add(c.get());
    }
    Optional<String> signedOut =
        one.containsKey("status-signed-out-message")
            ? Optional.of(one.get("status-signed-out-message").value())
            : Optional.empty();
    ProfileLine json = one.get("json");
    if (json == null || !(json.value().equals("pretty") || json.value().equals("compact"))) {
      throw new IllegalStateException(source + ": \"json\" must be pretty or compact");
    }
    Profile.Surface surface =
        new Profile.Surface(
            name,
            command(required(source, one, "command")),
            leaf(ACP, required(source, one, ACP).value()),
            checks,
            json.value().equals("pretty"),
            words(required(source, one, "status-user-info")),
            signedOut,
            bool(required(source, one, "about-latest")),
            messages);
    ProfileLine stdin = required(source, one, "stdin");
    Profile.StdinRule rule = null;
    for (Profile.StdinRule r : Profile.StdinRule.values()) {
      if (r.name().equals(stdin.value().toUpperCase(Locale.ROOT).replace('-', '_'))) {
        rule = r;
      }
    }
    if (rule == null) {
      throw stdin.problem("\"stdin\" must be read-before-run or run-then-await-eof");
    }
    ProfileLine format = required(source, one, "default-output-format");
    Optional<OutputFormat> outputFormat = OutputFormat.fromCliName(format.value());
    if (outputFormat.isEmpty()) {
      throw format.problem("\"default-output-format\" must be text, json or stream-json");
    }
    ProfileLine style = required(source, one, "text-style");
    Optional<TextStyle> textStyle = TextStyle.fromName(style.value());
    if (textStyle.isEmpty()) {
      throw style.problem("\"text-style\" must be actions or final");
    }
    String model = required(source, one, "model").value();
    return new Profile(
        name,
        required(source, one, "version").value(),
        bool(required(source, one, "logged-in")),
        required(source, one, "email").value(),
        outputFormat.get(),
        textStyle.get(),
        model,
        ModelCatalog.resource(required(source, one, "models").value()),
        Optional.empty(),
        new Profile.Behaviour(
            surface,
            bool(required(source, one, "trust-gate")),
            bool(required(source, one, "auth-first")),
            rule),
        bool(required(source, one, "api-key-valid")));
  }

  private static final List<String> KEYS =
      List.of(
          "version",
          "logged-in",
          "email",
          "model",
          "models",
          "api-key-valid",
          "default-output-format",
          "text-style",
          "trust-gate",
          "auth-first",
          "stdin",
          "checks",
          "json",
          "status-user-info",
          "status-signed-out-message",
          "about-latest",
          "acp",
          "command");

  /** A {@code command} line and the lines under it. */
  static CliCommand command(ProfileLine node) {
    Optional<String> alias = Optional.empty();
    String description = "";
    boolean action = true;
    boolean opaque = false;
    List<CliOption> options = new ArrayList<>();
    List<Argument> arguments = new ArrayList<>();
    List<CliCommand> subcommands = new ArrayList<>();
    for (ProfileLine n : node.children()) {
      switch (n.key()) {
        case "alias" -> alias = Optional.of(n.value());
        case "description" -> description = n.value();
        case "action" -> action = bool(n);
        case "argument" -> arguments.add(argument(n));
        case "option" -> options.add(option(n));
        case "hidden" -> options.add(valueRules(CliOption.hidden(n.value()), n, List.of()));
        case "command" -> subcommands.add(command(n));
        case "opaque" -> opaque = bool(n);
        case "drop-command", "drop-option" ->
            throw n.problem("\"" + n.key() + "\" edits a base; this profile names none");
        default ->
            throw n.problem(
                "unknown key \""
                    + n.key()
                    + "\" in a command; it has alias, description, action, argument, option,"
                    + " hidden, command");
      }
    }
    return new CliCommand(
        node.value(), alias, description, options, arguments, subcommands, action, opaque);
  }

  /** {@code option <flags>} with its {@code help}, and its value rules ({@link #valueRules}). */
  private static CliOption option(ProfileLine node) {
    String help = "";
    for (ProfileLine n : node.children()) {
      if (n.key().equals("help")) {
        help = n.value();
      }
    }
    return valueRules(CliOption.choice(node.value(), List.of(), help), node, List.of("help"));
  }

  /**
   * {@code option} with the value rules of the lines under {@code node}: {@code choices <values>}
   * (the list help and the refusal show), {@code unlisted-choices <values>} (accepted too, never
   * listed), {@code choices-ignore case-and-blanks} (a value compared lower-cased and trimmed, as
   * JavaScript does), {@code number <message>} or {@code positive-number <message>} (commander's
   * argument parser refusing a value with {@code message}), {@code tokens <word> <minimum>
   * <message>} (a count of tokens, {@link ValueRule.TokenCount}), {@code known <values>} with
   * {@code known-ignore case-and-blanks} and {@code unknown-warning <text>} (a value taken, but
   * warned of unless known: {@link CliOption.Warning}), {@code each-of <values>} with {@code
   * each-of-refusal <text>} (a comma list checked before the parse: {@link CliOption.EachOf}),
   * {@code stream-json-only <values>} with {@code stream-json-refusal <text>} (values refused
   * outside stream-json output: {@link CliOption.StreamJsonOnly}).
   */
  private static CliOption valueRules(CliOption option, ProfileLine node, List<String> others) {
    List<String> choices = List.of();
    List<String> unlisted = List.of();
    boolean ignoring = false;
    ProfileLine choiceRule = null;
    List<String> known = null;
    boolean knownIgnoring = false;
    ProfileLine warning = null;
    List<String> eachOf = null;
    ProfileLine eachOfRefusal = null;
    List<String> streamOnly = null;
    ProfileLine streamOnlyRefusal = null;
    for (ProfileLine n : node.children()) {
      switch (n.key()) {
        case "number", "positive-number" ->
            option =
                option.withRule(
                    new ValueRule.NumberRule(n.key().equals("positive-number"), n.value()));
        case "tokens" -> option = option.withRule(tokenCount(n));
        case "known" -> known = words(n);
        case "known-ignore" -> {
          if (!n.value().equals("case-and-blanks")) {
            throw n.problem("\"known-ignore\" takes case-and-blanks");
          }
          knownIgnoring = true;
        }
        case "unknown-warning" -> warning = n;
        case "each-of" -> eachOf = words(n);
        case "each-of-refusal" -> eachOfRefusal = n;
        case "stream-json-only" -> streamOnly = words(n);
        case "stream-json-refusal" -> streamOnlyRefusal = n;
        case "choices" -> choices = words(n);
        case "unlisted-choices" -> {
          unlisted = words(n);
          choiceRule = n;
        }
        case "choices-ignore" -> {
          if (!n.value().equals("case-and-blanks")) {
            throw n.problem("\"choices-ignore\" takes case-and-blanks");
          }
          ignoring = true;
          choiceRule = n;
        }
        default -> {
          if (!others.contains(n.key())) {
            throw n.problem(
                "unknown key \""
                    + n.key()
                    + "\"; an option has "
                    + (others.isEmpty() ? "" : String.join(", ", others) + ", ")
                    + "choices, unlisted-choices, choices-ignore, number, positive-number, tokens,"
                    + " known, known-ignore, unknown-warning, each-of, each-of-refusal,"
                    + " stream-json-only, stream-json-refusal");
          }
        }
      }
    }
    if ((known == null) != (warning == null)) {
      throw node.problem("\"known\" and \"unknown-warning\" go together; give both or neither");
    }
    if (known != null) {
      option = option.withWarning(new CliOption.Warning(known, knownIgnoring, warning.value()));
    }
    if ((eachOf == null) != (eachOfRefusal == null)) {
      throw node.problem("\"each-of\" and \"each-of-refusal\" go together; give both or neither");
    }
    if (eachOf != null) {
      option = option.withOwnCheck(new CliOption.EachOf(eachOf, eachOfRefusal.value()));
    }
    if ((streamOnly == null) != (streamOnlyRefusal == null)) {
      throw node.problem(
          "\"stream-json-only\" and \"stream-json-refusal\" go together; give both or neither");
    }
    if (streamOnly != null) {
      option =
          option.withOwnCheck(new CliOption.StreamJsonOnly(streamOnly, streamOnlyRefusal.value()));
    }
    if (choiceRule != null && choices.isEmpty()) {
      throw choiceRule.problem(
          "\"" + choiceRule.key() + "\" with no \"choices\"; give the option its choices");
    }
    return choices.isEmpty()
        ? option
        : option.withChoices(choices, new CliOption.Unlisted(unlisted, ignoring));
  }

  /**
   * {@code tokens <word> <minimum> <message>}: a count of tokens ({@link ValueRule.TokenCount}).
   */
  private static ValueRule.TokenCount tokenCount(ProfileLine n) {
    String[] parts = n.value().split(" ", 3);
    if (parts.length < 3) {
      throw n.problem("\"tokens\" is \"tokens <word> <minimum> <message>\"");
    }
    try {
      return new ValueRule.TokenCount(parts[0], Long.parseLong(parts[1]), parts[2]);
    } catch (NumberFormatException e) {
      throw n.problem("\"tokens\": the minimum must be a whole number");
    }
  }

  /** {@code argument <term> [description]}: {@code <name>}, {@code [name]}, {@code [name...]}. */
  private static Argument argument(ProfileLine node) {
    int space = node.value().indexOf(' ');
    String term = space < 0 ? node.value() : node.value().substring(0, space);
    String description = space < 0 ? "" : node.value().substring(space + 1);
    boolean required = term.startsWith("<") && term.endsWith(">");
    if (!required && !(term.startsWith("[") && term.endsWith("]"))) {
      throw node.problem("an argument is <name> or [name], with ... when variadic");
    }
    String name = term.substring(1, term.length() - 1);
    boolean variadic = name.endsWith("...");
    if (variadic) {
      name = name.substring(0, name.length() - 3);
    }
    return new Argument(name, required, variadic, description);
  }

  private static CliCommand leaf(String name, String description) {
    return new CliCommand(
        name, Optional.empty(), description, List.of(), List.of(), List.of(), true);
  }

  static ProfileLine required(String source, Map<String, ProfileLine> one, String key) {
    ProfileLine n = one.get(key);
    if (n == null) {
      throw new IllegalStateException(source + ": no \"" + key + "\" line");
    }
    return n;
  }

  static boolean bool(ProfileLine n) {
    if (n.value().equals("true")) {
      return true;
    }
    if (n.value().equals("false")) {
      return false;
    }
    throw n.problem("\"" + n.key() + "\" must be true or false");
  }

  static List<String> words(ProfileLine n) {
    List<String> words = new ArrayList<>();
    for (String w : n.value().split(" ")) {
      if (!w.isEmpty()) {
        words.add(w);
      }
    }
    return words;
  }
}
