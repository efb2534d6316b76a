package dev.agentdouble.recorder.internal.secrets;

import dev.agentdouble.recorder.internal.scan.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Secrets known by their shape, wherever they turn up, whoever's they are: found in what a run
 * wrote and in its command line, then replaced everywhere like the secrets of the environment.
 *
 * <ul>
 *   <li>Anthropic's keys, {@code sk-ant-<kind><NN>-<key>}: API keys {@code sk-ant-api03-...}
 *       (GitLab's secret detection, gitlab.com/gitlab-org/gitlab/-/issues/481547: "starts with
 *       sk-ant-api"), the OAuth tokens of {@code claude setup-token} that {@code
 *       CLAUDE_CODE_OAUTH_TOKEN} holds, {@code sk-ant-oat01-...} (hexdocs.pm/claude_code_sdk,
 *       ClaudeCodeSDK.Auth.Providers.Anthropic: "Token Format ... sk-ant-oat01-"), and Admin API
 *       keys {@code sk-ant-admin01-...} (docs.serval.com, anthropic-admin: "Admin keys start with
 *       sk-ant-admin01-"): {@code REDACTED:anthropic-key};
 *   <li>a bearer token after {@code Bearer} (any case), as an {@code Authorization} header carries
 *       an OAuth token or {@code ANTHROPIC_AUTH_TOKEN} (RFC 6750 §2.1, {@code b64token}): {@code
 *       REDACTED:bearer-token}; only a token of at least {@value #MIN_BEARER} characters with a
 *       digit in it, so prose ("Bearer authentication") is left alone.
 * </ul>
 *
 * The shapes are ASCII; each piece of text is looked at once, and only when it holds {@code
 * sk-ant-} or {@code earer} at all.
 */
public final class SecretFormats {
  /** The shortest bearer token taken for one. */
  static final int MIN_BEARER = 16;

  private static final Pattern ANTHROPIC_KEY =
      Pattern.compile("sk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_-]{8,}");

  private static final Pattern BEARER =
      Pattern.compile("(?i)\\bbearer[ \\t]+([A-Za-z0-9._~+/-]+=*)");

  /** Found so far, in order: each value once, with what stands in for it. */
  private final Map<String, Secrets.Secret> found = new LinkedHashMap<>();

  /** Looks for the shapes in {@code bytes} (UTF-8; JSON or raw output). */
  public void scan(byte[] bytes) {
    if (mayHold(bytes)) {
      scan(Bytes.latin1(bytes));
    }
  }

  /** Looks for the shapes in {@code text}. */
  public void scan(String text) {
    Matcher key = ANTHROPIC_KEY.matcher(text);
    while (key.find()) {
      add(key.group(), "anthropic-key");
    }
    Matcher m = BEARER.matcher(text);
    while (m.find()) {
      String token = m.group(1);
      if (token.length() >= MIN_BEARER && token.chars().anyMatch(Character::isDigit)) {
        add(token, "bearer-token");
      }
    }
  }

  private void add(String value, String source) {
    found.putIfAbsent(value, new Secrets.Secret(value, Secrets.marker(source), source));
  }

  /** The secrets found, in the order they were first seen. */
  public List<Secrets.Secret> found() {
    return new ArrayList<>(found.values());
  }

  private static final byte[] SK_ANT = {'s', 'k', '-', 'a', 'n', 't', '-'};

  /** Whether {@code sk-ant-} or {@code earer} (any case) is in {@code bytes}: one pass. */
  private static boolean mayHold(byte[] bytes) {
    for (int i = 0, n = bytes.length; i < n; i++) {
      byte b = bytes[i];
      if (b == 's' && Bytes.startsWith(bytes, i, n, SK_ANT)) {
        return true;
      }
      if ((b == 'e' || b == 'E')
          && i + 4 < n
          && (bytes[i + 1] | 0x20) == 'a'
          && (bytes[i + 2] | 0x20) == 'r'
          && (bytes[i + 3] | 0x20) == 'e'
          && (bytes[i + 4] | 0x20) == 'r') {
        return true;
      }
    }
    return false;
  }
}
