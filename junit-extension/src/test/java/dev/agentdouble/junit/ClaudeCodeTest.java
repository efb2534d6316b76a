package dev.agentdouble.junit;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static dev.agentdouble.junit.TextMatch.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A test's fake plays Claude Code through {@link FakeAgent#claudeExecutable()}: stubs, the queue,
 * gates, verification, strictness and the diagnoses serve its runs as they serve Cursor's, with a
 * Claude tape ({@code "cli":"claude"}, recorded in stream-json) that the fake renders in the format
 * each run asks for.
 */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class ClaudeCodeTest {
  static final String TAPE = "tapes/claude-hello.tape.ndjson";

  static final String UUID = "11111111-2222-4333-8444-555555555555";

  static Tape hello() {
    try (InputStream in = ClaudeCodeTest.class.getResourceAsStream("/" + TAPE)) {
      return TapeReader.read(TAPE, in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** docs/junit.md's example. */
  @Test
  void answersAClaudeRun(FakeAgent agent) {
    agent
        .when(invocation().prompt(containing("hello")))
        .replyResource("tapes/claude-hello.tape.ndjson");

    Runs.Result run =
        Runs.run(agent.claudeExecutable(), "-p", "--output-format", "json", "Say hello");

    assertThat(run.out()).contains("\"result\":\"Hello from the tape.\"");
    agent.verify(1, invocation().outputFormat("json").prompt(equalTo("Say hello")));
  }

  @Test
  void theBinFolderHoldsClaudeBesideCursorAgentAndTheNameTheRunIsStartedByPicksTheCli(
      FakeAgent agent) {
    Runs.Result claude = Runs.run(agent.claudeExecutable(), "--version");
    Runs.Result cursor = Runs.run(agent.executable(), "--version");

    assertThat(agent.claudeExecutable()).isEqualTo(agent.binDir().resolve("claude")).isExecutable();
    assertThat(claude.out()).isEqualTo("2.1.328 (Claude Code)\n");
    assertThat(cursor.out()).isNotEqualTo(claude.out());
    assertThat(agent.environment().get("PATH")).startsWith(agent.binDir().toString());
  }

  @Test
  void aStubAnswersClaudeRunsInTheFormatEachAsksAndTheInvocationsSayWhatWasAsked(FakeAgent agent) {
    agent.when(invocation().prompt(containing("hello"))).replyResource(TAPE).repeatLast();

    Runs.Result json =
        Runs.run(
            agent.claudeExecutable(),
            "-p",
            "--output-format",
            "json",
            "--model",
            "sonnet",
            "Say hello");
    Runs.Result text = Runs.run(agent.claudeExecutable(), "-p", "Say hello again");
    Runs.Result stream =
        Runs.run(
            agent.claudeExecutable(),
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "hello, streamed");

    assertThat(json.exit()).as(json.err()).isZero();
    assertThat(json.out()).startsWith("{\"type\":\"result\"").contains("Hello from the tape.");
    assertThat(text.out()).isEqualTo("Hello from the tape.\n");
    assertThat(stream.out().lines()).hasSize(3).first().asString().contains("\"subtype\":\"init\"");
    Invocation first = agent.takeInvocation();
    assertThat(first.prompt()).isEqualTo("Say hello");
    assertThat(first.model()).contains("sonnet");
    assertThat(first.outputFormat()).isEqualTo("json");
    assertThat(first.stoppedBy()).isEmpty();
    assertThat(agent.takeInvocation().outputFormat()).isEqualTo("text");
    assertThat(agent.takeInvocation().outputFormat()).isEqualTo("stream-json");
    agent.verify(1, invocation().model(equalTo("sonnet")).outputFormat("json"));
    agent.verify(3, invocation().argv("-p"));
  }

  @Test
  void sessionsAreMatchedOnTheirArgvAndTheQueueAnswersInOrder(FakeAgent agent) {
    agent.when(invocation().argv("--resume")).reply(hello());
    agent.enqueue(hello());

    Runs.Result resumed =
        Runs.run(agent.claudeExecutable(), "-p", "--resume", UUID, "--model", "opus", "go on");
    Runs.Result forked =
        Runs.run(
            agent.claudeExecutable(),
            "-p",
            "--continue",
            "--fork-session",
            "--session-id",
            UUID,
            "branch off");

    assertThat(resumed.out()).isEqualTo("Hello from the tape.\n");
    assertThat(forked.out()).isEqualTo("Hello from the tape.\n");
    agent.verify(1, invocation().argv("--resume").argv(UUID).model(equalTo("opus")));
    agent.verify(1, invocation().argv("--fork-session").prompt(equalTo("branch off")));
  }

  @Test
  void aRunTheCliRefusesIsAnInvocationStoppedByTheCheck(FakeAgent agent) {
    Runs.Result refused =
        Runs.run(agent.claudeExecutable(), "-p", "--output-format", "stream-json", "hi");

    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err()).contains("--verbose");
    assertThat(agent.takeInvocation().stoppedBy()).contains("verbose-needed");
    agent.verify(1, invocation().prompt(equalTo("hi")).stoppedBy("verbose-needed"));
  }

  @Test
  void anInvocationSaysItsCliAndTheSessionItAskedForOrWasGiven(FakeAgent agent) {
    agent.when(invocation().cli("claude")).reply(hello()).repeatLast();
    agent.when(invocation().cli("cursor-agent")).reply(FakeAgentTest.says("cursor", 0));

    Runs.Result given = Runs.run(agent.claudeExecutable(), "-p", "--session-id", UUID, "one");
    Runs.Result fresh = Runs.run(agent.claudeExecutable(), "-p", "--output-format", "json", "two");
    Runs.Result cursor = Runs.run(agent.executable(), "-p", "--trust", "three");

    assertThat(given.exit()).as(given.err()).isZero();
    assertThat(cursor.out()).isEqualTo("cursor\n");
    Invocation first = agent.takeInvocation();
    assertThat(first.cli()).isEqualTo("claude");
    assertThat(first.session()).contains(UUID);
    Invocation second = agent.takeInvocation();
    assertThat(fresh.exit()).as(fresh.err()).isZero();
    assertThat(second.session())
        .get()
        .asString()
        .matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    Invocation third = agent.takeInvocation();
    assertThat(third.cli()).isEqualTo("cursor-agent");
    assertThat(third.session()).isPresent();
    agent.verify(2, invocation().cli("claude"));
    agent.verify(1, invocation().cli("claude").session(equalTo(UUID)));
    agent.verify(0, invocation().session(TextMatch.absent()));
  }

  @Test
  void eachRunTheCliRefusesBeforeItsPromptIsAnInvocationStoppedByItsCheck(FakeAgent agent) {
    List<List<String>> refused =
        List.of(
            List.of("session-id-needs-fork", "--session-id", UUID, "--resume", UUID, "hi"),
            List.of("session-id-invalid", "--session-id", "nope", "hi"),
            List.of("input-format-needs-stream", "--input-format", "stream-json", "hi"),
            List.of("partial-needs-stream", "--include-partial-messages", "hi"),
            List.of("resume-not-uuid", "--resume", "abc", "hi"),
            List.of(
                "verbose-needed",
                "--input-format",
                "stream-json",
                "--output-format",
                "stream-json"));

    for (List<String> run : refused) {
      List<String> argv = new ArrayList<>(List.of("-p"));
      argv.addAll(run.subList(1, run.size()));
      Runs.Result r = Runs.run(agent.claudeExecutable(), argv.toArray(String[]::new));

      assertThat(r.exit()).as(run.get(0)).isEqualTo(1);
      Invocation stopped = agent.takeInvocation();
      assertThat(stopped.stoppedBy()).as(String.join(" ", argv)).contains(run.get(0));
      assertThat(stopped.cli()).isEqualTo("claude");
      assertThat(stopped.argv()).isEqualTo(argv);
    }
    agent.verify(1, invocation().stoppedBy("resume-not-uuid").session(equalTo("abc")));
    agent.verify(1, invocation().stoppedBy("session-id-invalid").prompt(equalTo("hi")));
  }

  @Test
  void aUsageErrorOfTheCliIsNoInvocation(FakeAgent agent) {
    Runs.Result r = Runs.run(agent.claudeExecutable(), "-p", "--no-such-option", "hi");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("unknown option");
    assertThat(agent.invocations()).isEmpty();
  }

  @Test
  void stepGatesHoldAClaudeRunUntilTheTestReleasesIt(FakeAgent agent) throws Exception {
    Tape tape = hello();
    List<Frame> frames = new ArrayList<>(tape.frames());
    frames.add(1, new Frame.Gate(0, "after-init"));
    agent.enqueue(new Tape(tape.header(), frames));

    CompletableFuture<Runs.Result> run =
        CompletableFuture.supplyAsync(
            () ->
                Runs.run(
                    agent.claudeExecutable(),
                    "-p",
                    "--output-format",
                    "stream-json",
                    "--verbose",
                    "x"));
    await().atMost(Duration.ofSeconds(20)).until(agent.reached("after-init"));
    assertThat(run).isNotDone();
    agent.release("after-init");

    assertThat(run.get().out().lines()).hasSize(3);
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class UnmatchedClaudeRun {
    @Test
    void runsClaudeWithAPromptNoStubExpects(FakeAgent agent) {
      agent.when(invocation().prompt(containing("deploy"))).reply(hello());
      Runs.run(agent.claudeExecutable(), "-p", "deploy");
      Runs.Result unmatched =
          Runs.run(agent.claudeExecutable(), "-p", "--output-format", "json", "refactor the cart");
      UNMATCHED.add(unmatched.exit() + " " + unmatched.err());
    }
  }

  static final List<String> UNMATCHED = Collections.synchronizedList(new ArrayList<>());

  @Test
  void aClaudeRunThatMatchedNothingFailsTheTestNamingIt() {
    UNMATCHED.clear();

    AgentDoubleExtensionTest.run(UnmatchedClaudeRun.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    m ->
                        m.startsWith(
                                "fake agent: an invocation matched no stub and no enqueued tape: "
                                    + "prompt \"refactor the cart\", json, argv [-p, "
                                    + "--output-format, json, refactor the cart]")
                            && m.contains("closest stub"))));
    assertThat(UNMATCHED).singleElement().asString().startsWith("70 agentdouble: ");
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class UnusedClaudeTape {
    @Test
    void enqueuesTwoRunsOne(FakeAgent agent) {
      agent.enqueue(hello()).enqueue(hello());
      Runs.run(agent.claudeExecutable(), "-p", "x");
    }
  }

  @Test
  void aClaudeTapeNeverUsedFailsTheTest() {
    AgentDoubleExtensionTest.run(UnusedClaudeTape.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    "fake agent: enqueued tape #2 was never used (call allowUnused() if that is expected)")));
  }

  @AgentTape("claude")
  static class RecordsClaude {
    @Test
    void records(FakeAgent agent) {
      RECORDED.add(Runs.run(agent.claudeExecutable(), "-p", "first question").out());
      RECORDED.add(
          Runs.run(agent.claudeExecutable(), "-p", "--output-format", "json", "second question")
              .out());
    }
  }

  static final List<String> RECORDED = Collections.synchronizedList(new ArrayList<>());

  /**
   * Record mode runs the real {@code claude} (a stand-in here, named by {@code agentdouble.claude})
   * through the recorder, and replay mode plays its runs back through the fake's {@code claude}.
   */
  @Test
  void recordModeKeepsTheRealClaudesRunsAndReplayModePlaysThemBack() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    Path real = Files.createDirectories(root.resolve("real")).resolve("claude");
    try (InputStream in = ClaudeCodeTest.class.getResourceAsStream("/stand-in/claude")) {
      Files.write(real, in.readAllBytes());
    }
    Runs.executable(real);
    RECORDED.clear();

    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .configurationParameter("agentdouble.ci", "false")
        .configurationParameter("agentdouble.mode", "record")
        .configurationParameter("agentdouble.claude", real.toString())
        .selectors(selectClass(RecordsClaude.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));
    List<String> live = new ArrayList<>(RECORDED);
    RECORDED.clear();
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .configurationParameter("agentdouble.mode", "replay")
        .selectors(selectClass(RecordsClaude.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));

    assertThat(live).hasSize(2);
    assertThat(live.get(0)).isEqualTo("real answer to first question\n");
    assertThat(live.get(1)).contains("\"result\":\"real answer to second question\"");
    assertThat(Files.readString(root.resolve("RecordsClaude/claude.tape.ndjson")))
        .startsWith("{\"tape\":1,\"cli\":\"claude\"");
    assertThat(root.resolve("RecordsClaude/claude.2.tape.ndjson")).exists();
    // replayed in order, byte for byte but the session id: each run is a new session, as live
    assertThat(RECORDED).hasSize(2);
    assertThat(RECORDED.get(0)).isEqualTo(live.get(0));
    assertThat(RECORDED.get(1))
        .isNotEqualTo(live.get(1))
        .isEqualTo(live.get(1).replace(RECORDED_SESSION, sessionOf(RECORDED.get(1))));
  }

  static final String RECORDED_SESSION = "00000000-0000-4000-8000-000000000000";

  /** The {@code session_id} of a json result. */
  static String sessionOf(String json) {
    Matcher m = Pattern.compile("\"session_id\":\"([0-9a-f-]{36})\"").matcher(json);
    assertThat(m.find()).as("a session id in %s", json).isTrue();
    return m.group(1);
  }

  @AgentTape(value = "hello", mode = AgentTape.Mode.REPLAY)
  static class ReplaysClaude {
    @Test
    void replays(FakeAgent agent) {
      REPLAYED.add(Runs.run(agent.claudeExecutable(), "-p", "--output-format", "json", "q").out());
    }
  }

  static final List<String> REPLAYED = Collections.synchronizedList(new ArrayList<>());

  @Test
  void aClaudeTapeUnderAgentTapeAnswersTheTestsClaudeRuns() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    hello().write(root.resolve("ReplaysClaude/hello.tape.ndjson"));
    REPLAYED.clear();

    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .selectors(selectClass(ReplaysClaude.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));

    assertThat(REPLAYED)
        .singleElement()
        .asString()
        .startsWith("{\"type\":\"result\",\"subtype\":\"success\"");
  }
}
