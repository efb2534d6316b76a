package dev.agentdouble.fake.internal.profile;

import java.util.List;

/**
 * One option of a command, as commander declares it.
 *
 * @param flags the declaration as commander prints it in errors, e.g. {@code -H, --header <header>}
 * @param shortFlag e.g. {@code -H}, or empty when the option has no short form
 * @param longFlag e.g. {@code --header}
 * @param arity whether the option takes a value
 * @param choices the allowed values; empty when any value is allowed
 * @param hidden whether help and suggestions leave the option out
 * @param help the description shown by help, commander's {@code (default: ...)} suffix included
 */
public record CliOption(
    String flags,
    String shortFlag,
    String longFlag,
    Arity arity,
    List<String> choices,
    boolean hidden,
    String help) {

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
      if (token.startsWith("--")) {
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
