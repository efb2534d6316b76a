package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.runIn;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.script.Script;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checks the 2026.10 CLI makes before a print run reaches the server, through the real
 * launcher: the trust gate, the account, the values of options, in the CLI's order and with its
 * texts and exit codes ({@code reference/cursor-cli.md} part 3).
 */
@Timeout(120)
class CliChecksTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ANSWER = "The answer.";

  @TempDir Path dir;
  Path workspace;
  Path tape;
  Path journal;

  @BeforeEach
  void setUp() throws IOException {
    workspace = Files.createDirectories(dir.resolve("work space"));
    tape = dir.resolve("answer.tape.ndjson");
    Script.of("hello").init().user().assistant(ANSWER).result().exit(0).build().write(tape);
    journal = dir.resolve("journal.ndjson");
  }

  /** A fresh machine: nothing trusted, the default profile, a tape that answers. */
  private Map<String, String> fresh(String... more) {
    Map<String, String> env =
        new HashMap<>(
            env(
                "AGENTDOUBLE_TAPE",
                tape.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_JOURNAL",
                journal.toString()));
    env.remove("AGENTDOUBLE_TRUST");
    for (int i = 0; i < more.length; i += 2) {
      env.put(more[i], more[i + 1]);
    }
    return env;
  }

  private JsonNode lastJournalLine() throws IOException {
    List<String> lines = Files.readAllLines(journal);
    return JSON.readTree(lines.get(lines.size() - 1));
  }

  private String physical(Path p) throws IOException {
    return p.toRealPath().toString();
  }

  @Nested
  class TrustGate {
    @Test
    void aPrintRunInAFreshWorkspaceStopsAtTheGateWithTheCliBoxAndExit1() throws IOException {
      FakeProcess.Result r = runIn(workspace, fresh(), "-p", "hello");

      assertThat(r.stdout()).isEmpty();
      assertThat(r.err()).isEqualTo(CursorMessages.trustRequired(physical(workspace)));
      assertThat(r.exit()).isEqualTo(1);
      JsonNode entry = lastJournalLine();
      assertThat(entry.get("stoppedBy").asText()).isEqualTo("trust-gate");
      assertThat(entry.has("tape")).as("no tape is asked for").isFalse();
      assertThat(entry.get("exit").asInt()).isEqualTo(1);
    }

    @Test
    void theBoxHasOneSpaceAfterTheWarningSignAsTheRealCliWritesIt() throws IOException {
      FakeProcess.Result r = runIn(workspace, fresh(), "-p", "hello");

      // e2 9a a0 is the warning sign; real captures of 2026.09.10 and 2026.09.15 show ONE space
      byte[] head = {'\n', (byte) 0xe2, (byte) 0x9a, (byte) 0xa0, ' ', 'W'};
      assertThat(Arrays.copyOf(r.stderr(), head.length)).isEqualTo(head);
      assertThat(r.err()).startsWith("\n\u26a0 Workspace Trust Required\n\n");
    }

    @Test
    void theTrustRequiredTapeStopsARunWithoutAFlagAtTheGateOfItsPhysicalWorkspace()
        throws IOException {
      Path link = Files.createSymbolicLink(dir.resolve("link"), workspace);
      Map<String, String> env =
          fresh("AGENTDOUBLE_TRUST", "trusted", "AGENTDOUBLE_TAPE", "builtin:trust-required");

      FakeProcess.Result r = runIn(link, env, "-p", "--output-format", "stream-json", "go");

      assertThat(r.stdout()).isEmpty();
      assertThat(r.err()).isEqualTo(CursorMessages.trustRequired(physical(workspace)));
      assertThat(r.exit()).isEqualTo(1);
      assertThat(lastJournalLine().get("stoppedBy").asText()).isEqualTo("trust-gate");
    }

    @Test
    void theTrustRequiredTapeLetsTrustYoloAndForcePassAsTheRealGateDoes() {
      Map<String, String> env =
          fresh("AGENTDOUBLE_TRUST", "trusted", "AGENTDOUBLE_TAPE", "builtin:trust-required");

      for (String flag : List.of("--trust", "--yolo", "-f", "--force")) {
        FakeProcess.Result r = runIn(workspace, env, "-p", flag, "go");

        assertThat(r.out()).as(flag).isEqualTo("All 12 tests pass.\n");
        assertThat(r.err()).as(flag).isEmpty();
        assertThat(r.exit()).as(flag).isZero();
      }
    }

    @Test
    void theBoxShowsThePhysicalPathOfTheWorkspaceOption() throws IOException {
      Path link = Files.createSymbolicLink(dir.resolve("link"), workspace);

      FakeProcess.Result r = runIn(dir, fresh(), "-p", "--workspace", link.toString(), "hello");

      assertThat(r.err()).isEqualTo(CursorMessages.trustRequired(physical(workspace)));
    }

    @Test
    void trustPersistsForLaterRunsInThatWorkspaceOnly() throws IOException {
      Path state = dir.resolve("state");
      Path other = Files.createDirectories(dir.resolve("other"));
      Map<String, String> env = fresh("AGENTDOUBLE_STATE_DIR", state.toString());

      FakeProcess.Result trusting = runIn(workspace, env, "-p", "--trust", "hello");
      FakeProcess.Result later = runIn(workspace, env, "-p", "hello");
      FakeProcess.Result elsewhere = runIn(other, env, "-p", "hello");

      assertThat(trusting.out()).isEqualTo(ANSWER + "\n");
      assertThat(later.out()).isEqualTo(ANSWER + "\n");
      assertThat(later.exit()).isZero();
      assertThat(elsewhere.exit()).isEqualTo(1);
      assertThat(elsewhere.err()).isEqualTo(CursorMessages.trustRequired(physical(other)));
    }

    @Test
    void forceAndYoloPassTheGateForOneRunAndPersistNothing() throws IOException {
      Map<String, String> env = fresh("AGENTDOUBLE_STATE_DIR", dir.resolve("state").toString());

      assertThat(runIn(workspace, env, "-p", "-f", "hello").out()).isEqualTo(ANSWER + "\n");
      assertThat(runIn(workspace, env, "-p", "--yolo", "hello").out()).isEqualTo(ANSWER + "\n");
      assertThat(runIn(workspace, env, "-p", "--force", "hello").exit()).isZero();
      assertThat(runIn(workspace, env, "-p", "hello").exit()).isEqualTo(1);
    }

    @Test
    void withoutAStateFolderTrustLastsOneRun() {
      assertThat(runIn(workspace, fresh(), "-p", "--trust", "hello").exit()).isZero();
      assertThat(runIn(workspace, fresh(), "-p", "hello").exit()).isEqualTo(1);
    }

    @Test
    void aTrustedMachineAndProfilesWithoutTheGatePass() throws IOException {
      Path noGate = dir.resolve("profile.json");
      Files.writeString(noGate, "{\"trustGate\":false}");

      assertThat(runIn(workspace, fresh("AGENTDOUBLE_TRUST", "trusted"), "-p", "hello").out())
          .isEqualTo(ANSWER + "\n");
      assertThat(
              runIn(workspace, fresh("AGENTDOUBLE_PROFILE", noGate.toString()), "-p", "hello")
                  .exit())
          .isZero();
      assertThat(runIn(workspace, fresh("AGENTDOUBLE_PROFILE", "documented"), "-p", "hello").exit())
          .isZero();
    }

    @Test
    void aTrustSettingOtherThanTrustedOrUntrustedIsAnOwnProblem() {
      FakeProcess.Result r = runIn(workspace, fresh("AGENTDOUBLE_TRUST", "yes"), "-p", "hello");

      assertThat(r.exit()).isEqualTo(70);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.err())
          .isEqualTo(
              "agentdouble: AGENTDOUBLE_TRUST=yes: use trusted (every"
                  + " workspace already trusted) or untrusted (a fresh machine, the default)\n");
    }

    @Test
    void authenticationIsCheckedBeforeTheGate() throws IOException {
      Path loggedOut = dir.resolve("profile.json");
      Files.writeString(loggedOut, "{\"loggedIn\":false}");

      FakeProcess.Result r =
          runIn(workspace, fresh("AGENTDOUBLE_PROFILE", loggedOut.toString()), "-p", "hello");

      assertThat(r.err()).isEqualTo(CursorMessages.AUTH_REQUIRED);
      assertThat(r.exit()).isEqualTo(1);
    }
  }

  @Nested
  class Validation {
    private FakeProcess.Result trusted(String... args) {
      return runIn(workspace, fresh("AGENTDOUBLE_TRUST", "trusted"), args);
    }

    @Test
    void resumeWithAnIdThatIsNotAUuidFails() throws IOException {
      FakeProcess.Result r = trusted("-p", "--resume", "not-a-uuid", "hello");

      assertThat(r.stdout()).isEmpty();
      assertThat(r.err())
          .isEqualTo(
              "Failed to claim persistent session for chat \"not-a-uuid\":"
                  + " Persistent-session chat ID must be a UUID\n");
      assertThat(r.exit()).isEqualTo(1);
      assertThat(lastJournalLine().get("stoppedBy").asText()).isEqualTo("resume");
    }

    @Test
    void resumeWithAnUnknownValidUuidStartsASessionUnderThatId() {
      String id = "0f8c2d3e-1111-4222-8333-444455556666";

      FakeProcess.Result r =
          trusted("-p", "--output-format", "stream-json", "--resume", id, "hello");

      assertThat(r.exit()).isZero();
      assertThat(r.out()).contains("\"session_id\":\"" + id + "\"");
    }

    @Test
    void newSessionIdMustBeAUuidV4AndIsSingleUse() {
      Map<String, String> env =
          fresh(
              "AGENTDOUBLE_TRUST",
              "trusted",
              "AGENTDOUBLE_STATE_DIR",
              dir.resolve("state").toString());
      String id = "51ef1d1c-35c6-4afd-9c91-a04f0aed009d";

      FakeProcess.Result notV4 =
          runIn(
              workspace,
              env,
              "-p",
              "--new-session-id",
              "51ef1d1c-35c6-1afd-9c91-a04f0aed009d",
              "hello");
      FakeProcess.Result first =
          runIn(
              workspace,
              env,
              "-p",
              "--output-format",
              "stream-json",
              "--new-session-id",
              id,
              "hello");
      FakeProcess.Result again = runIn(workspace, env, "-p", "--new-session-id", id, "hello");

      assertThat(notV4.exit()).isEqualTo(1);
      assertThat(notV4.err())
          .isEqualTo(CursorMessages.newSessionIdNotUuidV4("51ef1d1c-35c6-1afd-9c91-a04f0aed009d"));
      assertThat(first.exit()).isZero();
      assertThat(first.out()).contains("\"session_id\":\"" + id + "\"");
      assertThat(again.exit()).isEqualTo(1);
      assertThat(again.err()).isEqualTo("Error: Session ID \"" + id + "\" is already in use.\n");
    }

    @Test
    void unknownAllowedToolsListTheValidNamesAndRunNothingWithExit0() {
      FakeProcess.Result bogus =
          trusted(
              "-p", "--allowed-tools", "shell_tool_call,bogus", "--allowed-tools", "nope", "hello");
      FakeProcess.Result valid =
          trusted("-p", "--allowed-tools", "shell_tool_call, read_tool_call", "hello");

      assertThat(bogus.stdout()).isEmpty();
      assertThat(bogus.err())
          .startsWith(
              "Invalid --allowed-tools value(s): bogus, nope. Expected"
                  + " one of: shell_tool_call, delete_tool_call, glob_tool_call, ")
          .endsWith(", write_canvas_tool_call, read_canvas_tool_call\n");
      assertThat(bogus.exit()).isZero();
      assertThat(CursorMessages.TOOL_NAMES).hasSize(69);
      assertThat(valid.out()).isEqualTo(ANSWER + "\n");
    }

    @Test
    void aMissingConversationHistoryFileIsReportedAndNothingRunsWithExit0() throws IOException {
      Files.writeString(workspace.resolve("h.json"), "{}");

      FakeProcess.Result missing =
          trusted("-p", "--conversation-history-file", "/tmp/nope.json", "hello");
      FakeProcess.Result present = trusted("-p", "--conversation-history-file", "h.json", "hello");

      assertThat(missing.stdout()).isEmpty();
      assertThat(missing.err())
          .isEqualTo(
              "Invalid conversation history: ENOENT: no such file or"
                  + " directory, open '/tmp/nope.json'\n");
      assertThat(missing.exit()).isZero();
      assertThat(present.out()).isEqualTo(ANSWER + "\n");
    }

    @Test
    void aConversationHistoryFileThatIsNotAConversationHistoryIsRefusedWithExit1()
        throws IOException {
      Files.writeString(workspace.resolve("text.json"), "not json at all");
      Files.writeString(workspace.resolve("array.json"), "[]");
      Files.writeString(
          workspace.resolve("good.json"),
          "{\"messages\":[{\"user\":{\"content\":[{\"text\":{\"text\":\"Hi\"}}]}}]}");

      FakeProcess.Result text = trusted("-p", "--conversation-history-file", "text.json", "hello");
      FakeProcess.Result array =
          trusted("-p", "--conversation-history-file", "array.json", "hello");

      // the CLI's words (cagase/dsh-cursor docs/live-cli-contract.md, section 5.3)
      assertThat(text.stdout()).isEmpty();
      assertThat(text.err())
          .isEqualTo(
              "Invalid conversation history: cannot decode agent.v1.ConversationHistory from JSON:"
                  + " Unexpected token 'o', \"not json at all\" is not valid JSON\n");
      assertThat(text.exit()).isEqualTo(1);
      assertThat(array.stdout()).isEmpty();
      assertThat(array.err())
          .isEqualTo(
              "Invalid conversation history: cannot decode message"
                  + " agent.v1.ConversationHistory from JSON: array\n");
      assertThat(array.exit()).isEqualTo(1);
      assertThat(lastJournalLine().get("stoppedBy").asText())
          .isEqualTo("conversation-history-file");
      assertThat(trusted("-p", "--conversation-history-file", "good.json", "hello").out())
          .isEqualTo(ANSWER + "\n");
    }

    @Test
    void aSystemPromptFileMustExistAndHaveContent() throws IOException {
      Files.writeString(workspace.resolve("empty.txt"), "");

      FakeProcess.Result missing = trusted("-p", "--system-prompt", "nope.txt", "hello");
      FakeProcess.Result empty = trusted("-p", "--system-prompt", "empty.txt", "hello");

      assertThat(missing.err())
          .isEqualTo(
              "Error: --system-prompt file not found: " + workspace.resolve("nope.txt") + "\n");
      assertThat(missing.exit()).isEqualTo(1);
      assertThat(empty.err())
          .isEqualTo(
              "Error: --system-prompt file is empty: " + workspace.resolve("empty.txt") + "\n");
      assertThat(empty.exit()).isEqualTo(1);
    }

    @Test
    void aReadableSystemPromptFileRunsTheTapeTheTestChose() throws IOException {
      Files.writeString(workspace.resolve("system.txt"), "You are terse.");

      FakeProcess.Result r = trusted("-p", "--system-prompt", "system.txt", "hello");

      assertThat(r.out()).isEqualTo(ANSWER + "\n");
      assertThat(r.err()).isEmpty();
      assertThat(r.exit()).isZero();
      assertThat(lastJournalLine().has("stoppedBy")).isFalse();
    }

    @Test
    void theServersRefusalOfASystemPromptIsTheCatalogTapeSystemPromptRefused() throws IOException {
      Files.writeString(workspace.resolve("system.txt"), "You are terse.");
      Map<String, String> refusing =
          fresh(
              "AGENTDOUBLE_TRUST", "trusted", "AGENTDOUBLE_TAPE", "builtin:system-prompt-refused");

      FakeProcess.Result stream =
          runIn(
              workspace,
              refusing,
              "-p",
              "--output-format",
              "stream-json",
              "--system-prompt",
              "system.txt",
              "hello");
      FakeProcess.Result text =
          runIn(workspace, refusing, "-p", "--system-prompt", "system.txt", "hello");

      List<String> kinds = new ArrayList<>();
      for (String line : stream.out().split("\n")) {
        JsonNode event = JSON.readTree(line);
        kinds.add(event.get("type").asText() + "/" + event.path("subtype").asText(""));
      }
      assertThat(kinds)
          .containsExactly(
              "system/init",
              "user/",
              "connection/reconnecting",
              "retry/starting",
              "connection/reconnected",
              "connection/reconnecting",
              "retry/starting",
              "connection/reconnected",
              "connection/reconnecting",
              "retry/starting",
              "connection/reconnected");
      assertThat(stream.out()).contains("\"text\":\"hello\"").doesNotContain("\"type\":\"result\"");
      assertThat(stream.err()).isEqualTo(CursorMessages.SYSTEM_PROMPT_REJECTED);
      assertThat(stream.exit()).isEqualTo(1);
      assertThat(text.out()).as("the retry lines of text mode go to stderr").isEmpty();
      assertThat(text.err())
          .isEqualTo(
              CursorMessages.reconnecting(CursorMessages.AGENT_ENDPOINT, 1)
                  + CursorMessages.retrying(1)
                  + CursorMessages.reconnecting(CursorMessages.AGENT_ENDPOINT, 2)
                  + CursorMessages.retrying(2)
                  + CursorMessages.reconnecting(CursorMessages.AGENT_ENDPOINT, 3)
                  + CursorMessages.retrying(3)
                  + CursorMessages.SYSTEM_PROMPT_REJECTED);
      assertThat(text.exit()).isEqualTo(1);
    }

    @Test
    void aModelWithBracketParametersCannotBeUsed() {
      FakeProcess.Result r = trusted("-p", "--model", "grok-4.7[effort=max]", "hello");

      assertThat(r.stdout()).isEmpty();
      assertThat(r.err())
          .startsWith(
              "Cannot use this model: grok-4.7[effort=max]. Available"
                  + " models: auto, gpt-5.3-codex-low, gpt-5.3-codex-low-fast, ")
          .endsWith(", glm-5.2-high, glm-5.2-max\n");
      assertThat(r.err().lines()).hasSize(1);
      assertThat(r.exit()).isEqualTo(1);
    }

    @Test
    void anInvalidApiKeyWarnsInYellowAndExits1() throws IOException {
      Path profile = dir.resolve("profile.json");
      Files.writeString(profile, "{\"apiKeyValid\":false}");
      Map<String, String> env =
          fresh(
              "AGENTDOUBLE_TRUST",
              "trusted",
              "AGENTDOUBLE_PROFILE",
              profile.toString(),
              "TERM",
              "dumb");

      FakeProcess.Result byFlag = runIn(workspace, env, "-p", "--api-key", "key_bad", "hello");
      env.put("CURSOR_API_KEY", "key_bad");
      FakeProcess.Result byEnv = runIn(workspace, env, "-p", "hello");

      assertThat(byFlag.err())
          .isEqualTo("\u001b[33m⚠ Warning: The provided API key is invalid.\u001b[39m\n");
      assertThat(byFlag.exit()).isEqualTo(1);
      assertThat(byEnv.err()).isEqualTo(byFlag.err());
    }

    @Test
    void theAccountIsCheckedBeforeTheOutputFormatUnder2026_10ButNotUnderTheDocumentedProfile()
        throws IOException {
      Path loggedOut = dir.resolve("out.json");
      Files.writeString(loggedOut, "{\"loggedIn\":false}");
      Path documentedOut = dir.resolve("documented-out.json");
      Files.writeString(documentedOut, "{\"base\":\"documented\",\"loggedIn\":false}");
      String invalid =
          "error: option '--output-format <format>' argument 'yaml' is invalid."
              + " Allowed choices are text, json, stream-json.\n";

      FakeProcess.Result accountFirst =
          runIn(
              workspace,
              fresh("AGENTDOUBLE_PROFILE", loggedOut.toString()),
              "-p",
              "--output-format",
              "yaml",
              "hello");
      FakeProcess.Result format = trusted("-p", "--output-format", "yaml", "hello");
      FakeProcess.Result parsedFirst =
          runIn(
              workspace,
              fresh("AGENTDOUBLE_PROFILE", documentedOut.toString()),
              "-p",
              "--output-format",
              "yaml",
              "hello");

      assertThat(accountFirst.err()).isEqualTo(CursorMessages.AUTH_REQUIRED);
      assertThat(format.err()).isEqualTo(invalid);
      assertThat(format.exit()).isEqualTo(1);
      assertThat(format.stdout()).isEmpty();
      assertThat(parsedFirst.err()).isEqualTo(invalid);
      assertThat(parsedFirst.exit()).isEqualTo(1);
    }

    @Test
    void withoutAPromptThePrintRunFails() {
      FakeProcess.Result r = trusted("-p");

      assertThat(r.stdout()).isEmpty();
      assertThat(r.err()).isEqualTo(CursorMessages.NO_PROMPT);
      assertThat(r.exit()).isEqualTo(1);
    }

    @Test
    void hiddenOptionsWithoutAVisibleEffectRunAsUsual() {
      FakeProcess.Result r =
          trusted(
              "-p",
              "--single-turn",
              "--printenv",
              "--background-shell-timeout",
              "5",
              "--exclude-tools",
              "bogus",
              "hello");

      assertThat(r.out()).isEqualTo(ANSWER + "\n");
      assertThat(r.exit()).isZero();
    }
  }

  @Nested
  class ApiKeySource {
    private String source(Map<String, String> env, String... args) throws IOException {
      List<String> all = new ArrayList<>(List.of("-p", "--output-format", "stream-json"));
      all.addAll(List.of(args));
      all.add("hello");
      FakeProcess.Result r = runIn(workspace, env, all.toArray(String[]::new));
      return JSON.readTree(r.out().split("\n")[0]).get("apiKeySource").asText();
    }

    @Test
    void followsHowTheKeyWasGiven() throws IOException {
      Map<String, String> trusted = fresh("AGENTDOUBLE_TRUST", "trusted");
      Map<String, String> withEnvKey =
          fresh("AGENTDOUBLE_TRUST", "trusted", "CURSOR_API_KEY", "key_123456789");

      assertThat(source(trusted)).isEqualTo("login"); // the tape's value
      assertThat(source(withEnvKey)).isEqualTo("env");
      assertThat(source(trusted, "--api-key", "key_123456789")).isEqualTo("flag");
      assertThat(source(withEnvKey, "--api-key", "key_123456789")).isEqualTo("flag");
    }
  }

  @Nested
  class ControlPlane {
    @Test
    void aRunStoppedBeforeItsTapeIsReportedSoTheTestSeesEveryInvocation() throws IOException {
      List<String> bodies = new CopyOnWriteArrayList<>();
      List<String> paths = new CopyOnWriteArrayList<>();
      HttpServer server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            paths.add(exchange.getRequestURI().getPath());
            bodies.add(
                new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
          });
      server.start();
      try {
        String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/agentdouble/t1";
        Map<String, String> env = fresh("AGENTDOUBLE_URL", url);
        env.remove("AGENTDOUBLE_TAPE");

        FakeProcess.Result r = runIn(workspace, env, "-p", "hello");

        assertThat(r.exit()).isEqualTo(1);
        assertThat(paths).containsExactly("/agentdouble/t1/invocations/stopped");
        JsonNode body = JSON.readTree(bodies.get(0));
        assertThat(body.get("prompt").asText()).isEqualTo("hello");
        assertThat(body.get("stoppedBy").asText()).isEqualTo("trust-gate");
        assertThat(body.get("cli").asText()).isEqualTo("cursor-agent");
        assertThat(body.has("sessionId")).isFalse(); // stopped before a session was made
      } finally {
        server.stop(0);
      }
    }
  }
}
