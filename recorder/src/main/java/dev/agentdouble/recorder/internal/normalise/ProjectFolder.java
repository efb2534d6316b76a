package dev.agentdouble.recorder.internal.normalise;

import dev.agentdouble.json.JsonText;
import java.util.Optional;

/**
 * Claude Code's folder of a project's sessions and memory, {@code ~/.claude/projects/<cwd with /
 * and . as ->} ({@code reference/claude-code.md} §8; {@code memory_paths.auto} of {@code
 * system/init}, §4.1): the recorded cwd's form in such a path becomes the canonical cwd's ({@code
 * -workspace}). The fake does not put the live folder back there; the path just stops naming the
 * recording's folder.
 */
final class ProjectFolder {
  private static final String PROJECTS = "/.claude/projects/";

  private final String from;
  private final String to;

  private ProjectFolder(String from, String to) {
    this.from = from;
    this.to = to;
  }

  /** The rewrite of {@code cwd}'s form to {@code canonical}'s; empty when they are the same. */
  static Optional<ProjectFolder> of(String cwd, String canonical) {
    String from = inner(PROJECTS + mangle(cwd));
    String to = inner(PROJECTS + mangle(canonical));
    return from.equals(to) ? Optional.empty() : Optional.of(new ProjectFolder(from, to));
  }

  /** A folder as Claude Code names its project: {@code /} and {@code .} as {@code -}. */
  static String mangle(String folder) {
    return folder.replace('/', '-').replace('.', '-');
  }

  /**
   * The JSON string token {@code raw} (quotes included) with the recorded form replaced where it
   * ends a path's part (followed by {@code /} or the end of the string).
   */
  String applyRaw(String raw) {
    int at = raw.indexOf(from);
    if (at < 0) {
      return raw;
    }
    StringBuilder sb = new StringBuilder(raw.length());
    int done = 0;
    for (; at >= 0; at = raw.indexOf(from, at + from.length())) {
      int end = at + from.length();
      char next = end < raw.length() ? raw.charAt(end) : '"';
      if (next == '/' || next == '"') {
        sb.append(raw, done, at).append(to);
        done = end;
      }
    }
    return sb.append(raw, done, raw.length()).toString();
  }

  private static String inner(String text) {
    String quoted = JsonText.quote(text);
    return quoted.substring(1, quoted.length() - 1);
  }
}
