package dev.agentdouble.fake.internal.profile;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A profile resource that names a {@code base}: the lines of that built-in profile with this one's
 * laid over them, so that a CLI version states only what differs from the one before.
 *
 * <p>A line replaces the base's line of the same identity where that line stands, or is added after
 * the base's lines: a key at the top or in a command ({@code version}, {@code description}) is
 * itself, {@code message <key>} is its key, {@code option <flags>} and {@code hidden <flags>} are
 * their flags, {@code argument <term>} is its name. A {@code command <name>} edits the base's
 * command of that name by the same rules (a command the base lacks is added whole), and in a
 * command {@code drop-command <name>} and {@code drop-option <flags>} remove the base's. A base may
 * name a base of its own.
 *
 * <p>Only a profile with a base loads this class (the reader looks for the line first): the default
 * one reads its resource alone.
 */
final class ProfileOverlay {
  /** The key that names the base. */
  static final String BASE = "base";

  private static final String COMMAND = "command";
  private static final String OPTION = "option";
  private static final String DROP_COMMAND = "drop-command";
  private static final String DROP_OPTION = "drop-option";

  /** Where the bases come from: the lines of the profile of a name. */
  interface Bases {
    /** The top-level lines of the profile {@code name}; empty when there is none. */
    Optional<List<ProfileLine>> top(String name);

    /** The names a base may have, for a message. */
    default List<String> names() {
      return List.of();
    }
  }

  private ProfileOverlay() {}

  /**
   * The lines of the profile {@code name}, whose own lines are {@code top}: those of its base (and
   * of the base's base) with its own laid over them, without the {@code base} line.
   */
  static List<ProfileLine> resolve(String name, List<ProfileLine> top, Bases bases) {
    return resolve(name, top, bases, new ArrayList<>());
  }

  private static List<ProfileLine> resolve(
      String name, List<ProfileLine> top, Bases bases, List<String> chain) {
    ProfileLine base = null;
    List<ProfileLine> own = new ArrayList<>();
    for (ProfileLine n : top) {
      if (!n.key().equals(BASE)) {
        own.add(n);
      } else if (base != null) {
        throw n.problem("\"base\" given twice");
      } else {
        base = n;
      }
    }
    if (base == null) {
      return top;
    }
    chain.add(name);
    if (chain.contains(base.value())) {
      throw base.problem("a cycle of bases: " + String.join(" -> ", chain) + " -> " + base.value());
    }
    Optional<List<ProfileLine>> under = bases.top(base.value());
    if (under.isEmpty()) {
      throw base.problem(
          "unknown base \""
              + base.value()
              + "\"; a base is a built-in profile: "
              + String.join(", ", bases.names()));
    }
    return lay(resolve(base.value(), under.get(), bases, chain), own, "the base");
  }

  /** The lines {@code under} with {@code over} laid on them; {@code where} names them in errors. */
  private static List<ProfileLine> lay(
      List<ProfileLine> under, List<ProfileLine> over, String where) {
    List<ProfileLine> lines = new ArrayList<>(under);
    for (ProfileLine n : over) {
      if (n.key().equals(DROP_COMMAND) || n.key().equals(DROP_OPTION)) {
        String kind = n.key().equals(DROP_COMMAND) ? COMMAND : OPTION;
        int at = find(lines, kind + " " + n.value());
        if (at < 0) {
          throw n.problem(where + " has no " + kind + " \"" + n.value() + "\" to drop");
        }
        lines.remove(at);
        continue;
      }
      int at = find(lines, identity(n));
      if (at < 0) {
        lines.add(n.key().equals(COMMAND) ? edited(null, n) : n);
      } else {
        lines.set(at, n.key().equals(COMMAND) ? edited(lines.get(at), n) : n);
      }
    }
    return lines;
  }

  /** The command {@code over} laid on the base's {@code under} (null when the base has none). */
  private static ProfileLine edited(ProfileLine under, ProfileLine over) {
    List<ProfileLine> children =
        lay(
            under == null ? List.of() : under.children(),
            over.children(),
            "command \"" + over.value() + "\"" + (under == null ? "" : " of the base"));
    return new ProfileLine(over.source(), over.line(), over.key(), over.value(), children);
  }

  private static int find(List<ProfileLine> lines, String identity) {
    for (int i = 0; i < lines.size(); i++) {
      if (identity(lines.get(i)).equals(identity)) {
        return i;
      }
    }
    return -1;
  }

  /** What a line replaces: see the class's description. */
  private static String identity(ProfileLine n) {
    String value = n.value();
    switch (n.key()) {
      case "message" -> {
        int space = value.indexOf(' ');
        return "message " + (space < 0 ? value : value.substring(0, space));
      }
      case COMMAND -> {
        return COMMAND + " " + value;
      }
      case OPTION, "hidden" -> {
        return OPTION + " " + value;
      }
      case "argument" -> {
        int space = value.indexOf(' ');
        String term = space < 0 ? value : value.substring(0, space);
        String name = term.length() < 2 ? term : term.substring(1, term.length() - 1);
        return "argument " + (name.endsWith("...") ? name.substring(0, name.length() - 3) : name);
      }
      default -> {
        return n.key();
      }
    }
  }
}
