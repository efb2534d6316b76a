package dev.agentdouble.recorder.internal.cli;

import dev.agentdouble.commander.DidYouMean;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.recorder.command.UsageException;
import dev.agentdouble.recorder.internal.secrets.ArgvSecrets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A subcommand's arguments: options that take a value, flags, and positional words. Unknown options
 * are usage errors; {@code --} ends options (the words after it are positional too, and {@link
 * #afterDashes} tells them apart). An option's value is the next word, or what follows {@code =};
 * the next word is not taken when it is one of the command's options, so a forgotten value is
 * reported as such ({@code --exit --out t}: "--exit needs a value").
 */
public record Args(
    Map<String, List<String>> values,
    List<String> flags,
    List<String> positional,
    boolean help,
    int dashes) {

  public static Args parse(List<String> args, List<String> valued, List<String> flagNames) {
    Map<String, List<String>> values = new LinkedHashMap<>();
    List<String> flags = new ArrayList<>();
    List<String> positional = new ArrayList<>();
    boolean help = false;
    boolean options = true;
    int dashes = -1;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (options && arg.equals("--")) {
        options = false;
        dashes = positional.size();
      } else if (options && (arg.equals("-h") || arg.equals("--help"))) {
        help = true;
      } else if (options && arg.startsWith("-") && arg.length() > 1) {
        String name = arg;
        String inline = null;
        int eq = arg.indexOf('=');
        if (arg.startsWith("--") && eq > 0) {
          name = arg.substring(0, eq);
          inline = arg.substring(eq + 1);
        }
        if (valued.contains(name)) {
          String value = inline;
          if (value == null) {
            if (i + 1 >= args.size() || isOption(args.get(i + 1), valued, flagNames)) {
              throw new UsageException(name + " needs a value");
            }
            value = args.get(++i);
          }
          values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        } else if (flagNames.contains(name) && inline == null) {
          flags.add(name);
        } else {
          // a secret option meant for the command (its -- forgotten) is not echoed with its value
          String shown =
              ArgvSecrets.find(List.of(arg)).stream()
                  .findFirst()
                  .map(ArgvSecrets.Found::redactedElement)
                  .orElse(arg);
          List<String> known = new ArrayList<>(valued);
          known.addAll(flagNames);
          String hint =
              flagNames.contains(name) ? "; " + name + " takes no value" : didYouMean(name, known);
          throw new UsageException("unknown option '" + shown + "'" + hint);
        }
      } else {
        positional.add(arg);
      }
    }
    return new Args(values, flags, positional, help, dashes);
  }

  /** {@code ; did you mean X?} when one of {@code known} is close to {@code word}, else nothing. */
  public static String didYouMean(String word, List<String> known) {
    List<String> close = DidYouMean.closest(word, known);
    return close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close) + "?";
  }

  /** Whether {@code arg} names one of the options, so it cannot be another option's value. */
  private static boolean isOption(String arg, List<String> valued, List<String> flagNames) {
    int eq = arg.indexOf('=');
    String name = arg.startsWith("--") && eq > 0 ? arg.substring(0, eq) : arg;
    return valued.contains(name)
        || flagNames.contains(name)
        || name.equals("-h")
        || name.equals("--help");
  }

  /** The positional words before {@code --}: all of them when it was not given. */
  public List<String> beforeDashes() {
    return dashes < 0 ? positional : positional.subList(0, dashes);
  }

  /** The words after {@code --}, when it was given (perhaps none). */
  public Optional<List<String>> afterDashes() {
    return dashes < 0
        ? Optional.empty()
        : Optional.of(positional.subList(dashes, positional.size()));
  }

  public Optional<String> value(String name) {
    List<String> v = values.get(name);
    return v == null ? Optional.empty() : Optional.of(v.get(v.size() - 1));
  }

  public List<String> all(String name) {
    return values.getOrDefault(name, List.of());
  }

  public boolean flag(String name) {
    return flags.contains(name);
  }

  /**
   * {@code spec} when it is a timing policy the fake agent takes ({@code fast}, {@code recorded},
   * {@code scale:F}, {@code max-gap:MS}); a usage error naming {@code --timing} otherwise.
   */
  public static Timing timing(String spec) {
    if (Timing.problem(spec).isEmpty()) {
      return Timing.parse(spec);
    }
    throw new UsageException(Timing.optionProblem("--timing", spec));
  }
}
