package dev.agentdouble.junit;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class FakeAgentTest {
  static Tape says(String text, int exit) {
    return new Tape(
        Header.empty(), List.of(Frame.OutBytes.text(0, text + "\n"), new Frame.Exit(1, exit)));
  }

  @Test
  void answersInvocationsWithEnqueuedTapesInOrder(FakeAgent agent) {
    agent.enqueue(says("first", 0)).enqueue(says("second", 3));

    Runs.Result one =
        Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "one");
    Runs.Result two =
        Runs.run(
            agent.executable(),
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "--model",
            "gpt-5.5-medium",
            "two");

    assertThat(one.out()).isEqualTo("first\n");
    assertThat(two.out()).isEqualTo("second\n");
    assertThat(two.exit()).isEqualTo(3);
    Invocation first = agent.takeInvocation();
    Invocation second = agent.takeInvocation();
    assertThat(first.prompt()).isEqualTo("one");
    assertThat(second.model()).contains("gpt-5.5-medium");
    assertThat(second.argv())
        .containsExactly(
            "-p", "--trust", "--output-format", "stream-json", "--model", "gpt-5.5-medium", "two");
    assertThat(agent.invocations()).hasSize(2);
  }

  @Test
  void aMissingTapeFileIsNamedAsGivenAsResolvedAndWithTheWorkingFolder(FakeAgent agent) {
    Path cwd = Path.of("").toAbsolutePath();

    assertThatThrownBy(() -> agent.enqueue(Path.of("tapes/missing.tape.ndjson")))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage(
            "cannot read tape tapes/missing.tape.ndjson (resolved to "
                + cwd.resolve("tapes/missing.tape.ndjson")
                + " from the working folder "
                + cwd
                + "): no such file");
  }

  @Test
  void answersWithBuiltInTapesOfTheCatalog(FakeAgent agent) {
    agent.enqueue(Catalog.tape("usage-limit")).enqueue(Catalog.tape("tool-read"));

    Runs.Result limit =
        Runs.run(
            agent.executable(), "-p", "--trust", "--output-format", "stream-json", "refactor it");
    Runs.Result read =
        Runs.run(agent.executable(), "-p", "--trust", "--output-format", "json", "what?");

    assertThat(limit.exit()).isEqualTo(1);
    assertThat(limit.out().lines()).hasSize(2);
    assertThat(limit.err()).startsWith("ActionRequiredError: You've hit your usage limit");
    assertThat(read.exit()).isZero();
    assertThat(read.out())
        .startsWith("{\"type\":\"result\",\"subtype\":\"success\"")
        .contains("exports the `Item` interface");
  }

  @Test
  void stubsMatchOnThePromptAndSequencesRepeatOnlyWhenAsked(FakeAgent agent) {
    agent.when(invocation().prompt(containing("deploy"))).reply(says("fails", 1), says("works", 0));
    agent.when(invocation().outputFormat("json")).reply(says("{}", 0)).repeatLast();

    assertThat(
            Runs.run(
                    agent.executable(),
                    "-p",
                    "--trust",
                    "--output-format",
                    "stream-json",
                    "deploy now")
                .exit())
        .isEqualTo(1);
    assertThat(
            Runs.run(
                    agent.executable(),
                    "-p",
                    "--trust",
                    "--output-format",
                    "stream-json",
                    "deploy again")
                .out())
        .isEqualTo("works\n");
    assertThat(Runs.run(agent.executable(), "-p", "--trust", "--output-format", "json", "a").out())
        .isEqualTo("{}\n");
    assertThat(Runs.run(agent.executable(), "-p", "--trust", "--output-format", "json", "b").out())
        .isEqualTo("{}\n");
    agent.verify(2, invocation().prompt(containing("deploy")));
  }

  @Test
  void anUnmatchedInvocationTellsTheConsumerWhyOnStderr(FakeAgent agent) {
    // the stub is there to be missed: neither the miss nor the stub's unused reply fails the test
    agent.allowUnmatched().allowUnused();
    agent.when(invocation().prompt(containing("deploy"))).reply(says("x", 0));

    Runs.Result r =
        Runs.run(
            agent.executable(),
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "something else");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.err())
        .startsWith("agentdouble: the control server")
        .contains("has no tape for this invocation");
  }

  @Test
  void consumersThatSearchPathFindTheShimThroughTheEnvironment(FakeAgent agent) {
    agent.enqueue(says("via PATH", 0));

    Runs.Result r =
        Runs.run(
            Path.of("/bin/sh"),
            agent.environment(),
            "-c",
            "cursor-agent -p --trust --output-format stream-json hi");

    assertThat(r.out()).isEqualTo("via PATH\n");
  }

  /**
   * The control plane's secret reaches the fake through its shim (the owner's only) and its
   * environment; a process that knows the URL but not the secret is refused and is no invocation.
   * The queue a run takes its tape from without asking is in the fake's folder, the owner's only
   * too.
   */
  @Test
  void onlyAFakeWithTheControlPlanesSecretIsAnswered(FakeAgent agent) throws Exception {
    agent.enqueue(says("answered", 0));
    Map<String, String> env = new HashMap<>(agent.environment());
    String secret = env.remove("AGENTDOUBLE_SECRET");
    String queue = env.remove("AGENTDOUBLE_QUEUE");
    Path launcher =
        Path.of(System.getProperty("agentdouble.root", ".."))
            .toAbsolutePath()
            .normalize()
            .resolve("fake-agent/bin/cursor-agent");

    Runs.Result stranger = Runs.run(launcher, env, "-p", "--trust", "hi");

    assertThat(secret).isNotBlank();
    assertThat(Files.getPosixFilePermissions(agent.executable()))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(Files.readString(agent.executable())).contains("AGENTDOUBLE_SECRET=");
    assertThat(Path.of(queue)).startsWith(agent.directory());
    assertThat(Files.getPosixFilePermissions(agent.directory()))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(stranger.exit()).isEqualTo(70);
    assertThat(stranger.err())
        .contains("refused this invocation (HTTP 401): " + "AGENTDOUBLE_SECRET is not set");
    assertThat(agent.invocations()).isEmpty();
    Runs.Result shim =
        Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "hi");
    assertThat(shim.out()).isEqualTo("answered\n");
    assertThat(agent.takeInvocation().prompt()).isEqualTo("hi");
  }

  @Test
  void takeInvocationWaitsBoundedAndSaysWhatItSaw(FakeAgent agent) {
    agent.allowUnused().enqueue(says("unused", 0));

    assertThatThrownBy(() -> agent.takeInvocation(Duration.ofMillis(200)))
        .isInstanceOf(AssertionError.class)
        .hasMessage("fake agent not invoked within 200ms (0 invocations, 0 taken, 1 tape queued)");
  }

  @Test
  void stepGatesHoldARunUntilTheTestReleasesIt(FakeAgent agent) throws Exception {
    agent.enqueue(
        new Tape(
            Header.empty(),
            List.of(
                Frame.OutBytes.text(0, "before\n"),
                new Frame.Gate(0, "mid"),
                Frame.OutBytes.text(0, "after\n"),
                new Frame.Exit(0, 0))));

    CompletableFuture<Runs.Result> run =
        CompletableFuture.supplyAsync(
            () ->
                Runs.run(
                    agent.executable(), "-p", "--trust", "--output-format", "stream-json", "x"));
    await().atMost(Duration.ofSeconds(20)).until(agent.reached("mid"));
    assertThat(run).isNotDone();
    agent.release("mid");

    assertThat(run.get().out()).isEqualTo("before\nafter\n");
  }

  @Test
  void verifyFailuresNameTheClosestInvocationAndWhatDiffered(FakeAgent agent) {
    agent.enqueue(says("ok", 0));
    Runs.run(agent.executable(), "-p", "--trust", "--output-format", "json", "refactor the cart");

    assertThatThrownBy(
            () -> agent.verify(1, invocation().prompt(containing("deploy")).outputFormat("json")))
        .isInstanceOf(AssertionError.class)
        .hasMessageStartingWith(
            "expected 1 invocation matching prompt deploy, output format json, got 0 (of 1)\n"
                + "closest: prompt \"refactor the cart\", json, argv [-p, --trust, --output-format, json, refactor the cart]")
        // in the invocation's own terms: no JSON paths, no WireMock table
        .hasMessageEndingWith("\n  it missed: prompt deploy, was \"refactor the cart\"")
        .hasMessageNotContaining("$.");
  }

  @Test
  void aRunWithoutTrustStopsAtTheGateAndIsStillAnInvocation(FakeAgent agent) {
    Runs.Result r = Runs.run(agent.executable(), "-p", "--output-format", "stream-json", "deploy");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(CursorMessages.trustRequired(Path.of("").toAbsolutePath().toString()));
    assertThat(agent.takeInvocation().stoppedBy()).contains("trust-gate");
    agent.verify(1, invocation().prompt(containing("deploy")).stoppedBy("trust-gate"));
  }

  @Test
  void trustGivenOnceLastsForTheFakeAndATrustedMachineNeedsNoFlag(FakeAgent agent) {
    agent.enqueue(says("one", 0)).enqueue(says("two", 0));

    assertThat(
            Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "first")
                .out())
        .isEqualTo("one\n");
    assertThat(Runs.run(agent.executable(), "-p", "--output-format", "stream-json", "second").out())
        .isEqualTo("two\n");
  }

  @Test
  void aTrustedMachinePassesTheGateWithoutAFlag(FakeAgent agent) {
    agent.trustedWorkspaces().enqueue(says("deployed", 0));

    assertThat(Runs.run(agent.executable(), "-p", "--output-format", "stream-json", "deploy").out())
        .isEqualTo("deployed\n");
    assertThat(agent.takeInvocation().stoppedBy()).isEmpty();
  }

  @Test
  void argvPatternsMatchAnyElement(FakeAgent agent) {
    agent.when(invocation().argv("--force")).reply(says("forced", 0));

    assertThat(
            Runs.run(agent.executable(), "-p", "--output-format", "stream-json", "--force", "go")
                .out())
        .isEqualTo("forced\n");
    agent.verify(1, invocation().argv("--force"));
    agent.verify(0, invocation().argv("--trust"));
  }

  @Test
  void aTimingPolicyIsCheckedWhenItIsSet(FakeAgent agent) {
    assertThatThrownBy(() -> agent.timing(Timing.parse("slow")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("timing slow: use fast, recorded, scale:F or max-gap:MS");
    assertThatThrownBy(
            () -> AgentDoubleExtension.builder().timing(Timing.parse("scale:-1")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("timing scale:-1: scale needs a factor >= 0");
    assertThatThrownBy(() -> agent.timing(null)).isInstanceOf(NullPointerException.class);
    assertThat(agent.timing(new Timing.MaxGap(50))).isSameAs(agent);
    assertThat(agent.environment()).containsEntry(FakeEnvironment.TIMING, "max-gap:50");
  }
}
