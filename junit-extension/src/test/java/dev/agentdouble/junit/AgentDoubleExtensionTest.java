package dev.agentdouble.junit;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.instanceOf;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** The extension's lifecycle and failure messages, run through JUnit's EngineTestKit. */
@Timeout(120)
class AgentDoubleExtensionTest {
  static final List<String> LIFECYCLES = Collections.synchronizedList(new ArrayList<>());
  static final List<String> REPLAYED = Collections.synchronizedList(new ArrayList<>());

  static Tape says(String text) {
    return new Tape(
        Header.empty(), List.of(Frame.OutBytes.text(0, text + "\n"), new Frame.Exit(0, 0)));
  }

  /** Runs the fixture class's tests, one after the other, as JUnit would. */
  static EngineExecutionResults execute(Class<?> fixture) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .selectors(selectClass(fixture))
        .execute();
  }

  /** The events of the fixture class's tests. */
  static Events run(Class<?> fixture) {
    return execute(fixture).testEvents();
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class UnmatchedInvocation {
    @Test
    void invokesWithAPromptNoStubExpects(FakeAgent agent) {
      agent.when(invocation().prompt(containing("deploy"))).reply(says("ok"));
      Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "deploy");
      Runs.run(
          agent.executable(),
          "-p",
          "--trust",
          "--output-format",
          "stream-json",
          "refactor the cart");
    }
  }

  @Test
  void anInvocationThatMatchedNothingFailsTheTestNamingIt() {
    run(UnmatchedInvocation.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    m ->
                        m.startsWith(
                                "fake agent: an invocation matched no stub and no enqueued tape: "
                                    + "prompt \"refactor the cart\", stream-json, argv [-p, --trust, --output-format, "
                                    + "stream-json, refactor the cart]")
                            && m.contains("closest stub"))));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class UnusedTape {
    @Test
    void enqueuesTwoUsesOne(FakeAgent agent) {
      agent.enqueue(says("one")).enqueue(says("two"));
      Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "x");
    }
  }

  @Test
  void anEnqueuedTapeNeverUsedFailsTheTest() {
    run(UnusedTape.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(AssertionError.class),
                message(
                    "fake agent: enqueued tape #2 was never used (call allowUnused() if that is expected)")));
  }

  static class Relaxed {
    @RegisterExtension
    static AgentDoubleExtension agents =
        AgentDoubleExtension.builder().allowUnused().allowUnmatched().build();

    @Test
    void leavesATapeAndInvokesUnexpectedly(FakeAgent agent) {
      agent.enqueue(says("one")).enqueue(says("two"));
      Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "x");
      Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "y");
      Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "z");
    }
  }

  @Test
  void strictnessCanBeRelaxedWithTheBuilder() {
    run(Relaxed.class).assertStatistics(stats -> stats.succeeded(1).failed(0));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class FinalField {
    final FakeAgent agent = null;

    @Test
    void test() {}
  }

  @Test
  void aFinalFieldIsAConfigurationErrorNamingIt() {
    run(FinalField.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message("FakeAgent field [FinalField.agent] must not be final")));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class Lifecycles {
    static FakeAgent perClass;
    FakeAgent perTest;

    @Test
    void one(FakeAgent parameter) {
      LIFECYCLES.add("class:" + perClass.directory());
      LIFECYCLES.add("test:" + perTest.directory());
      LIFECYCLES.add("param:" + parameter.directory());
    }

    @Test
    void two(FakeAgent parameter) {
      LIFECYCLES.add("class:" + perClass.directory());
      LIFECYCLES.add("test:" + perTest.directory());
      LIFECYCLES.add("param:" + parameter.directory());
    }
  }

  @Test
  void aStaticFieldLivesForTheClassAnInstanceFieldOrParameterForOneTest() {
    LIFECYCLES.clear();
    run(Lifecycles.class).assertStatistics(stats -> stats.succeeded(2));

    List<String> seen = new ArrayList<>(LIFECYCLES);
    assertThat(seen).hasSize(6);
    assertThat(seen.get(0)).isEqualTo(seen.get(3)); // one fake for the class
    assertThat(seen.get(1).substring(5))
        .isEqualTo(seen.get(2).substring(6)); // field and parameter: same
    assertThat(seen.get(1)).isNotEqualTo(seen.get(4)); // a new one per test
    assertThat(seen)
        .allSatisfy(s -> assertThat(Path.of(s.substring(s.indexOf(':') + 1))).doesNotExist());
  }

  static final List<Long> PIDS = Collections.synchronizedList(new ArrayList<>());

  @ExtendWith(AgentDoubleExtension.class)
  static class LeavesAHangingRun {
    @Test
    void startsAHangAndWalksAway(FakeAgent agent) throws Exception {
      agent.enqueue(
          new Tape(
              Header.empty(), List.of(Frame.OutBytes.text(0, "x\n"), new Frame.Hang(0, false))));
      Process p =
          new ProcessBuilder(
                  agent.executable().toString(),
                  "-p",
                  "--trust",
                  "--output-format",
                  "stream-json",
                  "hi")
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .start();
      p.getInputStream().read();
      PIDS.add(p.pid());
    }
  }

  @Test
  void runsStillAliveAtTheEndOfATestAreKilled() throws Exception {
    PIDS.clear();
    run(LeavesAHangingRun.class).assertStatistics(stats -> stats.succeeded(1));

    long pid = PIDS.get(0);
    ProcessHandle.of(pid)
        .ifPresent(
            p -> {
              try {
                p.onExit().get(10, TimeUnit.SECONDS);
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            });
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
  }

  static final List<Path> KEPT = Collections.synchronizedList(new ArrayList<>());

  @ExtendWith(AgentDoubleExtension.class)
  static class Failing {
    @Test
    void fails(FakeAgent agent) {
      KEPT.add(agent.directory());
      throw new AssertionError("the consumer misbehaved");
    }
  }

  @Test
  void aFailedTestKeepsItsFakesFolder() throws Exception {
    KEPT.clear();
    run(Failing.class).assertStatistics(stats -> stats.failed(1));

    assertThat(KEPT.get(0)).isDirectory();
    assertThat(KEPT.get(0).resolve("bin/cursor-agent")).exists();
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class MissingTape {
    @Test
    @AgentTape(value = "nothing-here", mode = AgentTape.Mode.REPLAY)
    void replays(FakeAgent agent) {}
  }

  @Test
  void replayModeWithoutItsTapeSaysWhereItLookedAndHowToRecord() {
    run(MissingTape.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message(
                    m ->
                        m.contains("@AgentTape(\"nothing-here\"): no tape at ")
                            && m.contains("agentdouble/MissingTape/nothing-here.tape.ndjson")
                            && m.contains("-Dagentdouble.mode=record"))));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class RecordedTape {
    @Test
    @AgentTape(value = "hello", mode = AgentTape.Mode.REPLAY)
    void replays(FakeAgent agent) {
      REPLAYED.add(
          Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "one")
              .out());
      REPLAYED.add(
          Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "two")
              .out());
    }
  }

  @Test
  void aRecordedTapeAnswersEveryInvocationOfItsTest() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    Path file = root.resolve("RecordedTape/hello.tape.ndjson");
    says("recorded hello").write(file);
    REPLAYED.clear();
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .selectors(selectClass(RecordedTape.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));

    assertThat(REPLAYED).containsExactly("recorded hello\n", "recorded hello\n");
  }

  /** No {@code @ExtendWith}: the annotation brings the extension. */
  @AgentTape(value = "hello", mode = AgentTape.Mode.REPLAY)
  static class AnnotationAlone {
    @Test
    void isHandedAFakeThatReplaysTheTape(FakeAgent agent) {
      ALONE.add(
          Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "one")
              .out());
    }
  }

  static final List<String> ALONE = new CopyOnWriteArrayList<>();

  /** A class's recording, which one of its tests does not need. */
  @AgentTape(value = "hello", mode = AgentTape.Mode.REPLAY)
  static class ClassTapeOneTestDoesNotUse {
    @Test
    void runsTheAgent(FakeAgent agent) {
      Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "one");
    }

    @Test
    void doesNotRunTheAgent(FakeAgent agent) {
      assertThat(agent.executable()).exists();
    }
  }

  @Test
  void aReplayedRecordingNeedNotBeUsedByEveryTestUnlikeAStub() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    says("hi").write(root.resolve("ClassTapeOneTestDoesNotUse/hello.tape.ndjson"));

    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .selectors(selectClass(ClassTapeOneTestDoesNotUse.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(2).failed(0));
  }

  @Test
  void agentTapeWorksWithoutRegisteringTheExtension() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    says("alone").write(root.resolve("AnnotationAlone/hello.tape.ndjson"));
    ALONE.clear();
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .selectors(selectClass(AnnotationAlone.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));

    assertThat(ALONE).containsExactly("alone\n");
  }

  @Test
  void anUnknownConfiguredModeIsRefusedWithTheValuesItTakes() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .configurationParameter("agentdouble.mode", "replay-maybe")
        .selectors(selectClass(Records.class))
        .execute()
        .testEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message(
                    m ->
                        m.contains(
                            "@AgentTape(\"fresh\"): agentdouble.mode must be replay,"
                                + " record or auto, was \"replay-maybe\""))));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class Records {
    @Test
    @AgentTape("fresh")
    void records(FakeAgent agent) {
      RECORDED.add(
          Runs.run(
                  agent.executable(),
                  "-p",
                  "--trust",
                  "--output-format",
                  "stream-json",
                  "first question")
              .out());
      RECORDED.add(
          Runs.run(
                  agent.executable(),
                  "-p",
                  "--trust",
                  "--output-format",
                  "stream-json",
                  "second question")
              .out());
    }
  }

  static final List<String> RECORDED = Collections.synchronizedList(new ArrayList<>());

  @Test
  void recordingIsRefusedOnCi() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    Events onCi =
        EngineTestKit.engine("junit-jupiter")
            .configurationParameter("agentdouble.tapes", root.toString())
            .configurationParameter("agentdouble.ci", "true")
            .configurationParameter("agentdouble.mode", "record")
            .selectors(selectClass(Records.class))
            .execute()
            .testEvents();

    onCi.assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                instanceOf(ExtensionConfigurationException.class),
                message(
                    m ->
                        m.startsWith("@AgentTape(\"fresh\"): recording is refused when CI=true"))));
  }

  @Test
  void recordModeKeepsThePassedTestsRunsOfTheRealCliAndReplayModePlaysThemBack() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    // the "real" CLI: a script that answers with a stream-json event naming its prompt
    Path real = root.resolve("real-cursor-agent");
    Files.writeString(
        real,
        "#!/bin/sh\n"
            + "for last; do :; done\n"
            + "printf '{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":"
            + "[{\"type\":\"text\",\"text\":\"real answer to %s\"}]}}\\n' \"$last\"\n");
    Runs.executable(real);
    RECORDED.clear();

    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .configurationParameter("agentdouble.ci", "false")
        .configurationParameter("agentdouble.mode", "record")
        .configurationParameter("agentdouble.cli", real.toString())
        .selectors(selectClass(Records.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));
    List<String> live = new ArrayList<>(RECORDED);
    RECORDED.clear();
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .configurationParameter("agentdouble.mode", "replay")
        .selectors(selectClass(Records.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));

    assertThat(live)
        .containsExactly(
            "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"real answer to first question\"}]}}\n",
            "{\"type\":\"assistant\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"real answer to second question\"}]}}\n");
    assertThat(root.resolve("Records/fresh.tape.ndjson")).exists();
    assertThat(root.resolve("Records/fresh.2.tape.ndjson")).exists();
    assertThat(RECORDED).isEqualTo(live); // replayed in order, byte for byte
  }

  @ExtendWith(AgentDoubleExtension.class)
  @AgentTape(value = "hello", mode = AgentTape.Mode.REPLAY)
  static class ClassTape {
    @Test
    void usesTheClassTape(FakeAgent agent) {
      CLASS_TAPE.add(
          Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", "one")
              .out());
    }
  }

  static final List<String> CLASS_TAPE = Collections.synchronizedList(new ArrayList<>());

  @Test
  void aTapeOnTheClassAnswersItsTests() throws Exception {
    Path root = Files.createTempDirectory("tapes");
    says("class tape").write(root.resolve("ClassTape/hello.tape.ndjson"));
    CLASS_TAPE.clear();

    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("agentdouble.tapes", root.toString())
        .selectors(selectClass(ClassTape.class))
        .execute()
        .testEvents()
        .assertStatistics(stats -> stats.succeeded(1));

    assertThat(CLASS_TAPE).containsExactly("class tape\n");
  }
}
