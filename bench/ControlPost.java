import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * One POST of an invocation to a control server, the way the fake agent's ControlClient sends it
 * ({@code urlconnection}: HttpURLConnection) or over a bare socket ({@code socket}: java.net.Socket,
 * {@code channel}: a SocketChannel), in a fresh JVM; prints the milliseconds the exchange took,
 * measured inside the JVM. Part of the extension benchmark's evidence (bench/README.md). Compiled
 * like the fake (-XDstringConcat=inline) and run with the fake's JVM flags.
 *
 * <pre>java -cp DIR ControlPost urlconnection|socket|channel URL SECRET</pre>
 */
public final class ControlPost {
  private ControlPost() {}

  static final byte[] BODY = ("{\"argv\":[\"-p\",\"--output-format\",\"stream-json\",\"hi\"],"
      + "\"prompt\":\"hi\",\"cwd\":\"/tmp\",\"outputFormat\":\"stream-json\",\"stdin\":\"\","
      + "\"pid\":1,\"env\":{}}").getBytes(StandardCharsets.UTF_8);

  /** The control plane's secret, sent with every request. */
  static String secret;

  public static void main(String[] args) throws Exception {
    String url = args[1];
    secret = args[2];
    long t0 = System.nanoTime();
    int status;
    switch (args[0]) {
      case "urlconnection" -> status = urlConnection(url);
      case "socket" -> status = socket(url);
      case "channel" -> status = channel(url);
      default -> throw new IllegalArgumentException(args[0]);
    }
    long t1 = System.nanoTime();
    if (status != 200) {
      System.err.println("ControlPost: HTTP " + status);
      System.exit(1);
    }
    System.out.println((t1 - t0) / 1_000_000.0);
  }

  static int urlConnection(String url) throws Exception {
    HttpURLConnection c = (HttpURLConnection) new URL(url + "/invocations").openConnection();
    c.setRequestMethod("POST");
    c.setDoOutput(true);
    c.setConnectTimeout(5000);
    c.setReadTimeout(30000);
    c.setRequestProperty("Content-Type", "application/json");
    c.setRequestProperty("X-AgentDouble-Secret", secret);
    try (OutputStream out = c.getOutputStream()) {
      out.write(BODY);
    }
    int status = c.getResponseCode();
    try (InputStream in = status == 200 ? c.getInputStream() : c.getErrorStream()) {
      in.readAllBytes();
    }
    c.disconnect();
    return status;
  }

  static byte[] request(URI uri) {
    String head = "POST " + uri.getPath() + "/invocations HTTP/1.1\r\nHost: 127.0.0.1:"
        + uri.getPort() + "\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length
        + "\r\nX-AgentDouble-Secret: " + secret + "\r\nConnection: close\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
    byte[] all = new byte[h.length + BODY.length];
    System.arraycopy(h, 0, all, 0, h.length);
    System.arraycopy(BODY, 0, all, h.length, BODY.length);
    return all;
  }

  static int status(byte[] response) {
    // "HTTP/1.1 200 ..."
    return (response[9] - '0') * 100 + (response[10] - '0') * 10 + (response[11] - '0');
  }

  static int socket(String url) throws Exception {
    URI uri = URI.create(url);
    try (Socket s = new Socket()) {
      s.setTcpNoDelay(true);
      s.connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}),
          uri.getPort()), 5000);
      s.getOutputStream().write(request(uri));
      return status(s.getInputStream().readAllBytes());
    }
  }

  static int channel(String url) throws Exception {
    URI uri = URI.create(url);
    try (SocketChannel ch = SocketChannel.open(new InetSocketAddress(
        InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), uri.getPort()))) {
      ByteBuffer out = ByteBuffer.wrap(request(uri));
      while (out.hasRemaining()) {
        ch.write(out);
      }
      ByteBuffer in = ByteBuffer.allocate(1 << 16);
      java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
      while (ch.read(in) >= 0) {
        in.flip();
        all.write(in.array(), 0, in.limit());
        in.clear();
      }
      return status(all.toByteArray());
    }
  }
}
