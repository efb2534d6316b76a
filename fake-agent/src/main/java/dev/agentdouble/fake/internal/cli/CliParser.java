package dev.agentdouble.fake.internal.cli;

import dev.agentdouble.commander.DidYouMean;
import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliOption;
import dev.agentdouble.fake.internal.profile.CliOption.Arity;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.fake.internal.profile.Profiles;
import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Parses a command line exactly as the Cursor Agent CLI's commander program does (commander 14,
 * {@code lib/command.js}): options are recognised anywhere before {@code --}, also after positional
 * words; a required value is always the next argument, even one starting with a dash; an optional
 * value ({@code --resume [chatId]}, {@code -w [name]}) is the next argument only if that does not
 * look like an option; {@code --opt=value}; short flags combined ({@code -pf}) and with a value
 * ({@code -Hname}); the first positional word selects a subcommand when it names one; errors worded
 * and ordered as commander's.
 */
public final class CliParser {
  /**
   * The name {@link CliArgs#programName()} has when the caller does not say how the program was
   * invoked. Help and errors never use the invoked name: they always say {@code agent}.
   */
  public static final String DEFAULT_PROGRAM = "agent";

  private final String program;
  private final Profile.Surface surface;
  private final CliCommand root;
  private final List<String> argv;
  private final Map<String, List<String>> values = new LinkedHashMap<>();
  private final StringBuilder warnings = new StringBuilder();
  private String resumeId;

  private CliParser(String program, Profile.Surface surface, List<String> argv) {
    this.program = program;
    this.surface = surface;
    this.root = surface.root();
    this.argv = List.copyOf(argv);
  }

  /** Parses {@code argv} (without the program name) for a program invoked as {@code agent}. */
  public static ParseResult parse(List<String> argv) {
    return parse(DEFAULT_PROGRAM, argv);
  }

  /**
   * Parses {@code argv} (without the program name) for a program invoked as {@code program}, with
   * the command tree of the default profile.
   */
  public static ParseResult parse(String program, List<String> argv) {
    return parse(program, argv, Profiles.byDefault().behaviour().surface());
  }

  /**
   * Parses {@code argv} (without the program name) for a program invoked as {@code program}, with
   * the command tree of {@code surface}.
   */
  public static ParseResult parse(String program, List<String> argv, Profile.Surface surface) {
    CliParser parser = new CliParser(program, surface, argv);
    try {
      List<CliCommand> chain = new ArrayList<>();
      chain.add(parser.root);
      return parser.parseCommand(chain, List.of(), parser.argv);
    } catch (Stop stop) {
      return stop.result instanceof ParseResult.UsageError usage
          ? new ParseResult.UsageError(parser.warnings + usage.stderr())
          : stop.result;
    }
  }

  /**
   * Commander's {@code _parseCommand}: options, then dispatch, help, unknown options, arguments.
   */
  private ParseResult parseCommand(
      List<CliCommand> chain, List<String> operandsIn, List<String> unknownIn) {
    CliCommand cmd = chain.get(chain.size() - 1);
    Split parsed = parseOptions(cmd, unknownIn);
    List<String> operands = new ArrayList<>(operandsIn);
    operands.addAll(parsed.operands);
    List<String> unknown = parsed.unknown;
    List<String> args = new ArrayList<>(operands);
    args.addAll(unknown);

    if (!operands.isEmpty()) {
      CliCommand sub = cmd.findSubcommand(operands.get(0));
      if (sub != null && sub.opaque()) {
        chain.add(sub); // named, not modelled: what follows is its own
        return done(chain, args.subList(1, args.size()), false, false);
      }
      if (sub != null) {
        chain.add(sub);
        return parseCommand(chain, operands.subList(1, operands.size()), unknown);
      }
      if (cmd.hasHelpCommand() && operands.get(0).equals("help")) {
        return helpCommand(chain, operands.size() > 1 ? operands.get(1) : null);
      }
    }
    if (!cmd.subcommands().isEmpty() && args.isEmpty() && !cmd.hasAction()) {
      throw helpError(chain); // a command group named without a command
    }
    for (String arg : unknown) {
      if (CliCommand.isHelpFlag(arg)) {
        if (chain.size() == 1 && !operands.isEmpty() && operands.get(0).equals(CliArgs.ACP)) {
          chain.add(surface.acp()); // the hidden command's own help
        }
        return done(chain, List.of(), true, false);
      }
    }
    if (cmd.hasAction()) {
      if (!unknown.isEmpty()) {
        throw unknownOption(chain, unknown.get(0));
      }
      checkArguments(chain, args);
      return done(chain, args, false, false);
    }
    // A command without an action, such as the group "mcp".
    if (!operands.isEmpty() && !cmd.subcommands().isEmpty()) {
      throw unknownCommand(cmd, operands.get(0));
    }
    if (!unknown.isEmpty()) {
      throw unknownOption(chain, unknown.get(0));
    }
    if (operands.isEmpty() && !cmd.subcommands().isEmpty()) {
      throw helpError(chain);
    }
    checkArguments(chain, args);
    return done(chain, args, false, false);
  }

