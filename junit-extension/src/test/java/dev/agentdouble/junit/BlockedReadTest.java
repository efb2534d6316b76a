package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.agentdouble.script.Script;
import java.io.File;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * A consumer blocked reading a hanging fake, with no timeout of its own, cannot hang the build:
 * whatever the {@code @Timeout} thread mode, a default timeout from the configuration, or none (the
 * extension's own deadline), the extension ends the test's runs of the fake at the deadline, the
 * read returns, and the test fails naming the run, its tape and prompt, and how that tape ends.
 * Through EngineTestKit; the outer tests run in a thread of their own, so a regression fails them
 * instead of hanging this build.
 */
@Timeout(value = 90, threadMode = ThreadMode.SEPARATE_THREAD)
class BlockedReadTest {
  /** The run each fixture started (the outer tests run concurrently, each on its own fixture). */
  static final Map<Class<?>, Long> PIDS = new ConcurrentHashMap<>();

  /** Starts a run whose tape hangs after its init event, and reads its stdout to the end. */
  static void readAHangingRun(Class<?> fixture, FakeAgent agent) throws Exception {
    agent.enqueue(Script.of("say hi").init().hang().build());
    Process p =
        new ProcessBuilder(
                agent.executable().toString(),
                "-p",
                "--trust",
                "--output-format",
                "stream-json",
                "say hi")
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    PIDS.put(fixture, p.pid());
    p.getInputStream().readAllBytes(); // no timeout: blocks as long as the run goes on
    p.waitFor();
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class SameThread {
    @Test
    @Timeout(value = 2, threadMode = ThreadMode.SAME_THREAD)
    void reads(FakeAgent agent) throws Exception {
      readAHangingRun(SameThread.class, agent);
    }
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class SeparateThread {
    @Test
    @Timeout(value = 2, threadMode = ThreadMode.SEPARATE_THREAD)
    void reads(FakeAgent agent) throws Exception {
      readAHangingRun(SeparateThread.class, agent);
    }
  }

  /** Timed by {@code junit.jupiter.execution.timeout.default} alone. */
  @ExtendWith(AgentDoubleExtension.class)
  static class DefaultTimeout {
    @Test
    void reads(FakeAgent agent) throws Exception {
      readAHangingRun(DefaultTimeout.class, agent);
    }
  }

  /** No timeout at all: the extension's own deadline. */
  static class OwnDeadline {
    @RegisterExtension
    static AgentDoubleExtension agents =
        AgentDoubleExtension.builder().deadline(Duration.ofSeconds(2)).build();

    @Test
    void reads(FakeAgent agent) throws Exception {
      readAHangingRun(OwnDeadline.class, agent);
    }
  }

  /** As {@link DefaultTimeout}, with the extension's deadline from the configuration. */
  @ExtendWith(AgentDoubleExtension.class)
  static class ConfiguredDeadline {
    @Test
    void reads(FakeAgent agent) throws Exception {
      readAHangingRun(ConfiguredDeadline.class, agent);
    }
  }

  private static Events run(Class<?> fixture, Map<String, String> parameters) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .configurationParameters(parameters)
        .selectors(selectClass(fixture))
        .execute()
        .testEvents();
  }

  /**
   * The failure names the run by its process, and says what it was: its tape, prompt and ending
   * once it had its tape, which it has unless this loaded machine took the whole deadline to start
   * its JVM (then it says so).
   */
  private static Pattern failure(String deadline, long pid) {
    return Pattern.compile(
        "fake agent: the test "
            + Pattern.quote(deadline)
            + " while a run of "
            + "the fake agent was still going; ended \\(SIGKILL\\) so that the test could end:\n"
            + "  process "
            + pid
            + ": (tape \"#1\" \\(prompt \"say hi\"\\), which ends in a hang"
            + "|before it had a tape \\(starting, or asking for one\\))\n"
            + "  the fake's folder \\(journal, gates\\): .*",
        Pattern.DOTALL);
  }

  private static void assertEndedAndNamed(
      Class<?> fixture, Map<String, String> parameters, String deadline) {
    Events events = run(fixture, parameters);
    assertThat(PIDS).containsKey(fixture);
    long pid = PIDS.get(fixture);
    events
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(m -> failure(deadline, pid).matcher(m).matches())));
    ProcessHandle.of(pid)
        .ifPresent(
            p -> assertThat(p.onExit().orTimeout(30, TimeUnit.SECONDS).join().isAlive()).isFalse());
  }

  @Test
  void sameThreadTimeout() {
    assertEndedAndNamed(SameThread.class, Map.of(), "timed out after 2 s");
  }

  @Test
  void separateThreadTimeout() {
    assertEndedAndNamed(SeparateThread.class, Map.of(), "timed out after 2 s");
  }

  @Test
  void defaultTimeoutFromTheConfiguration() {
    assertEndedAndNamed(
        DefaultTimeout.class,
        Map.of("junit.jupiter.execution.timeout.default", "2 s"),
        "timed out after 2 s");
  }

  @Test
  void theExtensionsOwnDeadlineWithoutATimeout() {
    assertEndedAndNamed(
        OwnDeadline.class,
        Map.of(),
        "ran past the extension's deadline "
            + "of 2 s (it has no @Timeout; the deadline is set with "
            + "AgentDoubleExtension.builder().deadline(..) or the configuration parameter "
            + "agentdouble.deadline)");
  }

  @Test
  void theOwnDeadlineFromTheConfigurationParameter() {
    assertEndedAndNamed(
        ConfiguredDeadline.class,
        Map.of("agentdouble.deadline", "1500 ms"),
        "ran past the extension's deadline of 1500 ms (it has no @Timeout; the deadline is set "
            + "with AgentDoubleExtension.builder().deadline(..) or the configuration parameter "
            + "agentdouble.deadline)");
  }
}
