package dev.agentdouble.recorder.internal.normalise;

/**
 * Claude Code's folder of a project's sessions and memory, {@code ~/.claude/projects/<folder>}
 * ({@code reference/claude-code.md} §8; {@code memory_paths.auto} of {@code system/init}, §4.1),
 * where the folder is the git repository's root when the cwd is inside one (a linked work tree's
 * main checkout), else the cwd, with every character but an ASCII letter or digit as {@code -}
 * (runs of the real 2.1.328, docs/claude-2.1.328-runs.md part j). Whatever folder a recording's
 * path names there becomes the canonical cwd's form ({@code -workspace}), so the path stops naming
 * the recording's folder; the fake puts the live one back (its {@code Substitution}).
 */
final class ProjectFolder {
  private static final String PROJECTS = "/.claude/projects/";

  private final String to;

  private ProjectFolder(String to) {
    this.to = to;
  }

  /** The rewrite of any project folder to {@code canonical}'s form. */
  static ProjectFolder of(String canonical) {
    return new ProjectFolder(mangle(canonical));
  }

  /**
   * A folder as Claude Code names its project: every character but a letter or digit as {@code -}.
   */
  static String mangle(String folder) {
    StringBuilder sb = new StringBuilder(folder.length());
    for (int i = 0; i < folder.length(); i++) {
      char c = folder.charAt(i);
      boolean kept = c < 128 && Character.isLetterOrDigit(c);
      sb.append(kept ? c : '-');
    }
    return sb.toString();
  }

  /**
   * The JSON string token {@code raw} (quotes included) with the folder after each {@code
   * /.claude/projects/} (up to the next {@code /} or the end of the string) replaced.
   */
  String applyRaw(String raw) {
    int at = raw.indexOf(PROJECTS);
    if (at < 0) {
      return raw;
    }
    StringBuilder sb = new StringBuilder(raw.length());
    int done = 0;
    for (; at >= 0; at = raw.indexOf(PROJECTS, done)) {
      int from = at + PROJECTS.length();
      int end = from;
      while (end < raw.length() && raw.charAt(end) != '/' && raw.charAt(end) != '"') {
        end++;
      }
      sb.append(raw, done, from);
      // a folder Claude Code named is letters, digits and -; anything else is not one of its
      sb.append(isFolder(raw, from, end) ? to : raw.substring(from, end));
      done = end;
    }
    return sb.append(raw, done, raw.length()).toString();
  }

  private static boolean isFolder(String raw, int from, int end) {
    if (from == end) {
      return false;
    }
    for (int i = from; i < end; i++) {
      char c = raw.charAt(i);
      if (c != '-' && !(c < 128 && Character.isLetterOrDigit(c))) {
        return false;
      }
    }
    return true;
  }
}
