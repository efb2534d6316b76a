package dev.agentdouble.fake.internal.cli;

import dev.agentdouble.tape.OutputFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command line the Cursor Agent CLI accepts, as {@link CliParser} understood it.
 *
 * @param programName the name the program was invoked as ({@code agent}, {@code cursor-agent});
 *     help and errors do not use it (they always say {@code agent}, as the real CLI does)
 * @param argv the arguments as given, without the program name
 * @param commandPath the commands named, outermost first: empty for a plain run, {@code [agent]}
 *     when the {@code agent} word was used, {@code [status]}, {@code [mcp, list]}; with {@link
 *     #help} it names the command whose help is asked for ({@code help status} gives {@code
 *     [status]})
 * @param subcommand the first command of {@code commandPath} by its canonical name ({@code whoami}
 *     gives {@code status}), except {@code agent}, which is the same as no subcommand
 * @param commandArgs the positional arguments of the last command of a subcommand path, e.g. the
 *     identifier of {@code mcp login <identifier>}; empty for a run (see {@code promptWords})
 * @param print {@code -p/--print}
 * @param outputFormat {@code --output-format}; empty when not given (the profile's default applies)
 * @param streamPartialOutput {@code --stream-partial-output}
 * @param model {@code --model}, the last one given
 * @param resume {@code --resume} with or without an id, or {@code --continue}
 * @param resumeId the id given to {@code --resume}; empty for {@code --resume} alone, {@code
 *     --resume=} and {@code --continue} (resume the latest session)
 * @param newSessionId the hidden {@code --new-session-id}
 * @param workspace {@code --workspace}
 * @param force {@code -f/--force} or {@code --yolo}
 * @param trust {@code --trust}
 * @param addDirs every {@code --add-dir}, in order
 * @param headers every {@code -H/--header}, in order
 * @param apiKey {@code --api-key}
 * @param promptWords the positional words of a run; {@link #prompt()} joins them
 * @param help whether help was asked for ({@code -h}, {@code --help} or the {@code help} command);
 *     print the help of {@code commandPath}
 * @param version whether {@code -v/--version} was given; parsing stopped there, as the CLI exits at
 *     once, so later arguments are not reflected
 * @param listModels {@code --list-models}
 * @param options every option given, by long name without dashes ({@code output-format}), in order
 *     of first use, to all values given in order; an option given without a value (a flag, or
 *     {@code --resume} alone) has the value {@code "true"}, as commander stores it. The hidden
 *     options are here too ({@code single-turn}, {@code allowed-tools}, {@code system-prompt},
 *     ...): see {@link #commaSeparated} for the tool lists
 */
public record CliArgs(
    String programName,
    List<String> argv,
    List<String> commandPath,
    Optional<String> subcommand,
    List<String> commandArgs,
    boolean print,
    Optional<OutputFormat> outputFormat,
    boolean streamPartialOutput,
    Optional<String> model,
    boolean resume,
    Optional<String> resumeId,
    Optional<String> newSessionId,
    Optional<String> workspace,
    boolean force,
    boolean trust,
    List<String> addDirs,
    List<String> headers,
    Optional<String> apiKey,
    List<String> promptWords,
    boolean help,
    boolean version,
    boolean listModels,
    Map<String, List<String>> options) {
  /** The hidden command that runs an ACP agent on stdio: {@code agent acp}. */
  public static final String ACP = "acp";

  public CliArgs {
    argv = List.copyOf(argv);
    commandPath = List.copyOf(commandPath);
    commandArgs = List.copyOf(commandArgs);
    addDirs = List.copyOf(addDirs);
    headers = List.copyOf(headers);
    promptWords = List.copyOf(promptWords);
    Map<String, List<String>> copy = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : options.entrySet()) {
      copy.put(e.getKey(), List.copyOf(e.getValue()));
    }
    options = Collections.unmodifiableMap(copy);
  }

  /** The prompt words joined with single spaces; empty when there are none. */
  public Optional<String> prompt() {
    return promptWords.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", promptWords));
  }

  /** The last value given to the option with this long name (no dashes), if it was given. */
  public Optional<String> option(String longName) {
    List<String> values = options.get(longName);
    return values == null ? Optional.empty() : Optional.of(values.get(values.size() - 1));
  }

  /**
   * Every value given to the option with this long name (no dashes), each split at commas, with
   * surrounding blanks and empty items dropped, in order: {@code --allowed-tools read,grep
   * --allowed-tools shell} gives {@code [read, grep, shell]}. Empty when the option was not given.
   */
  public List<String> commaSeparated(String longName) {
    List<String> items = new ArrayList<>();
    for (String value : options.getOrDefault(longName, List.of())) {
      for (String item : value.split(",")) {
        String trimmed = item.strip();
        if (!trimmed.isEmpty()) {
          items.add(trimmed);
        }
      }
    }
    return List.copyOf(items);
  }

  /** Whether the option with this long name (no dashes) was given. */
  public boolean has(String longName) {
    return options.containsKey(longName);
  }
}
