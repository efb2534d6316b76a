package dev.agentdouble.fake.internal.cursor.acp;

import dev.agentdouble.json.JsonSlice;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.json.LineReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * JSON-RPC 2.0 on stdio, one message a line, as ACP carries it: a reader thread turns stdin into
 * {@link Message}s in arrival order, and {@link #send} writes one whole line with one write, so
 * lines from a turn and from the dispatcher never interleave. What is read is bounded: a line of at
 * most {@link #MAX_MESSAGE} bytes, and at most {@link #INBOX} messages read ahead of the dispatcher
 * (then the reader waits, and the client's writes with it).
 */
final class AcpWire {
  /**
   * The longest line a client may send: 32 MiB, the default limit of the official ACP TypeScript
   * SDK's streams ({@code DEFAULT_MAX_MESSAGE_BYTES}), beyond which it ends the connection too.
   */
  static final int MAX_MESSAGE = 32 << 20;

  /** How many messages the reader may be ahead of the dispatcher. */
  static final int INBOX = 256;

  /** What a line from the client is. */
  enum Kind {
    REQUEST,
    NOTIFICATION,
    RESPONSE,
    /** Not JSON, or JSON that is not a JSON-RPC 2.0 message. */
    INVALID,
    /** Stdin ended: the client went away. */
    END,
    /** Not from the client: a turn woke the dispatcher (it ended the process). */
    WAKE,
    /**
     * Stdin cannot be read on: a line longer than {@link #MAX_MESSAGE}, or one this JVM's memory
     * cannot hold. {@link Message#problem()} is the whole message for stderr; the agent exits 70.
     */
    FAILED
  }

  /**
   * One message from the client.
   *
   * @param json the message as compact JSON ({@code ""} for {@link Kind#END}, the line's text for a
   *     line that is not JSON)
   * @param problem why an {@link Kind#INVALID} line is not a message
   * @param parseError whether the line is not JSON at all (JSON-RPC's -32700), else not a message
   *     (-32600)
   */
  record Message(Kind kind, String json, String problem, boolean parseError) {
    static final Message END = new Message(Kind.END, "", "", false);
    static final Message WAKE = new Message(Kind.WAKE, "", "", false);

    JsonSlice slice() {
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      return JsonSlice.of(bytes, 0, bytes.length);
    }

    /** The method of a request or notification; {@code ""} otherwise. */
    String method() {
      return kind == Kind.REQUEST || kind == Kind.NOTIFICATION
          ? slice().get("method").asText()
          : "";
    }

    /** The id as written (a number or a string literal); {@code null} when there is none. */
    String id() {
      JsonSlice id = slice().get("id");
      return id.isMissing() ? null : id.raw();
    }

    JsonSlice params() {
      return slice().get("params");
    }

    /** How this message is named in a message to a user: {@code "session/prompt" (id 5)}. */
    String describe() {
      return switch (kind) {
        case REQUEST -> "request \"" + method() + "\" (id " + id() + ")";
        case NOTIFICATION -> "notification \"" + method() + "\"";
        case RESPONSE -> "a response to id " + id();
        case INVALID -> "a line that is not a JSON-RPC message (" + problem + ")";
        case END -> "the end of stdin";
        case WAKE -> "nothing (an internal wake-up)";
        case FAILED -> "a line that could not be read";
      };
    }

    /** Parses one line the client wrote. */
    static Message parse(byte[] buf, int off, int len) {
      Optional<String> error = JsonText.syntaxError(buf, off, len);
      if (error.isPresent()) {
        return new Message(
            Kind.INVALID, new String(buf, off, len, StandardCharsets.UTF_8), error.get(), true);
      }
      byte[] compact = JsonText.compact(buf, off, len);
      String json = new String(compact, StandardCharsets.UTF_8).strip();
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      JsonSlice m = JsonSlice.of(bytes, 0, bytes.length);
      if (!m.isObject()) {
        return new Message(Kind.INVALID, json, "not a JSON object", false);
      }
      if (!m.get("jsonrpc").asText().equals("2.0")) {
        return new Message(Kind.INVALID, json, "\"jsonrpc\" is not \"2.0\"", false);
      }
      JsonSlice id = m.get("id");
      boolean validId = id.isMissing() || id.isString() || id.kind().equals("number");
      if (!validId && !id.isNull()) {
        return new Message(Kind.INVALID, json, "\"id\" must be a number or a string", false);
      }
      JsonSlice method = m.get("method");
      if (!method.isMissing()) {
        if (!method.isString()) {
          return new Message(Kind.INVALID, json, "\"method\" must be a string", false);
        }
        return new Message(id.isMissing() ? Kind.NOTIFICATION : Kind.REQUEST, json, "", false);
      }
      if (!id.isMissing() && (m.has("result") != m.has("error"))) {
        return new Message(Kind.RESPONSE, json, "", false);
      }
      return new Message(
          Kind.INVALID, json, "neither a request, a notification nor a response", false);
    }
  }

  private final BlockingQueue<Message> inbox = new LinkedBlockingQueue<>(INBOX);
  private final OutputStream stdout;
  private boolean stdoutGone;

  AcpWire(OutputStream stdout) {
    this.stdout = stdout;
  }

  /**
   * Starts reading {@code stdin} on a daemon thread; ends with {@link Message#END}, or {@link
   * Kind#FAILED} when a line cannot be read.
   */
  void listen(InputStream stdin) {
    Thread reader = new Thread(() -> put(read(stdin)), "agentdouble-acp-stdin");
    reader.setDaemon(true);
    reader.start();
  }

  /** Reads messages into the inbox; returns the last one: the end of stdin, or why it stopped. */
  private Message read(InputStream stdin) {
    LineReader lines = new LineReader(stdin, MAX_MESSAGE);
    try {
      while (lines.next()) {
        int len = lines.length();
        byte[] buf = lines.buffer();
        int off = lines.offset();
        if (len > 0 && buf[off + len - 1] == '\r') {
          len--;
        }
        if (!isBlank(buf, off, len)) {
          put(Message.parse(buf, off, len));
        }
      }
      return Message.END;
    } catch (LineReader.TooLong e) {
      return failed(
          e.line(),
          e.getMessage()
              + (e.overBound()
                  ? ", more than an ACP message may be (the ACP SDK's limit); the agent stops:"
                      + " send big content in a resource link, or in smaller messages"
                  : ""));
    } catch (IOException e) {
      return Message.END; // stdin broke: the same as the client going away
    } catch (OutOfMemoryError e) {
      return failed(
          lines.lineNumber(),
          "out of memory reading a message of "
              + LineReader.mib(lines.length())
              + LineReader.memoryHint());
    }
  }

  private static Message failed(int line, String problem) {
    return new Message(
        Kind.FAILED, "", "agentdouble: acp: stdin line " + line + ": " + problem + "\n", false);
  }

  private void put(Message m) {
    while (true) {
      try {
        inbox.put(m);
        return;
      } catch (InterruptedException e) {
        // only the process ends this wait
      }
    }
  }

  /** The next message, waiting as long as it takes (the owner rule ends a forsaken fake). */
  Message take() {
    while (true) {
      try {
        return inbox.take();
      } catch (InterruptedException e) {
        // only the process ends this wait
      }
    }
  }

  /**
   * Wakes {@link #take}'s caller without a message of the client's; a full inbox wakes it anyway.
   */
  void wake() {
    inbox.offer(Message.WAKE);
  }

  /** Writes one message (compact JSON) and its newline with one write. */
  void send(String json) {
    byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
    write(bytes, 0, bytes.length);
  }

  /** Writes bytes verbatim (a malformed line of a tape), with one write. */
  synchronized void write(byte[] bytes, int off, int len) {
    if (stdoutGone) {
      return;
    }
    try {
      stdout.write(bytes, off, len);
      stdout.flush();
    } catch (IOException e) {
      stdoutGone = true; // the client stopped reading
    }
  }

  /** Stdout for a {@link Player}: each write is one whole write on the wire. */
  OutputStream stream() {
    return new OutputStream() {
      @Override
      public void write(int b) {
        AcpWire.this.write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        AcpWire.this.write(Arrays.copyOfRange(b, off, off + len), 0, len);
      }
    };
  }

  static String result(String id, String resultJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + resultJson + "}";
  }

  static String error(String id, int code, String message, String dataJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + (id == null ? "null" : id)
        + ",\"error\":{\"code\":"
        + code
        + ",\"message\":"
        + JsonText.quote(message)
        + (dataJson == null ? "" : ",\"data\":" + dataJson)
        + "}}";
  }

  static String notification(String method, String paramsJson) {
    return "{\"jsonrpc\":\"2.0\",\"method\":"
        + JsonText.quote(method)
        + ",\"params\":"
        + paramsJson
        + "}";
  }

  static String request(long id, String method, String paramsJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":"
        + JsonText.quote(method)
        + ",\"params\":"
        + paramsJson
        + "}";
  }

  private static boolean isBlank(byte[] buf, int off, int len) {
    for (int i = off; i < off + len; i++) {
      if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r') {
        return false;
      }
    }
    return true;
  }
}
