package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.Runs;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble serve} in-process, answering the real fake agent ({@code
 * fake-agent/bin/cursor-agent}, a process) through {@code AGENTDOUBLE_URL}.
 */
@Timeout(120)
class ServeTest {
  @TempDir Path dir;
  private final List<Serve> started = new ArrayList<>();

  record Out(int status, String out, String err, Serve serve) {}

  @AfterEach
  void stop() {
    started.forEach(Serve::close);
  }

  private Out serve(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Serve.Started s =
        Serve.start(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    if (s.serve() != null) {
      started.add(s.serve());
    }
    return new Out(
        s.status(),
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        s.serve());
  }

  private Path tapes(String folder) throws IOException {
    return Files.createDirectories(dir.resolve(folder));
  }

  /** A tape that says its name on stderr and exits with {@code exit}; {@code match} is JSON. */
  private static void tape(Path folder, String name, String match, int exit) throws IOException {
    String header = match == null ? "{\"tape\":1}" : "{\"tape\":1,\"match\":" + match + "}";
    Files.writeString(
        folder.resolve(name + ".tape.ndjson"),
        header
            + "\n"
            + "{\"t\":0,\"err\":\"tape "
            + name
            + "\\n\"}\n"
            + "{\"t\":1,\"exit\":"
            + exit
            + "}\n");
  }

  static Path root() {
    return Path.of(System.getProperty("agentdouble.root", "..")).toAbsolutePath().normalize();
  }

  /** The real fake agent, as a process, with {@code env} and stdin from /dev/null. */
  static Runs.Result fake(Map<String, String> env, String... args) {
    return Runs.run(launcher("cursor-agent"), env, 60, args);
  }

  /** The fake agent's launcher {@code fake-agent/bin/NAME}, its jar built. */
  private static Path launcher(String name) {
    assertThat(root().resolve("fake-agent/target/fake-agent.jar"))
        .as("the fake agent's jar (built before this module in the reactor)")
        .exists();
    return root().resolve("fake-agent/bin").resolve(name);
  }

  /**
   * The real fake agent as Claude Code ({@code fake-agent/bin/claude}), as {@link #fake} runs it.
   */
  static Runs.Result claude(Map<String, String> env, String... args) {
    return Runs.run(launcher("claude"), env, 60, args);
  }

  private static Map<String, String> url(Serve serve) {
    return Map.of(
        "AGENTDOUBLE_URL",
        serve.url(),
        "AGENTDOUBLE_SECRET",
        serve.plane().secret(),
        "AGENTDOUBLE_TIMING",
        "fast");
  }

  @Test
  void printsTheUrlAndTheSecretOnStdoutAndNeverTheSecretOnStderr() throws IOException {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);

    Out s = serve("--tapes", folder.toString());

    assertThat(s.status()).isZero();
    assertThat(s.out())
        .isEqualTo(
            "AGENTDOUBLE_URL=http://127.0.0.1:"
                + s.serve().port()
                + "/agentdouble/serve\nAGENTDOUBLE_SECRET="
                + s.serve().plane().secret()
                + "\n");
    assertThat(s.out())
        .matches(
            "AGENTDOUBLE_URL=http://127\\.0\\.0\\.1:[0-9]+/agentdouble/serve\n"
                + "AGENTDOUBLE_SECRET=[A-Za-z0-9_-]{43}\n");
    assertThat(s.err())
        .startsWith("agentdouble: serving 1 tape from " + folder)
        .doesNotContain(s.serve().plane().secret());
  }

