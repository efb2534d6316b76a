package dev.agentdouble.fake.internal.profile;

import java.util.List;

/**
 * One line of a profile resource ({@link ProfileResource}): its key, its value, and the lines
 * indented under it.
 *
 * @param source the resource's name, for messages
 * @param line the line's number in it
 */
record ProfileLine(String source, int line, String key, String value, List<ProfileLine> children) {
  String where() {
    return source + ":" + line;
  }

  IllegalStateException problem(String problem) {
    return new IllegalStateException(where() + ": " + problem);
  }
}
