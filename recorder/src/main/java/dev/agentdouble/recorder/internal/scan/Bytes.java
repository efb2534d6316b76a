package dev.agentdouble.recorder.internal.scan;

import java.nio.charset.StandardCharsets;

/**
 * Byte search at the speed of {@link String#indexOf}: bytes read as ISO-8859-1 are a string of one
 * char per byte, which the JVM searches with vector instructions.
 */
public final class Bytes {
  private Bytes() {}

  /** {@code bytes} as a string of one char per byte, to search with {@link String#indexOf}. */
  public static String latin1(byte[] bytes) {
    return new String(bytes, StandardCharsets.ISO_8859_1);
  }

  /** {@code text}'s UTF-8 bytes as a string of one char per byte: a needle for {@link #latin1}. */
  public static String latin1(String text) {
    return latin1(text.getBytes(StandardCharsets.UTF_8));
  }

  /** Whether {@code bytes[start, end)} starts with {@code prefix}. */
  public static boolean startsWith(byte[] bytes, int start, int end, byte[] prefix) {
    if (end - start < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (bytes[start + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }
}