  /**
   * Another local user, who can reach loopback but has not the secret serve printed, can neither
   * get a tape nor read the invocations, add a stub or shut serve down; a fake without the secret
   * says why it was refused.
   */
  @Test
  void refusesEveryRequestWithoutItsSecret() throws Exception {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);
    Out s = serve("--tapes", folder.toString());
    Runs.Result answered =
        fake(
            url(s.serve()), "-p", "--trust", "--output-format", "stream-json", "my private prompt");
    HttpClient http = HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + s.serve().port();
    List<String> statuses = new ArrayList<>();
    for (String[] r :
        new String[][] {
          {"POST", Serve.PATH + "/invocations"},
          {"GET", "/__admin/requests"},
          {"POST", "/__admin/mappings"},
          {"POST", "/__admin/shutdown"}
        }) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(base + r[1]))
                  .method(
                      r[0],
                      HttpRequest.BodyPublishers.ofString(
                          "{\"request\":{\"method\":\"ANY\"},\"response\":{\"status\":200}}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      statuses.add(r[1] + " " + response.statusCode());
      assertThat(response.body()).doesNotContain("my private prompt", "tape any");
    }
    Runs.Result refused = fake(Map.of("AGENTDOUBLE_URL", s.serve().url()), "-p", "--trust", "hi");

    assertThat(answered.exit()).as(answered.err()).isZero();
    assertThat(statuses)
        .containsExactly(
            Serve.PATH + "/invocations 401",
            "/__admin/requests 401",
            "/__admin/mappings 401",
            "/__admin/shutdown 401");
    assertThat(s.serve().plane().server().isRunning()).isTrue();
    assertThat(s.serve().plane().server().listAllStubMappings().getMappings())
        .hasSize(1); // the tape's: nothing was added
    assertThat(refused.exit()).isEqualTo(70);
    assertThat(refused.err())
        .isEqualTo(
            "agentdouble: the control server ("
                + s.serve().url()
                + ") refused this invocation (HTTP 401): AGENTDOUBLE_SECRET is not set; run the fake "
                + "with the environment the test's shim or `agentdouble serve` gives it\n");
  }

  private static HttpResponse<String> call(
      Serve serve, String method, String path, String body, boolean withSecret) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + serve.port() + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (withSecret) {
      request.header(ControlSecret.HEADER, serve.plane().secret());
    }
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * WireMock's admin API cannot reset or stop serve, even with the secret: both are refused (HTTP
   * 403), serve goes on answering the fakes, and still refuses requests without the secret.
   */
  @Test
  void anAdminResetOrShutdownIsRefusedAndServeGoesOn() throws Exception {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);
    Out s = serve("--tapes", folder.toString());

    HttpResponse<String> reset = call(s.serve(), "POST", "/__admin/reset", null, true);
    HttpResponse<String> shutdown = call(s.serve(), "POST", "/__admin/shutdown", null, true);
    Runs.Result answered = fake(url(s.serve()), "-p", "--trust", "hi");
    HttpResponse<String> refused =
        call(s.serve(), "POST", Serve.PATH + "/invocations", "{}", false);
    HttpResponse<String> journal = call(s.serve(), "GET", "/__admin/requests", null, true);

    assertThat(reset.statusCode()).isEqualTo(403);
    assertThat(reset.body()).startsWith("agentdouble: POST /__admin/reset: refused;");
    assertThat(shutdown.statusCode()).isEqualTo(403);
    assertThat(answered.exit()).as(answered.err()).isZero();
    assertThat(answered.err()).isEqualTo("tape any\n");
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(journal.statusCode()).isEqualTo(200);
    assertThat(s.serve().plane().server().isRunning()).isTrue();
  }

  /**
   * Requests without the secret never reach the journal, so however many come, they push no
   * invocation out of it (its limit counts the requests with the secret only): the invocations and
   * the unused tapes stay exact.
   */
  @Test
  void refusedRequestsPushNoInvocationOutOfTheJournal() throws Exception {
    Out s = serve("--journal-limit", "10");
    HttpResponse<String> queued =
        call(s.serve(), "POST", Serve.PATH + "/queue", "builtin:usage-limit", true);
    Runs.Result run = fake(url(s.serve()), "-p", "--trust", "--output-format", "json", "hi");
    List<Integer> refused = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      refused.add(call(s.serve(), "GET", Serve.PATH + "/invocations", null, false).statusCode());
    }

    HttpResponse<String> invocations =
        call(s.serve(), "GET", Serve.PATH + "/invocations", null, true);
    HttpResponse<String> unused = call(s.serve(), "GET", Serve.PATH + "/unused", null, true);

    assertThat(queued.statusCode()).isEqualTo(201);
    assertThat(run.exit()).as(run.err()).isEqualTo(1);
    assertThat(refused).hasSize(30).containsOnly(401);
    assertThat(invocations.body())
        .startsWith("{\"invocations\":[{\"argv\":[\"-p\",\"--trust\"")
        .contains("\"tape\":\"builtin:usage-limit\"");
    assertThat(unused.body()).isEqualTo("{\"unused\":[]}");
  }

  /**
   * The process that started serve is the one its launcher saw ({@code -Dagentdouble.parent}), else
   * the JVM's parent.
   */
  @Test
  void theParentIsTheLaunchersElseTheJvms() {
    long jvms = ProcessHandle.current().parent().orElseThrow().pid();

    assertThat(Lifeline.startedBy("4242")).isEqualTo(4242);
    assertThat(Lifeline.startedBy(null)).isEqualTo(jvms);
    assertThat(Lifeline.startedBy("")).isEqualTo(jvms);
    assertThat(Lifeline.startedBy("not a pid")).isEqualTo(jvms);
  }

  /** The same folder answers the same invocations as AGENTDOUBLE_TAPES=DIR does. */
  @Test
  void matchesAsAgentdoubleTapesDoes() throws IOException {
    Path folder = tapes("t");
    tape(folder, "10-start", "{\"prompt\":\"^second line\"}", 10);
    tape(folder, "20-dot", "{\"prompt\":\"alpha.beta\"}", 20);
    tape(
        folder,
        "30-deploy",
        "{\"prompt\":\"(?i)deploy\\\\s+now\",\"argv\":[\"--force\"],"
            + "\"outputFormat\":\"text\",\"model\":\"gpt-5.5-medium\"}",
        30);
    tape(folder, "40-json", "{\"outputFormat\":\"json\"}", 40);
    tape(
        folder,
        "50-quoted",
        "{\"argv\":[\"--model=we\\\"ird\\\\x\"],\"model\":\"we\\\"ird\\\\x\"}",
        50);
    tape(folder, "60-multi", "{\"prompt\":\"two$\"}", 60);
    Out s = serve("--tapes", folder.toString());
    // the account's models: the 2026.10 CLI refuses a model it does not list
    Path profile = dir.resolve("profile.json");
    Files.writeString(
        profile,
        "{\"models\":[{\"id\":\"gpt-5.5-medium\",\"name\":\"GPT-5.5 1M\"},"
            + "{\"id\":\"we\\\"ird\\\\x\",\"name\":\"Weird\"}]}");
    Map<String, String> viaUrl = new LinkedHashMap<>(url(s.serve()));
    viaUrl.put("AGENTDOUBLE_PROFILE", profile.toString());
    Map<String, String> viaTapes =
        Map.of(
            "AGENTDOUBLE_TAPES",
            folder.toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_PROFILE",
            profile.toString());
    List<String[]> invocations =
        List.of(
            new String[] {"-p", "--trust", "--output-format", "stream-json", "second line here"},
            new String[] {
              "-p", "--trust", "--output-format", "stream-json", "first line\nsecond line"
            },
            new String[] {"-p", "--trust", "--output-format", "stream-json", "xx alpha-beta yy"},
            new String[] {"-p", "--trust", "--output-format", "stream-json", "alpha\nbeta"},
            new String[] {
              "-p",
              "--trust",
              "--force",
              "--model",
              "gpt-5.5-medium",
              "--output-format",
              "text",
              "please DEPLOY \n now"
            },
            new String[] {
              "-p", "--trust", "--model", "gpt-5.5-medium", "--output-format", "text", "deploy now"
            },
            new String[] {"-p", "--trust", "--output-format", "json", "report"},
            new String[] {"-p", "--trust", "--output-format", "stream-json", "report"},
            new String[] {
              "-p", "--trust", "--output-format", "stream-json", "--model=we\"ird\\x", "go"
            },
            new String[] {
              "-p", "--trust", "--output-format", "stream-json", "--model", "we\"ird\\x", "go"
            },
            new String[] {"-p", "--trust", "--output-format", "stream-json", "one\ntwo"});

    List<String> viaServe = new ArrayList<>();
    List<String> viaFolder = new ArrayList<>();
    for (String[] args : invocations) {
      Runs.Result a = fake(viaUrl, args);
      Runs.Result b = fake(viaTapes, args);
      viaServe.add(a.exit() + " " + (a.exit() == 70 ? "(no tape)" : a.err().strip()));
      viaFolder.add(b.exit() + " " + (b.exit() == 70 ? "(no tape)" : b.err().strip()));
    }

    assertThat(viaServe).isEqualTo(viaFolder);
    assertThat(viaServe)
        .containsExactly(
            "10 tape 10-start",
            "70 (no tape)",
            "20 tape 20-dot",
            "70 (no tape)",
            "30 tape 30-deploy",
            "70 (no tape)",
            "40 tape 40-json",
            "70 (no tape)",
            "50 tape 50-quoted",
            "70 (no tape)",
            "60 tape 60-multi");
  }

  /**
   * The fake run as {@code claude} asks the same server: its invocation is matched by the folder's
   * tapes, answered with a Claude tape in the format it asked for, and journaled.
   */
  @Test
  void aClaudeRunIsMatchedAnsweredAndJournaled() throws Exception {
    Path folder = tapes("t");
    String claudeTape;
    try (InputStream in = ServeTest.class.getResourceAsStream("/tapes/claude-hello.tape.ndjson")) {
      claudeTape = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    Files.writeString(
        folder.resolve("a-claude.tape.ndjson"),
        claudeTape.replaceFirst(
            "^\\{\"tape\":1,", "{\"tape\":1,\"match\":{\"prompt\":\"hello\"},"));
    tape(folder, "b-catch-all", null, 2);
    Out s = serve("--tapes", folder.toString());
    Path journal = dir.resolve("journal.ndjson");
    Map<String, String> env = new LinkedHashMap<>(url(s.serve()));
    env.put("AGENTDOUBLE_JOURNAL", journal.toString());

    Runs.Result run =
        claude(env, "-p", "--output-format", "json", "--model", "sonnet", "Say hello");
    HttpResponse<String> invocations =
        call(s.serve(), "GET", Serve.PATH + "/invocations", null, true);

    assertThat(s.err()).contains(" to the fake's cursor-agent and claude; ");
    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).startsWith("{\"type\":\"result\"").contains("Hello from the tape.");
    assertThat(invocations.body())
        .startsWith(
            "{\"invocations\":[{\"argv\":[\"-p\",\"--output-format\",\"json\",\"--model\",\"sonnet\",\"Say hello\"]")
        .contains("\"model\":\"sonnet\"", "\"tape\":\"a-claude.tape.ndjson\"");
    assertThat(Files.readString(journal))
        .contains("\"tape\":\"AGENTDOUBLE_URL tape a-claude.tape.ndjson\"");
  }

  @Test
  void theFirstTapeByFileNameWinsAndATapeWithoutMatchTakesEverything() throws IOException {
    Path folder = tapes("t");
    tape(folder, "b-catch-all", null, 2);
    tape(folder, "a-specific", "{\"prompt\":\"special\"}", 1);
    tape(folder, "c-never", null, 3);
    Out s = serve("--tapes", folder.toString());
    Path journal = dir.resolve("journal.ndjson");
    Map<String, String> env = new LinkedHashMap<>(url(s.serve()));
    env.put("AGENTDOUBLE_JOURNAL", journal.toString());

    Runs.Result special =
        fake(env, "-p", "--trust", "--output-format", "stream-json", "a special request");
    Runs.Result other =
        fake(env, "-p", "--trust", "--output-format", "stream-json", "anything else");

    assertThat(s.serve().tapes())
        .containsExactly(
            "a-specific.tape.ndjson", "b-catch-all.tape.ndjson", "c-never.tape.ndjson");
    assertThat(special.exit()).isEqualTo(1);
    assertThat(other.exit()).isEqualTo(2);
    assertThat(Files.readString(journal))
        .contains("\"tape\":\"AGENTDOUBLE_URL tape a-specific.tape.ndjson\"")
        .contains("\"tape\":\"AGENTDOUBLE_URL tape b-catch-all.tape.ndjson\"");
  }

  @Test
  void anUnmatchedInvocationGetsANearMissInItsOwnTermsWhichTheFakePrints() throws IOException {
    Path folder = tapes("t");
    tape(folder, "deploy", "{\"prompt\":\"deploy\",\"model\":\"gpt-5.5-medium\"}", 0);
    Out s = serve("--tapes", folder.toString());

    Runs.Result r =
        fake(
            url(s.serve()),
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "--model",
            "gpt-5.4-medium",
            "deploy it");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith(
            "agentdouble: the control server ("
                + s.serve().url()
                + ") has no tape for this invocation (HTTP 404):")
        .contains(
            "(HTTP 404):\nno stub, queued tape or tape of the folder answers prompt \"deploy it\","
                + " stream-json, model gpt-5.4-medium, argv [\"-p\",\"--trust\",\"--output-format\","
                + "\"stream-json\",\"--model\",\"gpt-5.4-medium\",\"deploy it\"], cwd ")
        .contains(
            "\nnothing was enqueued\nclosest: deploy.tape.ndjson; it missed: model gpt-5.5-medium, was"
                + " \"gpt-5.4-medium\"\n");
    // the working folder the report names is the run's, wherever the checkout lives (a clone
    // named agentdouble has /agentdouble/ in it): taken out before the HTTP paths are looked for
    String cwd = Path.of("").toAbsolutePath().toString();
    assertThat(r.err()).contains(", cwd " + cwd + "\n");
    assertThat(r.err().substring(r.err().indexOf("(HTTP 404)")).replace(", cwd " + cwd, ""))
        .doesNotContain("Request was not matched", "$.", "/agentdouble/");
  }

  @Test
  void timingRewritesTheServedTapes() throws IOException {
    Path folder = tapes("t");
    Files.writeString(
        folder.resolve("slow.tape.ndjson"),
        "{\"tape\":1}\n"
            + "{\"t\":0,\"outRaw\":\"first\\n\"}\n"
            + "{\"t\":86400000,\"outRaw\":\"late\\n\"}\n"
            + "{\"t\":86400001,\"exit\":0}\n");
    Out s = serve("--tapes", folder.toString(), "--timing", "fast");

    // a day of recorded time: played as recorded, the run would outlast the 60 s the test gives
    // it and fail; served as fast, it ends at once. No clock is read, so load cannot fail it.
    Runs.Result r =
        fake(
            Map.of(
                "AGENTDOUBLE_URL",
                s.serve().url(),
                "AGENTDOUBLE_SECRET",
                s.serve().plane().secret()),
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "hi");

    assertThat(r.out()).isEqualTo("first\nlate\n");
    assertThat(r.exit()).isZero();
  }

  @Test
  void retimingFollowsTheFakesPolicies() {
    Tape tape =
        new Tape(
            Header.empty(),
            List.of(
                Frame.OutBytes.text(100, "a"),
                Frame.OutBytes.text(1000, "b"),
                Frame.OutBytes.text(1050, "c"),
                new Frame.Exit(3001, 0)));

    assertThat(times(ServeApi.retime(tape, Timing.parse("fast")))).containsExactly(0L, 0L, 0L, 0L);
    assertThat(times(ServeApi.retime(tape, Timing.parse("recorded"))))
        .containsExactly(100L, 1000L, 1050L, 3001L);
    assertThat(times(ServeApi.retime(tape, Timing.parse("scale:0.5"))))
        .containsExactly(50L, 500L, 525L, 1501L);
    assertThat(times(ServeApi.retime(tape, Timing.parse("max-gap:200"))))
        .containsExactly(100L, 300L, 350L, 550L);
  }

  private static List<Long> times(Tape tape) {
    return tape.frames().stream().map(Frame::t).toList();
  }

  @Test
  void aGivenPortIsUsed() throws IOException {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }

    Out s = serve("--tapes", folder.toString(), "--port", Integer.toString(port));

    assertThat(s.status()).as(s.err()).isZero();
    assertThat(s.out())
        .isEqualTo(
            "AGENTDOUBLE_URL=http://127.0.0.1:"
                + port
                + "/agentdouble/serve\n"
                + "AGENTDOUBLE_SECRET="
                + s.serve().plane().secret()
                + "\n");
  }

  @Test
  void aPortInUseFailsWithOneLine() throws IOException {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Out s = serve("--tapes", folder.toString(), "--port", Integer.toString(taken.getLocalPort()));

      assertThat(s.status()).isEqualTo(1);
      assertThat(s.out()).isEmpty();
      assertThat(s.err())
          .startsWith("agentdouble: cannot listen on 127.0.0.1:" + taken.getLocalPort() + ": ")
          .doesNotContain("\tat ")
          .hasLineCount(1);
    }
  }

  @Test
  void aBadTapeIsNamedWithItsLineAndNothingIsServed() throws IOException {
    Path folder = tapes("t");
    tape(folder, "a-good", null, 0);
    Files.writeString(
        folder.resolve("b-bad.tape.ndjson"),
        "{\"tape\":1}\n" + "{\"t\":5,\"outRaw\":\"x\"}\n" + "{\"t\":3,\"exit\":0}\n");

    Out s = serve("--tapes", folder.toString());

    assertThat(s.status()).isEqualTo(1);
    assertThat(s.serve()).isNull();
    assertThat(s.out()).isEmpty();
    assertThat(s.err())
        .isEqualTo(
            "agentdouble: "
                + folder.resolve("b-bad.tape.ndjson")
                + ":3: \"t\" went back from 5 to 3; frame times never decrease\n");
  }

  @Test
  void aBadMatchRuleIsABadTape() throws IOException {
    Path folder = tapes("t");
    Files.writeString(
        folder.resolve("a.tape.ndjson"),
        "{\"tape\":1,\"match\":{\"prompt\":\"(\"}}\n" + "{\"t\":0,\"exit\":0}\n");

    Out s = serve("--tapes", folder.toString());

    assertThat(s.status()).isEqualTo(1);
    assertThat(s.err())
        .startsWith(
            "agentdouble: "
                + folder.resolve("a.tape.ndjson")
                + ":1: match.prompt is not a valid regular expression")
        .hasLineCount(1);
  }

  @Test
  void aFolderWithoutTapesOrNoFolderFails() throws IOException {
    Path empty = tapes("empty");

    Out none = serve("--tapes", empty.toString());
    Out missing = serve("--tapes", dir.resolve("missing").toString());

    assertThat(none.status()).isEqualTo(1);
    assertThat(none.err())
        .isEqualTo("agentdouble: " + empty + ": no *.tape.ndjson files in the folder\n");
    assertThat(missing.status()).isEqualTo(1);
    assertThat(missing.err())
        .isEqualTo("agentdouble: " + dir.resolve("missing") + ": no such folder\n");
  }

  @Test
  void usageErrorsExit2WithAPointerToHelp() {
    assertThat(serve("--tapes="))
        .satisfies(
            o -> {
              assertThat(o.status()).isEqualTo(2);
              assertThat(o.err())
                  .isEqualTo(
                      "agentdouble: --tapes needs a folder of "
                          + "*.tape.ndjson files\nRun 'agentdouble serve --help' for usage.\n");
            });
    assertThat(serve("--tapes", "t", "--port", "x").err())
        .startsWith("agentdouble: --port must be a number from 0 to 65535");
    assertThat(serve("--tapes", "t", "--timing", "slow").err())
        .startsWith("agentdouble: --timing must be fast, recorded, scale:F");
    assertThat(serve("--tapes").err()).startsWith("agentdouble: --tapes needs a value");
    assertThat(serve("--verbose").err()).startsWith("agentdouble: unknown option '--verbose'");
    assertThat(serve("--tapes", "t", "extra").status()).isEqualTo(2);
  }

  @Test
  void helpGoesToStdout() {
    Out o = serve("--help");

    assertThat(o.status()).isZero();
    assertThat(o.out())
        .startsWith("usage: agentdouble serve [--tapes DIR] [--port N] [--timing T]")
        .contains(
            "AGENTDOUBLE_URL=http://127.0.0.1:PORT/agentdouble/serve", "AGENTDOUBLE_SECRET=SECRET");
    assertThat(o.err()).isEmpty();
  }

  /**
   * The journal keeps the last N requests (--journal-limit), so a server that answers a long suite
   * holds a bounded memory; the last ones are there to look into.
   */
  @Test
  void theJournalKeepsTheLastRequestsOnly() throws Exception {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);
    Out s = serve("--tapes", folder.toString(), "--journal-limit", "3");
    HttpClient http = HttpClient.newHttpClient();

    for (int i = 1; i <= 5; i++) {
      HttpResponse<String> answer =
          http.send(
              HttpRequest.newBuilder(URI.create(s.serve().url() + "/invocations"))
                  .header("Content-Type", "application/json")
                  .header(ControlSecret.HEADER, s.serve().plane().secret())
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"argv\":[\"-p\",\"run "
                              + i
                              + "\"],\"prompt\":\"run "
                              + i
                              + "\",\"cwd\":\"/tmp\",\"outputFormat\":"
                              + "\"stream-json\",\"stdin\":\"\",\"pid\":1,\"env\":{}}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).isEqualTo(200);
    }

    assertThat(s.serve().plane().server().getAllServeEvents())
        .extracting(
            e -> e.getRequest().getBodyAsString().replaceAll(".*\"prompt\":\"([^\"]*)\".*", "$1"))
        .containsExactlyInAnyOrder("run 3", "run 4", "run 5");
  }

  @Test
  void theJournalIsBoundedByDefault() throws IOException {
    Path folder = tapes("t");
    tape(folder, "any", null, 0);

    Out s = serve("--tapes", folder.toString());

    assertThat(s.serve().plane().server().getOptions().maxRequestJournalEntries())
        .contains(Serve.JOURNAL_LIMIT);
    assertThat(serve("--tapes", folder.toString(), "--journal-limit", "0").err())
        .isEqualTo(
            "agentdouble: --journal-limit must be a number from 1 to 1000000, was '0'\n"
                + "Run 'agentdouble serve --help' for usage.\n");
  }
}
