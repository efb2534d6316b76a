package dev.agentdouble.fake.internal.profile;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * One option of a command, as commander declares it.
 *
 * @param flags the declaration as commander prints it in errors, e.g. {@code -H, --header <header>}
 * @param shortFlag e.g. {@code -H}, or empty when the option has no short form
 * @param longFlag e.g. {@code --header}
 * @param arity whether the option takes a value
 * @param choices the allowed values, as help and the refusal list them; empty when any value is
 *     allowed
 * @param hidden whether help and suggestions leave the option out
 * @param help the description shown by help, commander's {@code (default: ...)} suffix included
 * @param rule what a value must be, checked as it is parsed (commander's argument parser): a
 *     number, a count of tokens; empty for any value
 * @param unlisted how the program reads a value of {@code choices} beyond the list it shows
 * @param warning what the program says, as it parses, of a value it does not know but takes
 * @param ownCheck what the program checks of the value itself, outside commander's parse
 */
public record CliOption(
    String flags,
    String shortFlag,
    String longFlag,
    Arity arity,
    List<String> choices,
    boolean hidden,
    String help,
    Optional<ValueRule> rule,
    Unlisted unlisted,
    Optional<Warning> warning,
    Optional<OwnCheck> ownCheck) {

  /**
   * What an option with choices accepts beyond the list its help and its refusal show, as the
   * program's own argument parser decides it (which replaces commander's check of the list).
   *
   * @param values accepted too, never listed (Claude Code's {@code --permission-mode default})
   * @param ignoringCaseAndBlanks whether a value is compared as JavaScript's {@code
   *     value.toLowerCase().trim()} reads it (Claude Code's {@code --prompt-suggestions TRUE})
   */
  public record Unlisted(List<String> values, boolean ignoringCaseAndBlanks) {
    /** Nothing beyond the list: the value must be one of the choices as given. */
    public static final Unlisted NONE = new Unlisted(List.of(), false);

    public Unlisted {
      values = List.copyOf(values);
    }
  }

  /**
   * What the program says on stderr, as it parses the option, of a value it takes without knowing
   * it ({@code text} with {@code {value}} for the value); a value among {@code known}, compared as
   * JavaScript's {@code value.toLowerCase().trim()} when {@code ignoringCaseAndBlanks}, passes
   * silently.
   */
  public record Warning(List<String> known, boolean ignoringCaseAndBlanks, String text) {
    public Warning {
      known = List.copyOf(known);
    }

    /** What is said of {@code value}; empty when the program knows it. */
    public Optional<String> of(String value) {
      String read = ignoringCaseAndBlanks ? lowerTrimmed(value) : value;
      return known.contains(read) ? Optional.empty() : Optional.of(text.replace("{value}", value));
    }
  }

  /**
   * What the program checks of an option's value itself, outside commander's parse; the refusal's
   * text ends the run (stdout empty, exit 1). Where among the other checks it stands is the CLI's
   * own order: {@link EachOf} before the parse, {@link StreamJsonOnly} after it.
   */
  public sealed interface OwnCheck permits EachOf, StreamJsonOnly {}

  /**
   * A comma-separated list whose items, trimmed, are each one of {@code values} (an empty value is
   * an empty list); the first that is not is refused with {@code refusal}, {@code {value}} standing
   * for it.
   */
  public record EachOf(List<String> values, String refusal) implements OwnCheck {
    public EachOf {
      values = List.copyOf(values);
    }

    /** The first item of {@code value} that is none of the values; empty when all are. */
    public Optional<String> unknown(String value) {
      if (value.isEmpty()) {
        return Optional.empty();
      }
      for (String item : value.split(",", -1)) {
        String read = ValueRule.jsTrim(item);
        if (!values.contains(read)) {
          return Optional.of(read);
        }
      }
      return Optional.empty();
    }
  }

  /**
   * A value among {@code values} (compared as the option compares its choices) that the program
   * takes only with stream-json output in print mode; elsewhere it is refused with {@code refusal}.
   */
  public record StreamJsonOnly(List<String> values, String refusal) implements OwnCheck {
    public StreamJsonOnly {
      values = List.copyOf(values);
    }
  }

  /** Whether {@code value} is one of {@code among}, compared as this option compares choices. */
  public boolean among(String value, List<String> among) {
    return among.contains(unlisted.ignoringCaseAndBlanks() ? lowerTrimmed(value) : value);
  }

  /**
   * Whether an option takes a value: never, always ({@code <value>}) or maybe ({@code [value]}).
   */
  public enum Arity {
    NONE,
    REQUIRED,
    OPTIONAL
  }

  public CliOption {
    choices = List.copyOf(choices);
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(unlisted, "unlisted");
    Objects.requireNonNull(warning, "warning");
    Objects.requireNonNull(ownCheck, "ownCheck");
  }

  /** An option whose value may be anything but one of {@code choices} when there are any. */
  public CliOption(
      String flags,
      String shortFlag,
      String longFlag,
      Arity arity,
      List<String> choices,
      boolean hidden,
      String help) {
    this(
        flags,
        shortFlag,
        longFlag,
        arity,
        choices,
        hidden,
        help,
        Optional.empty(),
        Unlisted.NONE,
        Optional.empty(),
        Optional.empty());
  }

  /** This option with its values held to {@code rule}. */
  public CliOption withRule(ValueRule rule) {
    return new CliOption(
        flags,
        shortFlag,
        longFlag,
        arity,
        choices,
        hidden,
        help,
        Optional.of(rule),
        unlisted,
        warning,
        ownCheck);
  }

  /** This option with {@code choices}, read as {@code unlisted} says. */
  public CliOption withChoices(List<String> choices, Unlisted unlisted) {
    return new CliOption(
        flags, shortFlag, longFlag, arity, choices, hidden, help, rule, unlisted, warning,
        ownCheck);
  }

  /** This option warning of a value as {@code warning} says. */
  public CliOption withWarning(Warning warning) {
    return new CliOption(
        flags,
        shortFlag,
        longFlag,
        arity,
        choices,
        hidden,
        help,
        rule,
        unlisted,
        Optional.of(warning),
        ownCheck);
  }

  /** This option with its value checked after the parse as {@code check} says. */
  public CliOption withOwnCheck(OwnCheck check) {
    return new CliOption(
        flags,
        shortFlag,
        longFlag,
        arity,
        choices,
        hidden,
        help,
        rule,
        unlisted,
        warning,
        Optional.of(check));
  }

  /** This option with {@code help} as its description, its value rules kept. */
  public CliOption withHelp(String help) {
    return new CliOption(
        flags, shortFlag, longFlag, arity, choices, hidden, help, rule, unlisted, warning,
        ownCheck);
  }

  /**
   * Whether {@code value} passes the choices: any value when there are none; else one of them or of
   * the unlisted values, compared as the program compares ({@link Unlisted}).
   */
  public boolean allows(String value) {
    if (choices.isEmpty()) {
      return true;
    }
    String read = unlisted.ignoringCaseAndBlanks() ? lowerTrimmed(value) : value;
    return choices.contains(read) || unlisted.values().contains(read);
  }

  /** JavaScript's {@code value.toLowerCase().trim()}. */
  static String lowerTrimmed(String value) {
    return ValueRule.jsTrim(value.toLowerCase(Locale.ROOT));
  }

  /**
   * Whether the option takes every following word that is not an option ({@code <tools...>}), as
   * commander's variadic option does after its flag (not after {@code --opt=value}).
   */
  public boolean variadic() {
    return flags.endsWith("...>") || flags.endsWith("...]");
  }

  /** A visible option; arity and names are read from {@code flags}. */
  public static CliOption of(String flags, String help) {
    return parse(flags, List.of(), false, help);
  }

  /** A visible option whose value must be one of {@code choices}. */
  public static CliOption choice(String flags, List<String> choices, String help) {
    return parse(flags, choices, false, help);
  }

  /** An option that works but is left out of help and suggestions. */
  public static CliOption hidden(String flags) {
    return parse(flags, List.of(), true, "");
  }

  /** The long name without dashes, e.g. {@code output-format}: the key of parsed values. */
  public String name() {
    return longFlag.substring(2);
  }

  /** Whether {@code arg} names this option exactly, as commander's {@code Option.is}. */
  boolean is(String arg) {
    return arg.equals(longFlag) || (!shortFlag.isEmpty() && arg.equals(shortFlag));
  }

  private static CliOption parse(String flags, List<String> choices, boolean hidden, String help) {
    String shortFlag = "";
    String longFlag = "";
    Arity arity = Arity.NONE;
    for (String token : flags.replace(',', ' ').split(" ")) {
      if (token.startsWith("--") && !longFlag.isEmpty() && shortFlag.isEmpty()) {
        // two long flags, "--allowedTools, --allowed-tools": commander takes the first as the short
        shortFlag = longFlag;
        longFlag = token;
      } else if (token.startsWith("--")) {
        longFlag = token;
      } else if (token.startsWith("-")) {
        shortFlag = token;
      } else if (token.startsWith("<")) {
        arity = Arity.REQUIRED;
      } else if (token.startsWith("[")) {
        arity = Arity.OPTIONAL;
      }
    }
    if (longFlag.isEmpty()) {
      throw new IllegalArgumentException("option needs a long flag: " + flags);
    }
    return new CliOption(flags, shortFlag, longFlag, arity, choices, hidden, help);
  }
}
