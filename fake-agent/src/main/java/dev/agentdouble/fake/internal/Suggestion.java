package dev.agentdouble.fake.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Commander's "did you mean" hint ({@code lib/suggestSimilar.js}): candidates within an optimal
 * string alignment distance of 3 whose similarity exceeds 0.4, keeping only the closest.
 */
final class Suggestion {
  private static final int MAX_DISTANCE = 3;
  private static final double MIN_SIMILARITY = 0.4;

  private Suggestion() {}

  /**
   * The hint for {@code word}, starting with a newline, e.g. {@code \n(Did you mean --force?)}, or
   * the empty string when no candidate is close. For a {@code --long} word the dashes are ignored
   * on both sides.
   */
  static String similar(String word, List<String> candidates) {
    if (candidates.isEmpty()) {
      return "";
    }
    boolean options = word.startsWith("--");
    String target = options ? word.substring(2) : word;
    List<String> similar = new ArrayList<>();
    int bestDistance = MAX_DISTANCE;
    for (String candidate : new LinkedHashSet<>(candidates)) {
      String c = options ? candidate.substring(Math.min(2, candidate.length())) : candidate;
      if (c.length() <= 1) {
        continue; // no one-character guesses
      }
      int distance = editDistance(target, c);
      int length = Math.max(target.length(), c.length());
      double similarity = (double) (length - distance) / length;
      if (similarity > MIN_SIMILARITY) {
        if (distance < bestDistance) {
          bestDistance = distance;
          similar.clear();
          similar.add(c);
        } else if (distance == bestDistance) {
          similar.add(c);
        }
      }
    }
    // JavaScript's localeCompare; the same order as compareTo for lower-case names and dashes.
    Collections.sort(similar);
    if (options) {
      for (int i = 0; i < similar.size(); i++) {
        similar.set(i, "--" + similar.get(i));
      }
    }
    if (similar.size() > 1) {
      return "\n(Did you mean one of " + String.join(", ", similar) + "?)";
    }
    if (similar.size() == 1) {
      return "\n(Did you mean " + similar.get(0) + "?)";
    }
    return "";
  }

  /** Optimal string alignment distance (Damerau-Levenshtein, no substring edited twice). */
  static int editDistance(String a, String b) {
    if (Math.abs(a.length() - b.length()) > MAX_DISTANCE) {
      return Math.max(a.length(), b.length()); // quick exit: the worst case
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int j = 1; j <= b.length(); j++) {
      for (int i = 1; i <= a.length(); i++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
