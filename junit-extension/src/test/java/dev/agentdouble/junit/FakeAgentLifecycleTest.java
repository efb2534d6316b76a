package dev.agentdouble.junit;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/**
 * What a WireMock or MockWebServer user expects of a fake's life: {@code reset()} for a fake in a
 * static field, timing per stub, and strictness about stubs whose replies were never used.
 */
@Timeout(120)
class FakeAgentLifecycleTest {

  private static Runs.Result invoke(FakeAgent agent, String prompt) {
    return Runs.run(agent.executable(), "-p", "--trust", "--output-format", "json", prompt);
  }

  /** A fake shared by a class, reset before each test: each starts from a fresh fake. */
  @ExtendWith(AgentDoubleExtension.class)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class SharedAndReset {
    static FakeAgent agent;

    @Test
    @Order(1)
    void leavesEverythingBehind() {
      agent.allowUnused().allowUnmatched().trustedWorkspaces().timing(Timing.RECORDED);
      agent.enqueue(FakeAgentTest.says("first", 0)).enqueue(FakeAgentTest.says("left over", 0));
      agent.when(invocation().prompt(containing("fix"))).reply(FakeAgentTest.says("fixed", 0));
      agent.release("g1");
      invoke(agent, "hello");
      agent.reset();
    }

    @Test
    @Order(2)
    void startsFromAFreshFake() {
      assertThat(agent.invocations()).isEmpty();
      assertThat(agent.environment())
          .doesNotContainKey("AGENTDOUBLE_TRUST")
          .containsEntry("AGENTDOUBLE_TIMING", "fast");
      assertThat(agent.directory().resolve("gates")).isEmptyDirectory();

      // the queue starts again at its first tape; the old stub is gone
      agent.enqueue(FakeAgentTest.says("new", 0));
      Runs.Result run = invoke(agent, "fix it");
      assertThat(run.out()).isEqualTo("new\n");
      // strict again: a tape left over now fails this test
      agent.enqueue(FakeAgentTest.says("unused", 0));
    }
  }

