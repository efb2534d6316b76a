package dev.agentdouble.recorder.internal.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * What the readers capture while the command runs: every read, tagged and timed, on disk. A read's
 * time is taken when it is kept, under the same lock, so the spool is in the order of time,
 * whichever reader thread the JVM happens to run first; and it is kept before it is passed on, so a
 * write that answers what the caller was shown can only come after it. A failure to keep a read (a
 * full disk, say) stops the capture, never the passthrough; it is told when the tape is to be
 * written.
 */
final class Capture implements AutoCloseable {
  /**
   * A read that waited less than this for its data is taken to continue the previous read's write
   * (a line longer than the pipe, or stdio's block buffering), not to start a write of its own.
   */
  static final long CONTINUATION_NANOS = 10_000_000;

  /** A read's tag in the capture spool: which stream, and whether it continues a write. */
  private static final int STDOUT = 1;

  private static final int CONTINUES = 2;

  /** A line the client wrote to an ACP agent's stdin. */
  private static final int CLIENT = 4;

  private final Spool spool;
  private IOException failure;
  private boolean stopped;

  /** {@link System#nanoTime} when the command was started: time 0 of the tape. */
  volatile long origin;

  Capture(Spool spool) {
    this.spool = spool;
  }

  synchronized void keep(boolean stdout, boolean continues, byte[] buf, int n) {
    keep((stdout ? STDOUT : 0) | (continues ? CONTINUES : 0), buf, n);
  }

  /** A whole line the client wrote to an ACP agent, without its newline. */
  synchronized void keepClient(byte[] line, int n) {
    keep(CLIENT, line, n);
  }

  private void keep(int tag, byte[] buf, int n) {
    if (failure != null || stopped) {
      return;
    }
    try {
      spool.append(tag, System.nanoTime() - origin, buf, 0, n);
    } catch (IOException e) {
      failure = e;
    }
  }

  /** Nothing more is kept: the readers that are left are not waited for. */
  synchronized void stop() {
    stopped = true;
  }

  /** Every read kept, in order, into {@code frames}. */
  void forEach(ChunkFrames frames) throws IOException {
    synchronized (this) {
      stopped = true;
      if (failure != null) {
        throw failure;
      }
    }
    spool.forEach(
        (tag, nanos, bytes) -> {
          if ((tag & CLIENT) != 0) {
            frames.client(nanos / 1_000_000, bytes);
          } else {
            frames.add((tag & STDOUT) != 0, nanos / 1_000_000, bytes, (tag & CONTINUES) != 0);
          }
        });
  }

  @Override
  public void close() {
    try {
      spool.close();
    } catch (IOException e) {
      // an unlinked file: closing it loses nothing
    }
  }

  /**
   * Reads {@code from} into the capture, passed on to {@code to} as it comes, on a thread of its
   * own.
   */
  Thread reader(FileChannel from, boolean stdout, PrintStream to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[65536];
              ByteBuffer buffer = ByteBuffer.wrap(buf);
              boolean passthrough = true;
              boolean full = false;
              try (from) {
                while (true) {
                  long asked = System.nanoTime();
                  buffer.clear();
                  int n = from.read(buffer);
                  if (n < 0) {
                    break;
                  }
                  long read = System.nanoTime();
                  // a full buffer means more was waiting; data at once means it was already on its
                  // way
                  boolean continues = full || read - asked < CONTINUATION_NANOS;
                  full = n == buf.length;
                  keep(stdout, continues, buf, n);
                  if (passthrough) {
                    to.write(buf, 0, n);
                    to.flush();
                    if (to.checkError()) {
                      passthrough = false; // our reader went away; the capture goes on
                    }
                  }
                }
              } catch (IOException e) {
                // the pipe was closed under us (the grace ended): nothing more to read
              }
            },
            stdout ? "record-stdout" : "record-stderr");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * The client's half of an ACP session: what it writes goes on to the agent at once, and each
   * whole line is kept, timed when it is passed on, so the agent's answer comes after it.
   */
  void clientPump(InputStream from, OutputStream to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[65536];
              ByteArrayOutputStream line = new ByteArrayOutputStream();
              try (to) {
                int n;
                while ((n = from.read(buf)) >= 0) {
                  int start = 0;
                  for (int i = 0; i < n; i++) {
                    if (buf[i] == '\n') {
                      line.write(buf, start, i - start);
                      keepClient(line.toByteArray(), line.size());
                      line.reset();
                      start = i + 1;
                    }
                  }
                  line.write(buf, start, n - start);
                  to.write(buf, 0, n);
                  to.flush();
                }
                if (line.size() > 0) {
                  keepClient(line.toByteArray(), line.size());
                }
              } catch (IOException e) {
                // the agent stopped reading, or the client's stdin broke: the session is over
              }
            },
            "record-client");
    t.setDaemon(true);
    t.start();
  }

  /** Passes the caller's stdin on to the command, kept nowhere. */
  static void pump(InputStream from, OutputStream to) {
    Thread t =
        new Thread(
            () -> {
              try (to) {
                from.transferTo(to);
              } catch (IOException e) {
                // the child stopped reading
              }
            },
            "record-stdin");
    t.setDaemon(true);
    t.start();
  }
}
