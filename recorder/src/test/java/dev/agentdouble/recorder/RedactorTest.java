package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.lint.Linter;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RedactorTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static final String API_KEY = "key_live_0123456789abcdef";

  /** A secret that JSON must escape: a slash, a quote, a backslash. */
  static final String PASSWORD = "p@ss/w\"ord\\123";

  static final String ARGV_KEY = "sk-argv-ABCDEFGH1234";
  static final String AUTH_TOKEN = "tok_zzzzzzzzzzzzzz";
  static final String BEARER = "bearer-secret-9999";
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";

  static final Map<String, String> ENV =
      Map.of(
          "CURSOR_API_KEY", API_KEY,
          "DB_PASSWORD", PASSWORD,
          "HOME", "/home/alice",
          "PATH", "/usr/bin:/bin",
          "GIT_AUTHOR_NAME", "Alice Example",
          "SHORT_TOKEN", "abc");

  static final List<String> ARGV =
      List.of(
          "-p",
          "--output-format",
          "stream-json",
          "--api-key",
          ARGV_KEY,
          "--auth-token=" + AUTH_TOKEN,
          "-H",
          "Authorization: Bearer " + BEARER,
          "say hi");

  @TempDir Path dir;

  /** A run whose output and stderr repeat every planted secret, in several escapings. */
  static Tape planted() {
    List<Frame> frames = new ArrayList<>();
    frames.add(
        new Frame.Out(
            0,
            "{\"type\":\"system\",\"subtype\":\"init\","
                + "\"apiKeySource\":\"env\",\"cwd\":\"/home/alice/proj\",\"session_id\":\""
                + SID
                + "\"}"));
    // the shell printed the environment: raw secrets inside a JSON string
    String stdout = "CURSOR_API_KEY=" + API_KEY + "\nDB_PASSWORD=" + PASSWORD + "\nAlice Example\n";
    frames.add(
        new Frame.Out(
            10,
            "{\"type\":\"tool_call\",\"subtype\":\"completed\","
                + "\"tool_call\":{\"shellToolCall\":{\"result\":{\"success\":{\"stdout\":"
                + JsonText.quote(stdout)
                + ",\"exitCode\":0}}}},\"session_id\":\""
                + SID
                + "\"}"));
    // JSON inside a JSON string: the password escaped twice; the bearer token with \/ escapes
    String inner = "{\"password\":" + JsonText.quote(PASSWORD) + "}";
    frames.add(
        new Frame.Out(
            20,
            "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"text\",\"text\":"
                + JsonText.quote(inner)
                + "}]},"
                + "\"header\":\"Bearer "
                + BEARER.replace("-", "\\u002d")
                + "\",\"session_id\":\""
                + SID
                + "\"}"));
    frames.add(
        new Frame.Out(
            25,
            "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":5,"
                + "\"is_error\":false,\"result\":\"used "
                + ARGV_KEY
                + " and "
                + AUTH_TOKEN
                + "\","
                + "\"session_id\":\""
                + SID
                + "\"}"));
    frames.add(Frame.OutBytes.text(30, "not json: " + API_KEY + " " + PASSWORD + "\n"));
    frames.add(
        Frame.Err.text(
            30,
            "warning: Authorization: Bearer "
                + BEARER
                + " rejected; "
                + "escaped "
                + JsonText.quote(PASSWORD)
                + "\n"));
    frames.add(new Frame.Exit(30, 0));
    Header header =
        Header.builder()
            .cli("cursor-agent")
            .argv(ARGV)
            .source(Header.Source.RECORDED)
            .vars(Vars.NONE.sessionId(SID).prompt("use " + API_KEY))
            .extra("note", "{\"by\":" + JsonText.quote(PASSWORD) + "}")
            .build();
    return new Tape(header, frames);
  }

  /** The forms a secret takes in the tape file: raw, JSON-escaped, JSON-escaped with \/. */
  static List<String> forms(String secret) {
    String escaped = JsonText.quote(secret);
    escaped = escaped.substring(1, escaped.length() - 1);
    String twice = JsonText.quote(escaped);
    twice = twice.substring(1, twice.length() - 1);
    return List.of(secret, escaped, escaped.replace("/", "\\/"), twice);
  }

  @Test
  void plantedSecretsAreNotInTheWrittenTapeBytes() throws Exception {
    Redactor.Result redacted = Redactor.from(ENV, ARGV, List.of()).redact(planted());
    Path file = dir.resolve("redacted.tape.ndjson");
    redacted.tape().write(file);

    String bytes = Files.readString(file, StandardCharsets.UTF_8);

    for (String secret : List.of(API_KEY, PASSWORD, ARGV_KEY, AUTH_TOKEN, BEARER)) {
      for (String form : forms(secret)) {
        assertThat(bytes).as("form %s of a planted secret", form).doesNotContain(form);
      }
    }
    assertThat(bytes)
        .contains(
            "REDACTED:CURSOR_API_KEY",
            "REDACTED:DB_PASSWORD",
            "REDACTED:api-key",
            "--auth-token=REDACTED:auth-token",
            "\"Authorization: REDACTED:header:Authorization\"",
            "\"header\":\"REDACTED:header:Authorization\"");
    // what is not secret stays: the author's name, short values, other variables
    assertThat(bytes).contains("Alice Example", "/home/alice/proj", "say hi");
    assertThat(Tape.read(file)).isEqualTo(redacted.tape());
  }

  @Test
  void theCountNamesEachSource() {
    Redactor.Result redacted = Redactor.from(ENV, ARGV, List.of()).redact(planted());

    assertThat(redacted.counts())
        .containsOnlyKeys(
            "CURSOR_API_KEY", "DB_PASSWORD", "api-key", "auth-token", "header:Authorization");
    // key: vars.prompt, stdout, raw line; password: stdout, nested JSON, raw line, stderr, extra
    assertThat(redacted.counts().get("CURSOR_API_KEY")).isEqualTo(3);
    assertThat(redacted.counts().get("DB_PASSWORD")).isEqualTo(5);
    // argv element and result text
    assertThat(redacted.counts().get("api-key")).isEqualTo(2);
    assertThat(redacted.counts().get("auth-token")).isEqualTo(2);
    // argv element, the \\u-escaped header field, stderr
    assertThat(redacted.counts().get("header:Authorization")).isEqualTo(3);
    assertThat(redacted.total()).isEqualTo(15);
    assertThat(redacted.summary())
        .isEqualTo(
            "15 (CURSOR_API_KEY 3, DB_PASSWORD 5, api-key 2, "
                + "auth-token 2, header:Authorization 3)");
  }

  @Test
  void nothingButTheSecretsChanges() throws Exception {
    Tape before = planted();
    Tape after = Redactor.from(ENV, ARGV, List.of()).redact(before).tape();

    assertThat(after.frames()).hasSameSizeAs(before.frames());
    assertThat(after.frames().get(0)).isEqualTo(before.frames().get(0));
    assertThat(after.ending()).isEqualTo(before.ending());
    // the shell result: same JSON but for the stdout text
    JsonNode shellBefore = JSON.readTree(((Frame.Out) before.frames().get(1)).json());
    JsonNode shellAfter = JSON.readTree(((Frame.Out) after.frames().get(1)).json());
    assertThat(shellAfter.at("/tool_call/shellToolCall/result/success/stdout").asText())
        .isEqualTo(
            "CURSOR_API_KEY=REDACTED:CURSOR_API_KEY\nDB_PASSWORD=REDACTED:DB_PASSWORD\n"
                + "Alice Example\n");
    ((ObjectNode) shellBefore.at("/tool_call/shellToolCall/result/success")).remove("stdout");
    ((ObjectNode) shellAfter.at("/tool_call/shellToolCall/result/success")).remove("stdout");
    assertThat(shellAfter).isEqualTo(shellBefore);
    // the nested JSON is still JSON, with the marker as its value
    JsonNode assistant = JSON.readTree(((Frame.Out) after.frames().get(2)).json());
    assertThat(JSON.readTree(assistant.at("/message/content/0/text").asText()))
        .isEqualTo(JSON.readTree("{\"password\":\"REDACTED:DB_PASSWORD\"}"));
    assertThat(after.header().argv())
        .containsExactly(
            "-p",
            "--output-format",
            "stream-json",
            "--api-key",
            "REDACTED:api-key",
            "--auth-token=REDACTED:auth-token",
            "-H",
            "Authorization: REDACTED:header:Authorization",
            "say hi");
    assertThat(after.header().vars().prompt()).contains("use REDACTED:CURSOR_API_KEY");
    assertThat(after.header().vars().sessionId()).contains(SID);
    assertThat(after.header().extras()).containsEntry("note", "{\"by\":\"REDACTED:DB_PASSWORD\"}");
    assertThat(new String(((Frame.Err) after.frames().get(5)).bytes(), StandardCharsets.UTF_8))
        .isEqualTo(
            "warning: Authorization: REDACTED:header:Authorization rejected; "
                + "escaped \"REDACTED:DB_PASSWORD\"\n");
  }

  @Test
  void aRealisticRunStaysAValidRunAfterRedaction() {
    Tape run =
        Script.of("print the key " + API_KEY)
            .init()
            .user()
            .tool(ToolCall.shell("env", 0, "CURSOR_API_KEY=" + API_KEY + "\n", ""))
            .assistant("The key is " + API_KEY + ".")
            .result()
            .exit(0)
            .build();

    Redactor.Result redacted = Redactor.from(ENV, List.of(), List.of()).redact(run);

    assertThat(new String(redacted.tape().toBytes(), StandardCharsets.UTF_8))
        .doesNotContain(API_KEY);
    assertThat(Linter.lint(redacted.tape(), Linter.Scope.RUN)).noneMatch(f -> f.isError());
    assertThat(redacted.tape().frames())
        .allSatisfy(f -> assertThat(f).isNotInstanceOf(Frame.OutBytes.class));
  }

  @Test
  void aSecretInsideAnotherIsReplacedAsTheLongerOne() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("OUTER_TOKEN", "abcdefgh-12345678");
    env.put("INNER_TOKEN", "abcdefgh");
    Tape tape =
        new Tape(
            Header.empty(),
            List.of(Frame.Err.text(0, "1 abcdefgh-12345678 2 abcdefgh 3\n"), new Frame.Exit(0, 1)));

    Redactor.Result redacted = Redactor.from(env, List.of(), List.of()).redact(tape);

    assertThat(
            new String(
                ((Frame.Err) redacted.tape().frames().get(0)).bytes(), StandardCharsets.UTF_8))
        .isEqualTo("1 REDACTED:OUTER_TOKEN 2 REDACTED:INNER_TOKEN 3\n");
    assertThat(redacted.counts())
        .containsExactlyInAnyOrderEntriesOf(Map.of("OUTER_TOKEN", 1, "INNER_TOKEN", 1));
  }

  @Test
  void theSameInputGivesTheSameBytes() {
    Map<String, String> reordered = new LinkedHashMap<>();
    List<String> names = new ArrayList<>(ENV.keySet());
    Collections.reverse(names);
    names.forEach(n -> reordered.put(n, ENV.get(n)));
    // two variables with one value: the first by name names it, whatever the map's order
    reordered.put("A_SECRET", API_KEY);

    byte[] first = Redactor.from(reordered, ARGV, List.of()).redact(planted()).tape().toBytes();
    Map<String, String> sorted = new TreeMap<>(reordered);
    byte[] second = Redactor.from(sorted, ARGV, List.of()).redact(planted()).tape().toBytes();

    assertThat(first).isEqualTo(second);
    assertThat(new String(first, StandardCharsets.UTF_8))
        .contains("REDACTED:A_SECRET")
        .doesNotContain("REDACTED:CURSOR_API_KEY");
  }

  @Test
  void userPatternsRedactEveryMatchWherever() {
    Tape tape =
        new Tape(
            Header.empty(),
            List.of(
                new Frame.Out(0, "{\"type\":\"assistant\",\"text\":\"token sk-live-a1b2c3 here\"}"),
                Frame.OutBytes.text(1, "raw sk-live-a1b2c3\n"),
                Frame.Err.text(2, "sk-test-zz9\n"),
                new Frame.Exit(3, 0)));

    Redactor.Result redacted =
        Redactor.from(
                Map.of(),
                List.of(),
                List.of(Pattern.compile("sk-live-[a-z0-9]+"), Pattern.compile("sk-test-\\w+")))
            .redact(tape);

    String bytes = new String(redacted.tape().toBytes(), StandardCharsets.UTF_8);
    assertThat(bytes)
        .doesNotContain("sk-live-a1b2c3", "sk-test-zz9")
        .contains("token REDACTED:pattern-1 here", "raw REDACTED:pattern-1", "REDACTED:pattern-2");
    assertThat(redacted.counts())
        .containsExactlyInAnyOrderEntriesOf(Map.of("pattern-1", 2, "pattern-2", 1));
  }

  @Test
  void aShortOptionValueIsRedactedInArgvOnly() {
    Tape tape =
        new Tape(
            Header.builder().argv(List.of("--api-key", "abc", "-Habc: x")).build(),
            List.of(Frame.Err.text(0, "abc abc\n"), new Frame.Exit(0, 1)));

    Redactor.Result redacted = Redactor.from(Map.of(), List.of(), List.of()).redact(tape);

    assertThat(redacted.tape().header().argv())
        .containsExactly("--api-key", "REDACTED:api-key", "-Habc: REDACTED:header:abc");
    assertThat(redacted.tape().frames().get(0)).isEqualTo(tape.frames().get(0));
    assertThat(redacted.counts())
        .containsExactlyInAnyOrderEntriesOf(Map.of("api-key", 1, "header:abc", 1));
  }

  @Test
  void aSecretInANumberOrAcrossTokensStillGoes() {
    Map<String, String> env = Map.of("PIN_SECRET", "1234567890123", "ODD_TOKEN", "x\",\"y\":\"z");
    Tape tape =
        new Tape(
            Header.empty(),
            List.of(
                new Frame.Out(0, "{\"n\":1234567890123,\"m\":11234567890123}"),
                new Frame.Out(1, "{\"a\":\"x\",\"y\":\"z\"}"),
                new Frame.Exit(2, 0)));

    Redactor.Result redacted = Redactor.from(env, List.of(), List.of()).redact(tape);

    assertThat(redacted.tape().frames().get(0))
        .isEqualTo(
            new Frame.Out(0, "{\"n\":\"REDACTED:PIN_SECRET\",\"m\":\"1REDACTED:PIN_SECRET\"}"));
    assertThat(redacted.tape().frames().get(1))
        .isEqualTo(new Frame.Out(1, "{\"a\":\"REDACTED:ODD_TOKEN\"}"));
    assertThat(redacted.total()).isEqualTo(3);
  }

  @Test
  void aSecretWrittenWithUnicodeEscapesIsFound() {
    String secret = "pässwörd-ünïcode";
    String escaped = "p\\u00e4ssw\\u00f6rd-\\u00fcn\\u00efcode";
    Tape tape =
        new Tape(
            Header.empty(),
            List.of(
                new Frame.Out(0, "{\"a\":\"" + escaped + "\"}"),
                Frame.OutBytes.text(
                    1, "{ \"pretty\": \"p\\u00E4ssw\\u00F6rd-\\u00FCn\\u00EFcode\" }\n"),
                new Frame.Exit(2, 0)));

    Redactor.Result redacted =
        Redactor.from(Map.of("UNI_TOKEN", secret), List.of(), List.of()).redact(tape);

    String bytes = new String(redacted.tape().toBytes(), StandardCharsets.UTF_8);
    assertThat(bytes).doesNotContain("u00e4ssw", "u00E4ssw", secret).contains("REDACTED:UNI_TOKEN");
    assertThat(redacted.counts()).containsEntry("UNI_TOKEN", 2);
  }

  @Test
  void namesThatLookSecret() {
    assertThat(
            List.of(
                "CURSOR_API_KEY",
                "github_token",
                "AWS_SECRET_ACCESS_KEY",
                "PGPASSWORD",
                "MY_PASSWD",
                "GOOGLE_APPLICATION_CREDENTIALS",
                "CURSOR_AUTH_TOKEN",
                "OAUTH_CLIENT",
                "AUTHOR_AUTH"))
        .allMatch(Redactor::looksSecret);
    assertThat(List.of("HOME", "PATH", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "LANG"))
        .noneMatch(Redactor::looksSecret);
  }

  @Test
  void sourcesNameWhatIsKnownWithoutValues() {
    Redactor redactor = Redactor.from(ENV, ARGV, List.of());

    assertThat(redactor.sources())
        .containsExactly(
            "CURSOR_API_KEY", "DB_PASSWORD", "api-key", "auth-token", "header:Authorization");
    assertThat(redactor.redact("run --api-key " + ARGV_KEY))
        .isEqualTo("run --api-key REDACTED:api-key");
  }
}
