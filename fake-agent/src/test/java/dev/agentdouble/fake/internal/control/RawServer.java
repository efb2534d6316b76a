package dev.agentdouble.fake.internal.control;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A server on 127.0.0.1 that answers one connection: reads the request (head and body), then writes
 * {@code answer} and, when {@code holdOpen}, keeps the connection open without writing more until
 * the client goes away.
 */
final class RawServer implements AutoCloseable {
  private final ServerSocket server;
  private final CompletableFuture<String> request = new CompletableFuture<>();

  RawServer(String answer, boolean holdOpen, long dripMs) throws IOException {
    server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    Thread thread =
        new Thread(
            () -> {
              try (Socket s = server.accept()) {
                request.complete(readRequest(s.getInputStream()));
                OutputStream out = s.getOutputStream();
                byte[] bytes = answer.getBytes(StandardCharsets.ISO_8859_1);
                if (dripMs > 0) {
                  for (int i = 0; ; i = (i + 1) % bytes.length) {
                    out.write(bytes[i]);
                    out.flush();
                    Thread.sleep(dripMs);
                  }
                }
                out.write(bytes);
                out.flush();
                if (holdOpen) {
                  // until the client closes its end
                  while (s.getInputStream().read() >= 0) {
                    // nothing
                  }
                }
              } catch (IOException | InterruptedException e) {
                // the client went away
              } finally {
                request.complete("");
              }
            },
            "raw-server");
    thread.setDaemon(true);
    thread.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + port() + "/x/invocations");
  }

  String url() {
    return "http://127.0.0.1:" + port() + "/x";
  }

  int port() {
    return server.getLocalPort();
  }

  /** The request received, head and body, as ISO-8859-1 text; empty when none came whole. */
  String request() throws Exception {
    try {
      return request.get(10, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("no request within 10 s", e);
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
  }

  /** Reads a request's head and its body of Content-Length bytes; what was read, as text. */
  static String readRequest(InputStream in) throws IOException {
    ByteArrayOutputStream raw = new ByteArrayOutputStream();
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return "";
      }
      raw.write(b);
      head.append((char) b);
    }
    String lower = head.toString().toLowerCase(Locale.ROOT);
    int at = lower.indexOf("content-length:");
    int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).strip());
    raw.write(in.readNBytes(length));
    return raw.toString(StandardCharsets.ISO_8859_1);
  }
}
