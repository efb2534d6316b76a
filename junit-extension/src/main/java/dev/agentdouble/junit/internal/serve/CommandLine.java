package dev.agentdouble.junit.internal.serve;

import dev.agentdouble.recorder.command.UsageException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of a server command ({@code serve}, {@code model-api}): {@code -h} or {@code
 * --help}, and options that take a value, as {@code --name VALUE} or {@code --name=VALUE}; nothing
 * else.
 *
 * @param help whether help was asked for
 * @param values each option given, by its name (the last one given wins)
 */
record CommandLine(boolean help, Map<String, String> values) {
  CommandLine {
    values = Map.copyOf(values);
  }

  /**
   * {@code args} read with {@code options} the names of those taking a value; an argument that is
   * no option is told {@code stray}, after its quote (e.g. "the tape is given with --tape FILE").
   *
   * @throws UsageException for an unknown option, an option without its value, a stray argument
   */
  static CommandLine parse(List<String> args, Set<String> options, String stray) {
    boolean help = false;
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      String name = arg;
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        name = arg.substring(0, eq);
        value = arg.substring(eq + 1);
      }
      if ((name.equals("-h") || name.equals("--help")) && value == null) {
        help = true;
      } else if (options.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
            throw new UsageException(name + " needs a value");
          }
          value = args.get(++i);
        }
        values.put(name, value);
      } else {
        throw new UsageException(
            arg.startsWith("-")
                ? "unknown option '" + arg + "'"
                : "unexpected argument '" + arg + "'; " + stray);
      }
    }
    return new CommandLine(help, values);
  }

  /** The value of {@code option}, or null when it was not given. */
  String get(String option) {
    return values.get(option);
  }
}
