package dev.agentdouble.fake.internal.run;

import dev.agentdouble.fake.internal.process.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * The replacements {@link Substitution} found in one line: each a span of the line and the bytes
 * that take its place, written out with the rest of the line around them.
 */
final class Splices {
  private final List<long[]> spans = new ArrayList<>();
  private final List<byte[]> replacements = new ArrayList<>();

  void clear() {
    spans.clear();
    replacements.clear();
  }

  boolean isEmpty() {
    return spans.isEmpty();
  }

  /** {@code length} bytes from {@code start} become {@code replacement}. */
  void add(int start, int length, byte[] replacement) {
    spans.add(new long[] {start, length});
    replacements.add(replacement);
  }

  /** Drops the replacements that start in {@code [from, to)}: a span replaced whole holds them. */
  void dropWithin(int from, int to) {
    for (int m = spans.size() - 1; m >= 0; m--) {
      long start = spans.get(m)[0];
      if (start >= from && start < to) {
        spans.remove(m);
        replacements.remove(m);
      }
    }
  }

  /** Puts the spans in the order of the line, for spans added out of it. */
  void sort() {
    // insertion sort: a line holds a handful of spans, and no comparator is loaded at start-up
    for (int i = 1; i < spans.size(); i++) {
      for (int j = i; j > 0 && spans.get(j - 1)[0] > spans.get(j)[0]; j--) {
        spans.set(j, spans.set(j - 1, spans.get(j)));
        replacements.set(j, replacements.set(j - 1, replacements.get(j)));
      }
    }
  }

  /** Appends {@code buf[off, end)} to {@code out}, each span (in order) replaced. */
  void writeTo(byte[] buf, int off, int end, ByteBuf out) {
    int pos = off;
    for (int m = 0; m < spans.size(); m++) {
      long[] span = spans.get(m);
      int start = (int) span[0];
      out.append(buf, pos, start - pos);
      out.append(replacements.get(m));
      pos = start + (int) span[1];
    }
    out.append(buf, pos, end - pos);
  }
}
