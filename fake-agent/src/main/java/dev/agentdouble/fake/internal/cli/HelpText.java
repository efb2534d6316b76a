package dev.agentdouble.fake.internal.cli;

import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Commander's built-in help ({@code Help.formatHelp}, commander 13/14) at its non-TTY width of 80
 * columns: usage, description, arguments, options, commands; descriptions word-wrapped in a column
 * after the longest term.
 */
public final class HelpText {
  static final int WIDTH = 80;
  private static final int MIN_WIDTH_TO_WRAP = 40;
  private static final int INDENT = 2;
  private static final int SPACER = 2;

  private HelpText() {}

  /**
   * The help of the last command of {@code chain} (the root first), ending with a newline. The
   * usage line names the root by its own name, {@code agent}, whatever name the program was invoked
   * as: the CLI sets its program name, so commander never reads it from argv.
   */
  public static String render(List<CliCommand> chain) {
    CliCommand cmd = chain.get(chain.size() - 1);
    List<String> argumentTerms = new ArrayList<>();
    List<String> argumentHelp = new ArrayList<>();
    boolean describedArgument = false;
    for (CliCommand.Argument a : cmd.arguments()) {
      describedArgument |= !a.description().isEmpty();
    }
    if (describedArgument) {
      for (CliCommand.Argument a : cmd.arguments()) {
        argumentTerms.add(a.name());
        argumentHelp.add(a.description());
      }
    }
    List<String> optionTerms = new ArrayList<>();
    List<String> optionHelp = new ArrayList<>();
    for (CliOption o : visibleOptions(cmd)) {
      optionTerms.add(o.flags());
      optionHelp.add(o.help());
    }
    List<String> commandTerms = new ArrayList<>();
    List<String> commandHelp = new ArrayList<>();
    for (CliCommand c : visibleCommands(cmd)) {
      commandTerms.add(subcommandTerm(c));
      commandHelp.add(c.description());
    }
    int termWidth = 0;
    for (List<String> terms : List.of(argumentTerms, optionTerms, commandTerms)) {
      for (String t : terms) {
        termWidth = Math.max(termWidth, t.length());
      }
    }

    StringBuilder out = new StringBuilder();
    out.append("Usage: ").append(usage(chain)).append("\n\n");
    if (!cmd.description().isEmpty()) {
      out.append(boxWrap(cmd.description(), WIDTH)).append("\n\n");
    }
    section(out, "Arguments:", argumentTerms, argumentHelp, termWidth);
    section(out, "Options:", optionTerms, optionHelp, termWidth);
    section(out, "Commands:", commandTerms, commandHelp, termWidth);
    out.setLength(out.length() - 1); // the sections end with a blank line; the help does not
    return out.toString();
  }

  /** The options help lists: the visible ones, then {@code -h, --help}. */
  static List<CliOption> visibleOptions(CliCommand cmd) {
    List<CliOption> visible = new ArrayList<>();
    for (CliOption o : cmd.options()) {
      if (!o.hidden()) {
        visible.add(o);
      }
    }
    visible.add(CommanderHelp.HELP_OPTION);
    return visible;
  }

  /** The commands help lists: the subcommands, then {@code help [command]} if there are any. */
  static List<CliCommand> visibleCommands(CliCommand cmd) {
    List<CliCommand> visible = new ArrayList<>(cmd.subcommands());
    if (cmd.hasHelpCommand()) {
      visible.add(CommanderHelp.HELP_COMMAND);
    }
    return visible;
  }

  /** E.g. {@code agent mcp login [options] <identifier>}. */
  static String usage(List<CliCommand> chain) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < chain.size(); i++) {
      CliCommand c = chain.get(i);
      sb.append(c.name());
      if (i == chain.size() - 1 && c.alias().isPresent()) {
        sb.append('|').append(c.alias().get());
      }
      sb.append(' ');
    }
    CliCommand cmd = chain.get(chain.size() - 1);
    sb.append("[options]"); // every command has the help option
    if (!cmd.subcommands().isEmpty()) {
      sb.append(" [command]");
    }
    for (CliCommand.Argument a : cmd.arguments()) {
      sb.append(' ').append(a.term());
    }
    return sb.toString();
  }

  private static String subcommandTerm(CliCommand c) {
    StringBuilder sb = new StringBuilder(c.name());
    if (c.alias().isPresent()) {
      sb.append('|').append(c.alias().get());
    }
    if (!c.options().isEmpty()) {
      sb.append(" [options]");
    }
    for (CliCommand.Argument a : c.arguments()) {
      sb.append(' ').append(a.term());
    }
    return sb.toString();
  }

  private static void section(
      StringBuilder out, String title, List<String> terms, List<String> help, int termWidth) {
    if (terms.isEmpty()) {
      return;
    }
    out.append(title).append('\n');
    for (int i = 0; i < terms.size(); i++) {
      out.append(formatItem(terms.get(i), termWidth, help.get(i))).append('\n');
    }
    out.append('\n');
  }

  /** One indented item: the term padded to {@code termWidth}, then its wrapped description. */
  static String formatItem(String term, int termWidth, String description) {
    String indent = " ".repeat(INDENT);
    if (description.isEmpty()) {
      return indent + term;
    }
    int remaining = WIDTH - termWidth - SPACER - INDENT;
    String formatted = description;
    if (remaining >= MIN_WIDTH_TO_WRAP) {
      formatted =
          boxWrap(description, remaining).replace("\n", "\n" + " ".repeat(termWidth + SPACER));
    }
    return indent
        + term
        + " ".repeat(termWidth - term.length() + SPACER)
        + formatted.replace("\n", "\n" + indent);
  }

  /**
   * Commander's {@code boxWrap}: each chunk is leading whitespace plus a word; chunks are added to
   * a line while they fit, and a chunk that does not fit starts the next line without its leading
   * whitespace. A word longer than the width gets a line of its own.
   */
  static String boxWrap(String text, int width) {
    if (width < MIN_WIDTH_TO_WRAP) {
      return text;
    }
    List<String> lines = new ArrayList<>();
    for (String raw : text.split("\n", -1)) {
      List<String> chunks = chunks(raw);
      if (chunks.isEmpty()) {
        lines.add("");
        continue;
      }
      StringBuilder line = new StringBuilder(chunks.get(0));
      for (int i = 1; i < chunks.size(); i++) {
        String chunk = chunks.get(i);
        if (line.length() + chunk.length() <= width) {
          line.append(chunk);
        } else {
          lines.add(line.toString());
          line = new StringBuilder(chunk.stripLeading());
        }
      }
      lines.add(line.toString());
    }
    return String.join("\n", lines);
  }

  /** The matches of {@code /\s*\S+/g}: whitespace then a word; trailing whitespace is dropped. */
  private static List<String> chunks(String line) {
    List<String> chunks = new ArrayList<>();
    int start = 0;
    int i = 0;
    int n = line.length();
    while (i < n) {
      while (i < n && Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      if (i == n) {
        break;
      }
      while (i < n && !Character.isWhitespace(line.charAt(i))) {
        i++;
      }
      chunks.add(line.substring(start, i));
      start = i;
    }
    return chunks;
  }
}
