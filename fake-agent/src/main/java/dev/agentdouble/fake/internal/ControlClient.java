package dev.agentdouble.fake.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Asks a control server ({@code AGENTDOUBLE_URL}) which tape answers this invocation: POSTs the
 * invocation as JSON to {@code URL/invocations}; a 200 answer's body is the tape. Any other answer
 * is a failure whose text (WireMock's near-miss report, for one) is shown to the user.
 */
final class ControlClient {
  /** What the server is told about the invocation. */
  record Call(List<String> argv, String prompt, String cwd, String outputFormat, String model,
      String stdin, long pid, Map<String, String> env) {}

  static final int CONNECT_TIMEOUT_MS = 5_000;
  static final int READ_TIMEOUT_MS = 30_000;

  private ControlClient() {}

  static TapeSelection.Result ask(String url, Call call) {
    String endpoint = url.endsWith("/") ? url + "invocations" : url + "/invocations";
    HttpURLConnection connection;
    try {
      connection = (HttpURLConnection) new URL(endpoint).openConnection();
    } catch (IOException | IllegalArgumentException e) {
      return new TapeSelection.Failed("AGENTDOUBLE_URL=" + url + ": not a usable URL: "
          + e.getMessage());
    }
    try {
      connection.setRequestMethod("POST");
      connection.setDoOutput(true);
      connection.setConnectTimeout(CONNECT_TIMEOUT_MS);
      connection.setReadTimeout(READ_TIMEOUT_MS);
      connection.setRequestProperty("Content-Type", "application/json");
      try (OutputStream out = connection.getOutputStream()) {
        out.write(body(call));
      }
      int status = connection.getResponseCode();
      if (status == 200) {
        byte[] tape = readAll(connection.getInputStream());
        String name = connection.getHeaderField("X-AgentDouble-Tape");
        String source = "AGENTDOUBLE_URL tape" + (name == null ? "" : " " + name);
        return new TapeSelection.Selected(new TapeSource(source, new TapeSource.Opener() {
          @Override
          public InputStream open() {
            return new ByteArrayInputStream(tape);
          }
        }));
      }
      InputStream error = connection.getErrorStream();
      String text = error == null ? "" : new String(readAll(error), StandardCharsets.UTF_8).strip();
      return new TapeSelection.Failed("the control server (" + url + ") has no tape for this "
          + "invocation (HTTP " + status + ")" + (text.isEmpty() ? "" : ":\n" + text));
    } catch (IOException e) {
      return new TapeSelection.Failed("cannot reach the control server at " + url + ": " + e
          + "; is the test (or `agentdouble serve`) still running?");
    } finally {
      connection.disconnect();
    }
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

  private static byte[] readAll(InputStream in) throws IOException {
    try (in) {
      return in.readAllBytes();
    }
  }
}
