package dev.agentdouble.fake.internal;

import java.util.Arrays;

/** A growable byte array, reused from frame to frame so each frame is written with one call. */
final class ByteBuf {
  byte[] data = new byte[1 << 16];
  int size;

  void clear() {
    size = 0;
  }

  void ensure(int more) {
    if (size + more > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, size + more));
    }
  }

  void append(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, data, size, len);
    size += len;
  }

  void append(byte[] src) {
    append(src, 0, src.length);
  }

  void append(byte b) {
    ensure(1);
    data[size++] = b;
  }
}