  /** Commander's {@code _dispatchHelpCommand}: {@code help}, {@code help <command>}. */
  private ParseResult helpCommand(List<CliCommand> chain, String name) {
    if (name == null) {
      return done(chain, List.of(), true, false);
    }
    CliCommand sub = chain.get(chain.size() - 1).findSubcommand(name);
    if (sub == null) {
      throw helpError(chain);
    }
    chain.add(sub);
    return done(chain, List.of(), true, false);
  }

  private record Split(List<String> operands, List<String> unknown) {}

  /**
   * Commander's {@code parseOptions}: takes out the options {@code cmd} knows, and splits the rest
   * into operands and unknown arguments (the first unknown option and everything after it).
   */
  private Split parseOptions(CliCommand cmd, List<String> argList) {
    List<String> operands = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    List<String> dest = operands;
    // filled by hand: ArrayDeque(Collection) goes through a method reference, and bootstrapping
    // the first lambda costs milliseconds of start-up on every invocation
    Deque<String> args = new ArrayDeque<>(argList.size() + 4);
    for (String arg : argList) {
      args.addLast(arg);
    }
    CliOption variadic = null; // the variadic option the last words went to
    while (!args.isEmpty()) {
      String arg = args.poll();
      if (arg.equals("--")) {
        if (dest == unknown) {
          dest.add(arg);
        }
        dest.addAll(args);
        break;
      }
      if (variadic != null && !maybeOption(arg)) {
        set(variadic, arg);
        continue;
      }
      variadic = null;
      if (maybeOption(arg)) {
        CliOption option = cmd.findOption(arg);
        if (option != null) {
          variadic = option.variadic() && option.arity() != Arity.NONE ? option : null;
          if (option.arity() == Arity.REQUIRED) {
            String value = args.poll();
            if (value == null) {
              throw error("error: option '" + option.flags() + "' argument missing");
            }
            set(option, value);
          } else if (option.arity() == Arity.OPTIONAL) {
            String value = null;
            if (!args.isEmpty() && (!maybeOption(args.peek()) || negativeNumber(args.peek()))) {
              value = args.poll();
            }
            set(option, value);
          } else {
            set(option, null);
          }
          continue;
        }
      }
      if (arg.length() > 2 && arg.charAt(0) == '-' && arg.charAt(1) != '-') {
        CliOption option = cmd.findOption("-" + arg.charAt(1));
        if (option != null) {
          if (option.arity() != Arity.NONE) {
            set(option, arg.substring(2)); // -Hvalue, -wname
          } else {
            set(option, null);
            args.push("-" + arg.substring(2)); // -pf: the rest is more flags
          }
          continue;
        }
      }
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 2) {
        CliOption option = cmd.findOption(arg.substring(0, eq));
        if (option != null && option.arity() != Arity.NONE) {
          set(option, arg.substring(eq + 1));
          continue;
        }
      }
      if (dest == operands
          && maybeOption(arg)
          && !(cmd.subcommands().isEmpty() && negativeNumber(arg))) {
        dest = unknown;
      }
      dest.add(arg);
    }
    return new Split(operands, unknown);
  }

  /** Stores an option's value; a choice is checked, and {@code --version} ends the parse. */
  private void set(CliOption option, String value) {
    if (value != null && !option.allows(value)) {
      throw error(
          "error: option '"
              + option.flags()
              + "' argument '"
              + value
              + "' is invalid. Allowed choices are "
              + String.join(", ", option.choices())
              + ".");
    }
    if (value != null && option.rule().isPresent() && !option.rule().get().accepts(value)) {
      throw error(
          "error: option '"
              + option.flags()
              + "' argument '"
              + value
              + "' is invalid. "
              + option.rule().get().message());
    }
    if (value != null && option.warning().isPresent()) {
      Optional<String> said = option.warning().get().of(value); // no lambda: start-up
      if (said.isPresent()) {
        warnings.append(said.get());
      }
    }
    List<String> given = values.get(option.name());
    if (given == null) {
      given = new ArrayList<>();
      values.put(option.name(), given);
    }
    given.add(value == null ? "true" : value);
    if (option.name().equals("resume")) {
      resumeId = value;
    }
    if (option.name().equals("version")) {
      List<CliCommand> chain = new ArrayList<>();
      chain.add(root);
      throw new Stop(done(chain, List.of(), false, true));
    }
  }

  /** Commander's {@code _checkNumberOfArguments}. */
  private void checkArguments(List<CliCommand> chain, List<String> args) {
    CliCommand cmd = chain.get(chain.size() - 1);
    List<CliCommand.Argument> declared = cmd.arguments();
    for (int i = 0; i < declared.size(); i++) {
      if (declared.get(i).required() && i >= args.size()) {
        throw error("error: missing required argument '" + declared.get(i).name() + "'");
      }
    }
    if (!declared.isEmpty() && declared.get(declared.size() - 1).variadic()) {
      return;
    }
    if (args.size() > declared.size()) {
      int expected = declared.size();
      String forSubcommand = chain.size() > 1 ? " for '" + cmd.name() + "'" : "";
      throw error(
          "error: too many arguments"
              + forSubcommand
              + ". Expected "
              + expected
              + " argument"
              + (expected == 1 ? "" : "s")
              + " but got "
              + args.size()
              + ".");
    }
  }

  private Stop unknownOption(List<CliCommand> chain, String flag) {
    String suggestion = "";
    if (flag.startsWith("--")) {
      List<String> candidates = new ArrayList<>();
      for (int i = chain.size() - 1; i >= 0; i--) {
        for (CliOption o : HelpText.visibleOptions(chain.get(i))) {
          candidates.add(o.longFlag());
        }
      }
      suggestion = DidYouMean.similar(flag, candidates);
    }
    return error("error: unknown option '" + flag + "'" + suggestion);
  }

  private static Stop unknownCommand(CliCommand cmd, String name) {
    List<String> candidates = new ArrayList<>();
    for (CliCommand c : HelpText.visibleCommands(cmd)) {
      candidates.add(c.name());
      if (c.alias().isPresent()) {
        candidates.add(c.alias().get());
      }
    }
    return error("error: unknown command '" + name + "'" + DidYouMean.similar(name, candidates));
  }

  /** Commander's {@code help({ error: true })}: the command's help on stderr, exit 1. */
  private static Stop helpError(List<CliCommand> chain) {
    return new Stop(new ParseResult.UsageError(HelpText.render(chain)));
  }

  private static Stop error(String message) {
    return new Stop(new ParseResult.UsageError(message + "\n"));
  }

  private ParseResult done(
      List<CliCommand> chain, List<String> args, boolean help, boolean version) {
    List<String> path = new ArrayList<>();
    for (CliCommand c : chain.subList(1, chain.size())) {
      path.add(c.name());
    }
    Optional<String> subcommand =
        path.isEmpty() || path.get(0).equals("agent") ? Optional.empty() : Optional.of(path.get(0));
    boolean run = subcommand.isEmpty() && !help && !version;
    return new ParseResult.Parsed(
        new CliArgs(
            program,
            argv,
            path,
            subcommand,
            run || help || version ? List.of() : args,
            flag("print"),
            outputFormat(),
            flag("stream-partial-output"),
            last("model"),
            values.containsKey("resume") || values.containsKey("continue"),
            resumeId == null || resumeId.isEmpty() ? Optional.empty() : Optional.of(resumeId),
            last("new-session-id"),
            last("workspace"),
            flag("force") || flag("yolo"),
            flag("trust"),
            all("add-dir"),
            all("header"),
            last("api-key"),
            run ? args : List.of(),
            help,
            version,
            flag("list-models"),
            values),
        warnings.toString());
  }

  private Optional<OutputFormat> outputFormat() {
    Optional<String> name = last("output-format");
    return name.isEmpty() ? Optional.empty() : OutputFormat.fromCliName(name.get());
  }

  private boolean flag(String name) {
    return values.containsKey(name);
  }

  private Optional<String> last(String name) {
    List<String> v = values.get(name);
    return v == null ? Optional.empty() : Optional.of(v.get(v.size() - 1));
  }

  private List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  /** Commander's {@code maybeOption}: at least two characters, the first a dash. */
  private static boolean maybeOption(String arg) {
    return arg.length() > 1 && arg.charAt(0) == '-';
  }

  /** Whether {@code arg} matches {@code /^-\d*\.?\d+(e[+-]?\d+)?$/} (no regex at start-up). */
  static boolean negativeNumber(String arg) {
    int n = arg.length();
    int i = 1;
    if (n < 2 || arg.charAt(0) != '-') {
      return false;
    }
    int intDigits = digits(arg, i);
    i += intDigits;
    if (i < n && arg.charAt(i) == '.') {
      i++;
      int frac = digits(arg, i);
      if (frac == 0) {
        return false;
      }
      i += frac;
    } else if (intDigits == 0) {
      return false;
    }
    if (i < n && arg.charAt(i) == 'e') {
      i++;
      if (i < n && (arg.charAt(i) == '+' || arg.charAt(i) == '-')) {
        i++;
      }
      int exp = digits(arg, i);
      if (exp == 0) {
        return false;
      }
      i += exp;
    }
    return i == n;
  }

  private static int digits(String s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    return i - from;
  }

  /** Ends the parse with a result, as commander ends the process on an error or --version. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient ParseResult result;

    Stop(ParseResult result) {
      super(null, null, false, false);
      this.result = result;
    }
  }
}
