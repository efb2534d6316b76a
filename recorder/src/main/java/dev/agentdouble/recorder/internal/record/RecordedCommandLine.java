package dev.agentdouble.recorder.internal.record;

import dev.agentdouble.tape.OutputFormat;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What the recorder reads from the command line of the run it records (the program first): which
 * CLI it runs (by the program's file name: {@code claude} is Claude Code, anything else is taken
 * for the Cursor CLI), whether it is an ACP session, its output format, its workspace, and the
 * CLI's version.
 */
final class RecordedCommandLine {
  private RecordedCommandLine() {}

  /** Options of the CLI that take a value: what follows them is not its command. */
  private static final Set<String> VALUE_OPTIONS =
      Set.of(
          "--api-key",
          "--auth-token",
          "--model",
          "--workspace",
          "--output-format",
          "--resume",
          "--new-session-id",
          "-H",
          "--header",
          "--mode",
          "--sandbox");

  /** Claude Code's options that take a value ({@code claude --help} of 2.1.328). */
  private static final Set<String> CLAUDE_VALUE_OPTIONS =
      Set.of(
          "--add-dir",
          "--agent",
          "--agents",
          "--allowedTools",
          "--allowed-tools",
          "--append-system-prompt",
          "--autocompact",
          "--betas",
          "--debug-file",
          "--disallowedTools",
          "--disallowed-tools",
          "--effort",
          "--environment",
          "--fallback-model",
          "--file",
          "--input-format",
          "--json-schema",
          "--max-budget-usd",
          "--max-turns",
          "--mcp-config",
          "--model",
          "-n",
          "--name",
          "--output-format",
          "--permission-mode",
          "--permission-prompts",
          "--plugin-dir",
          "--plugin-url",
          "--remote-control-session-name-prefix",
          "--session-id",
          "--setting-sources",
          "--settings",
          "--system-prompt",
          "--system-prompt-snapshot",
          "--tools");

  /**
   * Claude Code's options whose value is optional: commander takes the next word for it unless it
   * starts with {@code -} (reference/claude-code.md §1, {@code -r, --resume [value]}).
   */
  private static final Set<String> CLAUDE_OPTIONAL_VALUE_OPTIONS =
      Set.of(
          "--cloud",
          "-d",
          "--debug",
          "--from-pr",
          "--prompt-suggestions",
          "--remote-control",
          "-r",
          "--resume",
          "--teleport",
          "-w",
          "--worktree");

  /**
   * Whether Claude Code takes {@code next} for the value of the option {@code arg} (not for its
   * prompt).
   */
  static boolean claudeValue(String arg, String next) {
    return CLAUDE_VALUE_OPTIONS.contains(arg)
        || (CLAUDE_OPTIONAL_VALUE_OPTIONS.contains(arg) && !next.startsWith("-"));
  }

  /** The program's file name, as the tape's header names the CLI ({@code claude}). */
  static String program(List<String> command) {
    return Path.of(command.get(0)).getFileName().toString();
  }

  /**
   * Whether {@code command} runs Claude Code ({@code claude}): its print mode writes text unless
   * told otherwise, it has no ACP agent and no {@code --workspace}, and its {@code --version} says
   * {@code 2.1.328 (Claude Code)} (reference/claude-code.md §1, {@code claude --help} of 2.1.328).
   */
  static boolean claude(List<String> command) {
    return program(command).equals("claude");
  }

  /**
   * Whether {@code command} runs an ACP agent: its first argument that is neither an option nor an
   * option's value is {@code acp} ({@code cursor-agent acp}, {@code agent --force acp}); never for
   * Claude Code, whose {@code claude -p acp} asks about ACP.
   */
  static boolean acp(List<String> command) {
    if (claude(command)) {
      return false;
    }
    for (int i = 1; i < command.size(); i++) {
      String arg = command.get(i);
      if (arg.equals("--")) {
        return false;
      }
      if (arg.startsWith("-")) {
        if (VALUE_OPTIONS.contains(arg)) {
          i++;
        }
        continue;
      }
      return arg.equals("acp");
    }
    return false;
  }

  /**
   * The output format the command line asks for: {@code --output-format} ({@code X} or {@code =X}),
   * else the CLI's default: text for Claude Code ({@code claude --help}: "text" (default)), else
   * stream-json.
   */
  static OutputFormat outputFormat(List<String> command) {
    OutputFormat otherwise = claude(command) ? OutputFormat.TEXT : OutputFormat.STREAM_JSON;
    for (int i = 1; i < command.size(); i++) {
      String arg = command.get(i);
      String value = null;
      if (arg.equals("--output-format") && i + 1 < command.size()) {
        value = command.get(i + 1);
      } else if (arg.startsWith("--output-format=")) {
        value = arg.substring("--output-format=".length());
      }
      if (value != null) {
        return OutputFormat.fromCliName(value).orElse(otherwise);
      }
    }
    return otherwise;
  }

  /**
   * {@code COMMAND --version}'s first line, for the Cursor CLI and Claude Code only (5 s at most);
   * of Claude Code's {@code 2.1.328 (Claude Code)}, its first word.
   */
  static String cliVersion(List<String> command) {
    String name = program(command);
    boolean claude = claude(command);
    if (!name.equals("cursor-agent") && !name.equals("agent") && !claude) {
      return null;
    }
    try {
      Process p =
          new ProcessBuilder(command.get(0), "--version")
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectErrorStream(true)
              .start();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      String first =
          new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
              .lines()
              .findFirst()
              .orElse("")
              .strip();
      if (claude && first.indexOf(' ') > 0) {
        first = first.substring(0, first.indexOf(' '));
      }
      return p.exitValue() == 0 && !first.isEmpty() ? first : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /**
   * The folder the command line names with {@code --workspace}, if it names one; Claude Code has no
   * such option (it works in its working folder).
   */
  static Optional<String> workspace(List<String> command) {
    if (claude(command)) {
      return Optional.empty();
    }
    for (int i = 1; i < command.size(); i++) {
      if (command.get(i).equals("--workspace") && i + 1 < command.size()) {
        return Optional.of(command.get(i + 1));
      }
      if (command.get(i).startsWith("--workspace=")) {
        return Optional.of(command.get(i).substring("--workspace=".length()));
      }
    }
    return Optional.empty();
  }
}
