package dev.agentdouble.recorder.internal.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Secrets known by their shape: Anthropic's {@code sk-ant-} keys and OAuth tokens, and bearer
 * tokens (sources in {@link SecretFormats}). The values here are made up.
 */
class SecretFormatsTest {
  static final String API_KEY =
      "sk-ant-api03-" + "Ab1_cD2-eF3gH4iJ5kL6mN7oP8qR9sT0uV1wX2yZ3" + "-AA";
  static final String OAUTH = "sk-ant-oat01-" + "Zy9xW8vU7tS6rQ5pO4nM3lK2jI1hG0fE" + "AA";
  static final String ADMIN = "sk-ant-admin01-" + "Qw3eR4tY5uI6oP7aS8dF9gH0jK1lZ2x";
  static final String BEARER = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVP";

  static String found(String text) {
    SecretFormats formats = new SecretFormats();
    formats.scan(text.getBytes(StandardCharsets.UTF_8));
    StringBuilder sb = new StringBuilder();
    formats.found().forEach(s -> sb.append(s.source()).append('=').append(s.value()).append(';'));
    return sb.toString();
  }

  @Test
  void anthropicKeysOfEveryKindAreFoundInJsonAndInText() {
    assertThat(found("{\"result\":\"key " + API_KEY + "\"}"))
        .isEqualTo("anthropic-key=" + API_KEY + ";");
    assertThat(found("export CLAUDE_CODE_OAUTH_TOKEN=" + OAUTH + "\n"))
        .isEqualTo("anthropic-key=" + OAUTH + ";");
    assertThat(found("x-api-key: " + ADMIN)).isEqualTo("anthropic-key=" + ADMIN + ";");
  }

  @Test
  void aBearerTokenIsFoundAfterItsScheme() {
    assertThat(found("Authorization: Bearer " + BEARER + "\r\n"))
        .isEqualTo("bearer-token=" + BEARER + ";");
    // one value, one source: the first shape that found it names it
    assertThat(found("authorization: bearer " + OAUTH)).isEqualTo("anthropic-key=" + OAUTH + ";");
  }

  @Test
  void proseAboutKeysAndBearersIsLeftAlone() {
    assertThat(found("Bearer authentication uses a Bearer token; sk-ant-api03 keys start so."))
        .isEmpty();
    assertThat(found("{\"type\":\"assistant\",\"text\":\"all good\"}")).isEmpty();
  }
}
