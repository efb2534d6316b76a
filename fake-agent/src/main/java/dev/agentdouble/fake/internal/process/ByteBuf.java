package dev.agentdouble.fake.internal.process;

import java.util.Arrays;

/** A growable byte array, reused from frame to frame so each frame is written with one call. */
public final class ByteBuf {
  public byte[] data = new byte[1 << 16];
  public int size;

  public void clear() {
    size = 0;
  }

  public void ensure(int more) {
    if (size + more > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, size + more));
    }
  }

  public void append(byte[] src, int off, int len) {
    ensure(len);
    System.arraycopy(src, off, data, size, len);
    size += len;
  }

  public void append(byte[] src) {
    append(src, 0, src.length);
  }

  public void append(byte b) {
    ensure(1);
    data[size++] = b;
  }
}