  @Test
  void resetMakesASharedFakeNewAgain() {
    EngineExecutionResults all = AgentDoubleExtensionTest.execute(SharedAndReset.class);

    // both tests pass; the tape the second left unused fails the class, whose fake it is
    all.testEvents().assertThatEvents().haveExactly(2, finishedSuccessfully());
    all.containerEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    m ->
                        m.contains(
                            "enqueued tape #2 was never used (call allowUnused() if that is"
                                + " expected)"))));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class UnusedReply {
    @Test
    void stubsTwoRepliesAndUsesOne(FakeAgent agent) {
      agent
          .when(invocation().prompt(containing("fix")))
          .reply(FakeAgentTest.says("once", 0), FakeAgentTest.says("twice", 0));
      invoke(agent, "fix the cart");
    }
  }

  @Test
  void aStubReplyNeverUsedFailsAStrictTestLikeAnUnusedTape() {
    AgentDoubleExtensionTest.run(UnusedReply.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    "fake agent: stub reply #2 to prompt fix was never used (call allowUnused()"
                        + " if that is expected)")));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class UnusedReplyAllowed {
    @Test
    void stubsTwoRepliesAndUsesOne(FakeAgent agent) {
      agent.allowUnused();
      agent
          .when(invocation().prompt(containing("fix")))
          .reply(FakeAgentTest.says("once", 0), FakeAgentTest.says("twice", 0))
          .repeatLast();
      invoke(agent, "fix the cart");
    }
  }

  @Test
  void allowUnusedRelaxesItAndARepeatNeedNotBeUsed() {
    AgentDoubleExtensionTest.run(UnusedReplyAllowed.class)
        .assertThatEvents()
        .haveExactly(1, finishedSuccessfully());
  }

  @Test
  @ExtendWith(AgentDoubleExtension.class)
  void anInvocationNothingAnswersIsReportedInTheFakesOwnTerms(FakeAgent agent) {
    agent.allowUnmatched().allowUnused();
    agent
        .when(invocation().prompt(containing("deploy")).model(TextMatch.equalTo("gpt-5.4-medium")))
        .reply(FakeAgentTest.says("deployed", 0));
    agent
        .when(invocation().prompt(containing("hi")).outputFormat("text"))
        .reply(FakeAgentTest.says("hi", 0));

    Runs.Result r =
        Runs.run(
            agent.executable(),
            "-p",
            "--trust",
            "--output-format",
            "json",
            "--model",
            "gpt-5.5-medium",
            "say hi");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err())
        .contains(
            "(HTTP 404):\nno stub and no queued tape answers prompt \"say hi\", json, model"
                + " gpt-5.5-medium, argv [-p, --trust, --output-format, json, --model,"
                + " gpt-5.5-medium, say hi], cwd ")
        .contains("\nnothing was enqueued\n")
        .contains(
            "\nclosest stub: prompt hi, output format text; it missed: output format text, was"
                + " \"json\"\n");
    // the report itself (after the fake's own first line) has no HTTP paths, no WireMock table;
    // the working folder it names is the run's, wherever the checkout lives (a clone named
    // agentdouble has /agentdouble/ in it), so it is taken out before the paths are looked for
    String cwd = Path.of("").toAbsolutePath().toString();
    assertThat(r.err()).contains(", cwd " + cwd + "\n");
    assertThat(r.err().substring(r.err().indexOf("(HTTP 404):\n")).replace(", cwd " + cwd, ""))
        .doesNotContain("Request was not matched", "/agentdouble/", "__admin", "cenario", "$.");
  }

  @Test
  @ExtendWith(AgentDoubleExtension.class)
  void aStubWhoseRepliesAreUsedUpIsSaidToBe(FakeAgent agent) {
    agent.allowUnmatched();
    agent.when(invocation().prompt(containing("fix"))).reply(FakeAgentTest.says("fixed", 0));
    invoke(agent, "fix it");

    Runs.Result again = invoke(agent, "fix it again");

    assertThat(again.exit()).isEqualTo(70);
    assertThat(again.err())
        .contains(
            "\nthe stub for prompt fix matches, but its 1 reply is used up (repeatLast() answers"
                + " every later one)\n");
  }

  /** A consumer that starts the CLI with its stdin a pipe it never closes, the prompt unsent. */
  @ExtendWith(AgentDoubleExtension.class)
  static class StdinLeftOpen {
    @Test
    void startsTheCliAndNeverClosesItsStdin(FakeAgent agent) throws Exception {
      agent.enqueue(FakeAgentTest.says("never", 0));
      new ProcessBuilder(agent.executable().toString(), "-p", "--trust", "--output-format", "text")
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start();
      Path gates = agent.directory().resolve("gates");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                try (Stream<Path> files = Files.list(gates)) {
                  return files.anyMatch(f -> f.getFileName().toString().startsWith("stdin-open."));
                }
              });
    }
  }

  @Test
  void aRunStillWaitingForStdinIsNamedAsTheCauseAndAllowUnusedIsNotSuggested() {
    AgentDoubleExtensionTest.run(StdinLeftOpen.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    m ->
                        m.matches(
                                "(?s)fake agent: process [0-9]+ started but never asked for a"
                                    + " tape: it was still waiting for stdin to close at the end"
                                    + " of the test; give the CLI /dev/null as stdin .*")
                            && !m.contains("allowUnused"))));
  }

  /** A tape that waits {@code ms} before its line: replayed as recorded, the wait is real. */
  private static Tape slow(String text, long ms) {
    return new Tape(
        Header.empty(), List.of(Frame.OutBytes.text(ms, text + "\n"), new Frame.Exit(ms + 1, 0)));
  }

  @Test
  @ExtendWith(AgentDoubleExtension.class)
  void aStubsTimingWinsOverTheFakesForItsReplies(FakeAgent agent) {
    agent
        .when(invocation().prompt(containing("slow")))
        .timing(Timing.RECORDED)
        .reply(slow("slow", 1500));
    agent.when(invocation().prompt(containing("quick"))).reply(slow("quick", 1500));
    agent.enqueue(slow("queued", 1200), Timing.parse("scale:1"));

    long start = System.nanoTime();
    Runs.Result recorded = invoke(agent, "slow one");
    long recordedMs = (System.nanoTime() - start) / 1_000_000;
    Runs.Result fast = invoke(agent, "quick one");
    start = System.nanoTime();
    Runs.Result queued = invoke(agent, "the queued one");
    long queuedMs = (System.nanoTime() - start) / 1_000_000;

    assertThat(recorded.out()).isEqualTo("slow\n");
    assertThat(fast.out()).isEqualTo("quick\n");
    assertThat(queued.out()).isEqualTo("queued\n");
    // lower bounds only: a loaded machine makes runs slower, never faster
    assertThat(recordedMs).as("the recorded stub waited its 1.5 s").isGreaterThanOrEqualTo(1500);
    assertThat(queuedMs).as("the queued tape waited its 1.2 s").isGreaterThanOrEqualTo(1200);
    // what told the fake: the answers of the two stubs with their own timing say so, the other
    // says nothing (the fake's own fast applies)
    assertThat(timingHeaders(agent))
        .containsExactly(Optional.of("recorded"), Optional.empty(), Optional.of("scale:1"));
    assertThatThrownBy(
            () ->
                agent
                    .when(invocation().prompt(containing("late")))
                    .reply(slow("x", 1))
                    .timing(Timing.FAST))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("call timing(..) before reply(..)");
    agent.allowUnused();
  }

  @Test
  @ExtendWith(AgentDoubleExtension.class)
  void aGateNoTapeHasIsNamedAtOnceInsteadOfWaitedFor(FakeAgent agent) {
    assertThatThrownBy(() -> agent.awaitGate("mid", Duration.ofMinutes(10)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "no tape given to this fake has a gate named \"mid\"; none of its tapes has a gate"
                + " (Script.gate(NAME) adds one, a {\"t\":..,\"gate\":NAME} frame in a tape file)");

    agent.enqueue(
        Script.of("go").init().gate("before-tool").gate("after-tool").result().exit(0).build());

    assertThatThrownBy(() -> agent.reached("mdi"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "no tape given to this fake has a gate named \"mdi\"; its tapes have"
                + " \"after-tool\", \"before-tool\"");
    agent.allowUnused();
  }

  /** The timing header of each answer to an invocation of {@code agent}, oldest first. */
  static List<Optional<String>> timingHeaders(FakeAgent agent) {
    List<ServeEvent> events =
        agent.plane().server().getAllServeEvents().stream()
            // this fake's only: the control plane is the JVM's, and other tests run meanwhile
            .filter(e -> e.getRequest().getUrl().equals(agent.invocationPath()))
            .sorted(
                (a, b) -> a.getRequest().getLoggedDate().compareTo(b.getRequest().getLoggedDate()))
            .toList();
    return events.stream()
        .map(
            e -> {
              HttpHeader h = e.getResponse().getHeaders().getHeader(ControlSecret.TIMING_HEADER);
              return h.isPresent() ? Optional.of(h.firstValue()) : Optional.<String>empty();
            })
        .toList();
  }
}
