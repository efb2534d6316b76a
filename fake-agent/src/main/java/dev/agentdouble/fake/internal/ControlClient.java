package dev.agentdouble.fake.internal;

import dev.agentdouble.tape.internal.ControlSecret;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Asks a control server ({@code AGENTDOUBLE_URL}) which tape answers this invocation: POSTs the
 * invocation as JSON to {@code URL/invocations}, with the server's secret ({@code
 * AGENTDOUBLE_SECRET}) in a header; a 200 answer's body is the tape. Any other answer is a failure
 * whose text (WireMock's near-miss report, for one) is shown to the user.
 */
final class ControlClient {
  /** What the server is told about the invocation. */
  record Call(List<String> argv, String prompt, String cwd, String outputFormat, String model,
      String stdin, long pid, Map<String, String> env) {}

  /** The environment variable naming the control server. */
  static final String ENV = "AGENTDOUBLE_URL";
  /** Where a run the CLI ended before it needed a tape is reported, under the server's URL. */
  static final String STOPPED = "invocations/stopped";

  static final int CONNECT_TIMEOUT_MS = 5_000;
  static final int READ_TIMEOUT_MS = 30_000;

  private ControlClient() {}

  /** An HTTP response, as much of it as the fake needs. */
  record Response(int status, Map<String, String> headers, byte[] body) {}

  /** Asks {@code url} for the tape of {@code call}; {@code secret} may be null (not set). */
  static TapeSelection.Result ask(String url, String secret, Call call) {
    URI uri;
    try {
      uri = URI.create(url.endsWith("/") ? url + "invocations" : url + "/invocations");
    } catch (IllegalArgumentException e) {
      return new TapeSelection.Failed("AGENTDOUBLE_URL=" + url + ": not a usable URL: "
          + e.getMessage());
    }
    if (!"http".equals(uri.getScheme()) || uri.getHost() == null) {
      return new TapeSelection.Failed("AGENTDOUBLE_URL=" + url + ": use an http:// URL of the "
          + "control server, e.g. http://127.0.0.1:41234/agentdouble/ID");
    }
    secret = secret == null || secret.isEmpty() ? null : secret;
    if (secret != null && !ControlSecret.sendable(secret)) {
      return new TapeSelection.Failed(ControlSecret.ENV + ": not a usable secret (printable ASCII "
          + "without spaces); give the fake the value the control server printed or baked in");
    }
    Response response;
    try {
      response = post(uri, secret, body(call));
    } catch (IOException e) {
      return new TapeSelection.Failed("cannot reach the control server at " + url + ": " + e
          + "; is the test (or `agentdouble serve`) still running?");
    }
    if (response.status() == 200) {
      byte[] tape = response.body();
      String name = response.headers().get("x-agentdouble-tape");
      String source = "AGENTDOUBLE_URL tape" + (name == null ? "" : " " + name);
      return new TapeSelection.Selected(new TapeSource(source, new TapeSource.Opener() {
        @Override
        public InputStream open() {
          return new ByteArrayInputStream(tape);
        }
      }));
    }
    if (response.status() == 401 || response.status() == 403) {
      return new TapeSelection.Failed("the control server (" + url + ") refused this invocation "
          + "(HTTP " + response.status() + "): " + (secret == null ? ControlSecret.ENV
          + " is not set" : ControlSecret.ENV + " is not its secret") + "; run the fake with the "
          + "environment the test's shim or `agentdouble serve` gives it");
    }
    String text = new String(response.body(), StandardCharsets.UTF_8).strip();
    return new TapeSelection.Failed("the control server (" + url + ") has no tape for this "
        + "invocation (HTTP " + response.status() + ")" + (text.isEmpty() ? "" : ":\n" + text));
  }

  /**
   * Tells the control server about a run that ended before it needed a tape (the trust gate, a
   * validation error), so the test sees every invocation. The answer does not matter, and a
   * server that cannot be reached changes nothing: the run has ended as the CLI ends it.
   *
   * @param stoppedBy why the run ended, e.g. {@code trust-gate}
   */
  static void report(String url, String secret, Call call, String stoppedBy) {
    try {
      URI uri = URI.create(url.endsWith("/") ? url + STOPPED : url + "/" + STOPPED);
      boolean noSecret = secret == null || secret.isEmpty();
      if (!"http".equals(uri.getScheme()) || uri.getHost() == null
          || (!noSecret && !ControlSecret.sendable(secret))) {
        return;
      }
      String body = new String(body(call), StandardCharsets.UTF_8);
      StringBuilder sb = new StringBuilder(body.length() + 32);
      sb.append(body, 0, body.length() - 1);
      Journal.field(sb, "stoppedBy", stoppedBy);
      sb.append('}');
      post(uri, noSecret ? null : secret, sb.toString().getBytes(StandardCharsets.UTF_8));
    } catch (IOException | IllegalArgumentException e) {
      // nobody to tell: the run's own ending stands
    }
  }

  /**
   * One HTTP/1.1 POST over a plain socket, {@code Connection: close}: the JDK's HTTP client costs
   * a fresh JVM tens of milliseconds of class loading, paid by every invocation under a test.
   */
  static Response post(URI uri, String secret, byte[] body) throws IOException {
    int port = uri.getPort() < 0 ? 80 : uri.getPort();
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(uri.getHost(), port), CONNECT_TIMEOUT_MS);
      socket.setSoTimeout(READ_TIMEOUT_MS);
      OutputStream out = socket.getOutputStream();
      String head = "POST " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + port
          + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
          + (secret == null ? "" : "\r\n" + ControlSecret.HEADER + ": " + secret)
          + "\r\nConnection: close\r\n\r\n";
      out.write(head.getBytes(StandardCharsets.ISO_8859_1));
      out.write(body);
      out.flush();
      return parse(socket.getInputStream().readAllBytes());
    }
  }

  /** Parses a whole response (read to the end of the connection); chunked bodies are decoded. */
  static Response parse(byte[] raw) throws IOException {
    int headEnd = indexOf(raw, new byte[] {'\r', '\n', '\r', '\n'}, 0);
    if (headEnd < 0) {
      throw new IOException("malformed HTTP response (" + raw.length + " bytes, no header end)");
    }
    String[] lines = new String(raw, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
    String[] statusLine = lines[0].split(" ");
    int status;
    try {
      status = Integer.parseInt(statusLine[1]);
    } catch (RuntimeException e) {
      throw new IOException("malformed HTTP status line: " + lines[0]);
    }
    Map<String, String> headers = new HashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) {
        headers.put(lines[i].substring(0, colon).strip().toLowerCase(java.util.Locale.ROOT),
            lines[i].substring(colon + 1).strip());
      }
    }
    int from = headEnd + 4;
    byte[] body;
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      body = dechunk(raw, from);
    } else if (headers.containsKey("content-length")) {
      int length = Integer.parseInt(headers.get("content-length"));
      if (from + length > raw.length) {
        throw new IOException("HTTP response cut short: " + (raw.length - from) + " of " + length
            + " body bytes");
      }
      body = java.util.Arrays.copyOfRange(raw, from, from + length);
    } else {
      body = java.util.Arrays.copyOfRange(raw, from, raw.length);
    }
    return new Response(status, headers, body);
  }

  private static byte[] dechunk(byte[] raw, int from) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int i = from;
    while (true) {
      int lineEnd = indexOf(raw, new byte[] {'\r', '\n'}, i);
      if (lineEnd < 0) {
        throw new IOException("malformed chunked HTTP body");
      }
      String size = new String(raw, i, lineEnd - i, StandardCharsets.ISO_8859_1);
      int semicolon = size.indexOf(';');
      int length;
      try {
        length = Integer.parseInt((semicolon < 0 ? size : size.substring(0, semicolon)).strip(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("malformed chunk size: " + size);
      }
      i = lineEnd + 2;
      if (length == 0) {
        return body.toByteArray();
      }
      if (i + length > raw.length) {
        throw new IOException("chunked HTTP body cut short");
      }
      body.write(raw, i, length);
      i += length + 2;
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle, int from) {
    outer:
    for (int i = from; i + needle.length <= haystack.length; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (haystack[i + k] != needle[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static byte[] body(Call call) {
    StringBuilder sb = new StringBuilder(512);
    sb.append("{\"argv\":");
    Journal.array(sb, call.argv());
    Journal.field(sb, "prompt", call.prompt());
    Journal.field(sb, "cwd", call.cwd());
    Journal.field(sb, "outputFormat", call.outputFormat());
    Journal.field(sb, "model", call.model());
    Journal.field(sb, "stdin", call.stdin());
    sb.append(",\"pid\":").append(call.pid()).append(",\"env\":");
    Journal.object(sb, call.env());
    sb.append('}');
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }


}
