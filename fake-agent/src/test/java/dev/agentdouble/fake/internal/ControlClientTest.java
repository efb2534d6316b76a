package dev.agentdouble.fake.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ControlClientTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readsABodyByItsContentLength() throws IOException {
    ControlClient.Response r = ControlClient.parse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n"
        + "X-AgentDouble-Tape: tape #1\r\n\r\nhello"));

    assertThat(r.status()).isEqualTo(200);
    assertThat(r.headers()).containsEntry("x-agentdouble-tape", "tape #1");
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("hello");
  }

  @Test
  void decodesAChunkedBody() throws IOException {
    ControlClient.Response r = ControlClient.parse(bytes("HTTP/1.1 404 Not Found\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n7\r\nRequest\r\nb;x=y\r\n was not ma\r\n5\r\ntched\r\n0\r\n\r\n"));

    assertThat(r.status()).isEqualTo(404);
    assertThat(new String(r.body(), StandardCharsets.UTF_8)).isEqualTo("Request was not matched");
  }

  @Test
  void aResponseCutShortIsAnErrorNotATape() {
    assertThatThrownBy(() -> ControlClient.parse(bytes("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort")))
        .isInstanceOf(IOException.class).hasMessageContaining("cut short");
    assertThatThrownBy(() -> ControlClient.parse(bytes("garbage")))
        .isInstanceOf(IOException.class).hasMessageContaining("no header end");
  }

  @Test
  void onlyHttpUrlsAreTaken() {
    TapeSelection.Result r = ControlClient.ask("https://example.invalid/x", null, new ControlClient.Call(
        java.util.List.of(), "p", "/w", "stream-json", null, null, 1, java.util.Map.of()));

    assertThat(r).isInstanceOf(TapeSelection.Failed.class);
    assertThat(((TapeSelection.Failed) r).message()).contains("use an http:// URL");
  }
}
