package dev.agentdouble.examples;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.examples.AgentEvent.AssistantText;
import dev.agentdouble.examples.AgentEvent.SystemInit;
import dev.agentdouble.examples.AgentEvent.ToolCallCompleted;
import dev.agentdouble.examples.AgentEvent.ToolCallStarted;
import dev.agentdouble.examples.AgentEvent.Unknown;
import dev.agentdouble.examples.AgentEvent.UserMessage;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.FakeAgent;
import dev.agentdouble.junit.TapeVariants;
import dev.agentdouble.tape.Tape;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * The recipes of {@code docs/cookbook.md}, one test per failure mode: the built-in tape (or
 * variant) that plays it, and what {@link CursorAgentClient} does about it. The snippets in the
 * cookbook are copied from here.
 */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class CookbookTest {
  static final String DISCOUNT = CursorAgentClientTest.DISCOUNT;

  // ---- the CLI fails

  @Test
  void notLoggedInFailsAtOnceAndIsNotRetried(FakeAgent agent) {
    agent.when(invocation()).reply(Catalog.tape("not-logged-in")).repeatLast();
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.runWithRetries("Say hello", 3))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e.exitCode()).isEqualTo(1);
              assertThat(e)
                  .hasMessage(
                      "cursor-agent failed with exit code 1: Error: Authentication "
                          + "required. Please run 'agent login' first, or set CURSOR_API_KEY environment "
                          + "variable.");
              assertThat(e.events()).isEmpty();
              assertThat(e.retryable()).isFalse();
            });
    agent.verify(1, invocation()); // one attempt: no retry fixes a login
  }

  @Test
  void theUsageLimitFailsAfterInitAndUserAndIsNotRetried(FakeAgent agent) {
    agent.enqueue(Catalog.tape("usage-limit"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.runWithRetries("Refactor the checkout flow", 3))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e)
                  .hasMessageStartingWith(
                      "cursor-agent failed with exit code 1: "
                          + "ActionRequiredError: You've hit your usage limit.");
              assertThat(e.events()).hasExactlyElementsOfTypes(SystemInit.class, UserMessage.class);
              assertThat(e.retryable()).isFalse();
            });
    agent.verify(1, invocation().prompt(equalTo("Refactor the checkout flow")));
  }

  @Test
  void aClientThatForgetsTrustStopsAtTheWorkspaceTrustGateAsOnAFreshCiMachine(FakeAgent agent) {
    // the bug: no --trust, which passes on a developer's machine that trusted the folder once
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).trustWorkspace(false).build();

    assertThatThrownBy(() -> client.runWithRetries("Refactor the checkout flow", 3))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e)
                  .hasMessage(
                      "cursor-agent failed with exit code 1: " + "⚠ Workspace Trust Required");
              assertThat(e.events()).isEmpty();
              assertThat(e.retryable()).isFalse();
            });
    agent.verify(1, invocation().stoppedBy("trust-gate"));
  }

  @Test
  void aClientThatPassesTrustRunsOnAFreshMachine(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("tool-read"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThat(client.run("What does cart.ts export?").text()).isNotEmpty();
    assertThat(agent.takeInvocation().argv()).contains("--trust");
  }

  @Test
  void aMachineThatTrustedTheWorkspaceBeforeNeedsNoFlag(FakeAgent agent) throws Exception {
    agent.trustedWorkspaces().enqueue(Catalog.tape("tool-read"));
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).trustWorkspace(false).build();

    assertThat(client.run("What does cart.ts export?").text()).isNotEmpty();
  }

  @Test
  void anUnknownModelFailsWithTheModelsTheCliOffers(FakeAgent agent) {
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).model("gpt-9").build();

    assertThatThrownBy(() -> client.run("Say hello"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e)
                  .hasMessageStartingWith(
                      "cursor-agent failed with exit code 1: "
                          + "Cannot use this model: gpt-9. Available models: auto, ");
              assertThat(e.retryable()).isFalse();
            });
    agent.verify(1, invocation().model(equalTo("gpt-9")));
  }

  @Test
  void exhaustedNetworkRetriesFailButALaterAttemptMaySucceed(FakeAgent agent) throws Exception {
    agent
        .enqueue(Catalog.tape("retries-exhausted"))
        .enqueue(Catalog.tape("retries-exhausted"))
        .enqueue(Catalog.tape("documented-minimal"));
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).retryDelay(Duration.ofMillis(10)).build();

    assertThatThrownBy(() -> client.run("Say hello"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.FAILED);
              assertThat(e.stderr())
                  .isEqualTo("T: [internal] Failed to run step, exceeded max retries\n");
              assertThat(e.events())
                  .filteredOn(Unknown.class::isInstance)
                  .extracting(Unknown.class::cast)
                  .extracting(Unknown::type)
                  .containsOnly("connection", "retry")
                  .hasSize(12);
              assertThat(e.retryable()).isTrue();
            });
    assertThat(client.runWithRetries("Say hello", 3).text()).isEqualTo("Hello, world!");
    agent.verify(3, invocation());
  }

  // ---- the CLI dies, hangs or lingers

  @Test
  void killedMidToolCallIsReportedWithTheEventsBeforeIt(FakeAgent agent) {
    agent.enqueue(Catalog.tape("killed-mid-tool-call"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("Run the tests"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.KILLED);
              assertThat(e.exitCode()).isEqualTo(128 + 9);
              assertThat(e).hasMessage("cursor-agent was killed by signal 9 after 4 events");
              assertThat(e.events())
                  .hasExactlyElementsOfTypes(
                      SystemInit.class,
                      UserMessage.class,
                      AssistantText.class,
                      ToolCallStarted.class);
              assertThat(e.retryable()).isTrue();
            });
  }

  @Test
  void killedMidLineDropsTheCutLineAndKeepsTheWholeOnes(FakeAgent agent) {
    agent.enqueue(Catalog.tape("killed-mid-line"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("Where are the TODOs?"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.KILLED);
              // the last line ends without a newline and is not JSON: it is not an event
              assertThat(e.events())
                  .hasExactlyElementsOfTypes(
                      SystemInit.class,
                      UserMessage.class,
                      AssistantText.class,
                      ToolCallStarted.class);
            });
  }

  @Test
  void aHangWithoutAResultEndsAtTheClientsTimeout(FakeAgent agent) {
    agent.allowUnused(); // killed early, the fake may not have asked for its tape yet
    agent.enqueue(Catalog.tape("hang-mid-stream"));
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).timeout(Duration.ofSeconds(2)).build();

    AgentRun run = client.start("Start the dev server and check the home page");

    assertThatThrownBy(run::await)
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.TIMED_OUT);
              assertThat(e)
                  .hasMessageStartingWith(
                      "cursor-agent did not finish within 2000ms and was killed");
              assertThat(e.retryable()).isTrue();
            });
    assertThat(ProcessHandle.of(run.pid()).filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Test
  void aCliLingeringAfterItsResultIsStoppedAndTheRunSucceeds(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("lingering-after-result"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    AgentRun run = client.start("Say hello");
    Run done = run.await();

    assertThat(done.text()).isEqualTo("Hello!");
    assertThat(done.exitCode()).isEqualTo(128 + 9); // the client stopped it after 2 s
    assertThat(ProcessHandle.of(run.pid()).filter(ProcessHandle::isAlive)).isEmpty();
  }

  @Test
  void textModePrintsTheAnswerOnlyAtTheEnd(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("text-silent-until-exit"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).force(true).build();

    String text = client.text("Run the tests");

    // no "Ran terminal command" progress lines: the answer's segments, a line each, after the run
    assertThat(text).isEqualTo("I'll run `npm test`.\nAll 12 tests pass.\n");
  }

  // ---- stdout and stderr misbehave

  @Test
  void aLineThatIsNotJsonIsSkippedAndCounted(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("non-json-line"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("Say hello");

    assertThat(run.text()).isEqualTo("Hello!");
    assertThat(run.skippedLines()).isEqualTo(1); // "Update available: ..."
  }

  @Test
  void aLineOfOver32MiBIsReadWhole(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("huge-line"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("Did the nightly build log any errors?");

    assertThat(run.toolCalls())
        .singleElement()
        .satisfies(
            read -> {
              assertThat(read.tool()).isEqualTo("readToolCall");
              assertThat(read.result().orElseThrow().path("success").path("content").asText())
                  .hasSize(32 << 20);
            });
    assertThat(run.skippedLines()).isZero(); // a parser with a line or string limit skips it
    assertThat(run.text())
        .endsWith("has 524288 lines and no errors: every module compiled cleanly.");
  }

  @Test
  void aMebibyteOfStderrBeforeTheFirstEventNeitherBlocksNorBloats(FakeAgent agent)
      throws Exception {
    agent.enqueue(Catalog.tape("stderr-flood"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("What does this project build?");

    assertThat(run.text()).isEqualTo("It builds a command-line tool and its library.");
    // stderr is drained all along; the client keeps its last 64 KiB, from a line's start
    assertThat(run.stderr())
        .startsWith("[debug] mcp: probing configured server")
        .hasSizeLessThanOrEqualTo(64 * 1024);
  }

  // ---- the events are not what a naive parser expects

  @Test
  void aCompletionWithoutItsStartStillCountsAsAToolCall(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("completed-without-started"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("What does src/cart.ts export?");

    assertThat(run.toolCalls())
        .singleElement()
        .satisfies(
            read -> {
              assertThat(read.tool()).isEqualTo("readToolCall");
              assertThat(read.args().path("path").asText()).isEqualTo("src/cart.ts");
              assertThat(read.outcome()).isEqualTo("success");
            });
  }

  @Test
  void unknownEventsAndFieldsAreKeptAndDoNotBreakTheRun(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("unknown-events-and-fields"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("Say hello");

    assertThat(run.text()).isEqualTo("Hello!");
    assertThat(run.events())
        .filteredOn(Unknown.class::isInstance)
        .extracting(e -> ((Unknown) e).type() + "/" + ((Unknown) e).subtype())
        .containsExactly("system/hooks_loaded", "status/indexing");
  }

  @Test
  void exitZeroWithoutAResultIsAnError(FakeAgent agent) {
    agent.enqueue(Catalog.tape("exit-0-without-result"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    assertThatThrownBy(() -> client.run("Say hello"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(AgentException.Kind.NO_RESULT);
              assertThat(e.exitCode()).isZero();
              assertThat(e)
                  .hasMessage(
                      "cursor-agent exited with 0 but its output had no result, "
                          + "after 3 events");
              assertThat(e.events()).last().isEqualTo(new AssistantText("Hello!"));
            });
  }

  @Test
  void partialOutputRepeatsEachSegmentSoTheAnswerIsTheResult(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("stream-partial-output"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("Run the tests");

    String naive =
        run.events().stream()
            .filter(AssistantText.class::isInstance)
            .map(e -> ((AssistantText) e).text())
            .collect(Collectors.joining());
    assertThat(naive)
        .isEqualTo("I'll run the tests.I'll run the tests.All 12 tests pass.All 12 tests pass.");
    assertThat(run.text()).isEqualTo("I'll run the tests.All 12 tests pass.");
  }

  @Test
  void parallelCompletionsOutOfOrderArePairedByCallId(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("parallel-out-of-order"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("How many lines does notes.txt have, and what are they?");

    assertThat(run.events())
        .filteredOn(ToolCallCompleted.class::isInstance)
        .extracting(e -> ((ToolCallCompleted) e).tool())
        .containsExactly("shellToolCall", "readToolCall");
    // tool calls in the order they started, each with its own result
    assertThat(run.toolCalls())
        .extracting(ToolCall::tool, ToolCall::outcome)
        .containsExactly(tuple("readToolCall", "success"), tuple("shellToolCall", "success"));
  }

  @Test
  void aRejectedToolCallIsPartOfASuccessfulRun(FakeAgent agent) throws Exception {
    agent.enqueue(Catalog.tape("rejected-shell"));
    CursorAgentClient client = CursorAgentClient.builder(agent.executable()).build();

    Run run = client.run("Clean the build folder");

    assertThat(run.exitCode()).isZero();
    assertThat(run.toolCalls())
        .singleElement()
        .satisfies(
            rm -> {
              assertThat(rm.outcome()).isEqualTo("rejected");
              // the completion has no args: they come from the start
              assertThat(rm.args().path("command").asText()).isEqualTo("rm -rf dist");
              assertThat(rm.result().orElseThrow().path("rejected").path("reason").asText())
                  .isEqualTo("Command requires approval");
            });
  }

  // ---- fuzzing, and suites outside the JVM

  @ParameterizedTest(name = "{0}")
  @TapeVariants(resource = "tapes/add-discount.tape.ndjson", seed = 42)
  void everyVariantOfARealRunEndsAsItShould(Tape tape, FakeAgent agent, TestInfo test)
      throws Exception {
    agent.enqueue(tape);
    CursorAgentClient client =
        CursorAgentClient.builder(agent.executable()).timeout(Duration.ofSeconds(10)).build();
    Optional<AgentException.Kind> failure =
        switch (test.getDisplayName()) {
          case "cut-mid-run", "cut-mid-line" -> Optional.of(AgentException.Kind.KILLED);
          case "hang-mid-run" -> Optional.of(AgentException.Kind.TIMED_OUT);
          case "drop-result" -> Optional.of(AgentException.Kind.NO_RESULT);
          default -> Optional.empty(); // the same answer, however the bytes arrive
        };

    if (failure.isEmpty()) {
      assertThat(client.run(DISCOUNT).text()).endsWith("the 4 cart tests pass.");
    } else {
      assertThatThrownBy(() -> client.run(DISCOUNT))
          .isInstanceOfSatisfying(
              AgentException.class, e -> assertThat(e.kind()).isEqualTo(failure.get()));
    }
  }

  @Test
  void anySuiteCanRunTheLauncherOnABuiltinTape(@TempDir Path dir) throws Exception {
    Path cursorAgent =
        Path.of(System.getProperty("agentdouble.root", ".."), "fake-agent/bin/cursor-agent");
    Path journal = dir.resolve("journal.ndjson");
    CursorAgentClient client =
        CursorAgentClient.builder(cursorAgent)
            .environment("AGENTDOUBLE_TAPE", "builtin:usage-limit")
            .environment("AGENTDOUBLE_TIMING", "fast")
            .environment("AGENTDOUBLE_JOURNAL", journal.toString())
            .build();

    assertThatThrownBy(() -> client.run("Refactor the checkout flow"))
        .isInstanceOfSatisfying(
            AgentException.class,
            e ->
                assertThat(e.stderr())
                    .startsWith("ActionRequiredError: You've hit your usage limit."));
    assertThat(Files.readString(journal))
        .contains(
            "\"prompt\":\"Refactor the checkout flow\"",
            "\"tape\":\"builtin:usage-limit\"",
            "\"exit\":1");
  }
}
