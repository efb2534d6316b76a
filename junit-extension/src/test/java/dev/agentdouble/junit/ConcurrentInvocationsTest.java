package dev.agentdouble.junit;

import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.containing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/**
 * Runs started together each take their own queued tape or sequence reply, in the order their
 * invocations reached the control plane, and what the end of the test reports unused is exactly
 * what no run took. Real fakes started at once; for larger numbers, the POSTs a fake sends, from
 * many threads at once. Each fixture runs through EngineTestKit, so the extension's own report at
 * the end of each trial is checked too: every fixture leaves one tape untaken on purpose.
 */
@Timeout(600)
class ConcurrentInvocationsTest {
  /** Real fakes started at once. */
  static final int FAKES = 8;

  /** Invocations sent at once from as many threads, or real fakes started at once in one trial. */
  static final int THREADS = 40;

  static final String NEVER_USED = " was never used (call allowUnused() if that is expected)";

  static Tape says(String text) {
    return new Tape(
        Header.empty(), List.of(Frame.OutBytes.text(0, text + "\n"), new Frame.Exit(0, 0)));
  }

  /**
   * The folders of the fixtures' fakes, by fixture: each trial fails on purpose, so the extension
   * keeps its folder in the system's temporary folder, and {@link #run} deletes them.
   */
  static final Map<Class<?>, List<Path>> FOLDERS = new ConcurrentHashMap<>();

  static void note(Object fixture, FakeAgent agent) {
    FOLDERS
        .computeIfAbsent(fixture.getClass(), c -> new CopyOnWriteArrayList<>())
        .add(agent.directory());
  }

  /** Runs the fixture's trials, then deletes the folders they kept. */
  static Events run(Class<?> fixture) {
    try {
      return EngineTestKit.engine("junit-jupiter")
          .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
          .selectors(selectClass(fixture))
          .execute()
          .testEvents();
    } finally {
      for (Path folder : FOLDERS.getOrDefault(fixture, List.of())) {
        delete(folder);
        try {
          // the JVM's work folder, empty once the kept folders are gone
          Files.deleteIfExists(folder.getParent());
        } catch (IOException e) {
          // another kept folder is still in it
        }
      }
      FOLDERS.remove(fixture);
    }
  }

  private static void delete(Path folder) {
    if (!Files.exists(folder)) {
      return;
    }
    try (Stream<Path> all = Files.walk(folder)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + folder, e);
    }
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class FakesStartedTogether {
    @RepeatedTest(3)
    void takeOneQueuedTapeEach(FakeAgent agent) {
      note(this, agent);
      for (int t = 1; t <= FAKES + 1; t++) {
        agent.enqueue(says("tape " + t));
      }

      Map<String, String> said = startTogether(agent, FAKES);

      assertEachTookOneInOrderOfArrival(agent, said, "tape ", FAKES);
    }
  }

  @Test
  void fakesStartedTogetherTakeOneQueuedTapeEachInOrderOfArrival() {
    run(FakesStartedTogether.class)
        .assertThatEvents()
        .haveExactly(
            3,
            finishedWithFailure(message("fake agent: enqueued tape #" + (FAKES + 1) + NEVER_USED)));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class FakesStartedTogetherOnASequence {
    @RepeatedTest(2)
    void takeOneReplyEach(FakeAgent agent) {
      note(this, agent);
      List<Tape> replies = new ArrayList<>();
      for (int t = 1; t <= FAKES + 1; t++) {
        replies.add(says("reply " + t));
      }
      agent
          .when(invocation())
          .reply(replies.get(0), replies.subList(1, replies.size()).toArray(Tape[]::new));

      Map<String, String> said = startTogether(agent, FAKES);

      assertEachTookOneInOrderOfArrival(agent, said, "reply ", FAKES);
    }
  }

  @Test
  void fakesStartedTogetherTakeOneReplyOfASequenceEachInOrderOfArrival() {
    run(FakesStartedTogetherOnASequence.class)
        .assertThatEvents()
        .haveExactly(
            2,
            finishedWithFailure(
                message(
                    "fake agent: stub reply #" + (FAKES + 1) + " to any invocation" + NEVER_USED)));
  }

  /**
   * Half of {@code count} invocations (prompts {@code even N}) match a sequence of as many replies;
   * the other half ({@code odd N}) take from the queue, which holds one tape more.
   */
  static List<String> halfAndHalf(FakeAgent agent, int count) {
    int half = count / 2;
    List<Tape> replies = new ArrayList<>();
    for (int t = 1; t <= half; t++) {
      replies.add(says("reply " + t));
    }
    agent
        .when(invocation().prompt(containing("even")))
        .reply(replies.get(0), replies.subList(1, replies.size()).toArray(Tape[]::new));
    for (int t = 1; t <= half + 1; t++) {
      agent.enqueue(says("tape " + t));
    }
    return names(count, i -> (i % 2 == 0 ? "even " : "odd ") + i);
  }

  /**
   * Each invocation took one reply or tape ({@code got}, by prompt, named by {@code reply} and
   * {@code tape}), and each of the sequence and the queue handed them out once each, in the order
   * the invocations arrived.
   */
  static void assertHalfAndHalf(
      FakeAgent agent,
      Map<String, String> got,
      int count,
      IntFunction<String> reply,
      IntFunction<String> tape) {
    List<String> arrived = agent.invocations().stream().map(Invocation::prompt).toList();
    assertThat(arrived).containsExactlyInAnyOrderElementsOf(got.keySet()).hasSize(count);
    assertThat(arrived.stream().filter(p -> p.startsWith("even")).map(got::get))
        .containsExactlyElementsOf(names(count / 2, reply));
    assertThat(arrived.stream().filter(p -> p.startsWith("odd")).map(got::get))
        .containsExactlyElementsOf(names(count / 2, tape));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class FortyFakesStartedTogether {
    @Test
    void takeOneReplyOrQueuedTapeEach(FakeAgent agent) {
      note(this, agent);
      List<String> prompts = halfAndHalf(agent, THREADS);

      Map<String, String> said = new LinkedHashMap<>();
      Together.run(agent.executable(), Map.of(), prompts)
          .forEach(
              (prompt, run) -> {
                assertThat(run.exit()).as("%s: %s", prompt, run.err()).isZero();
                said.put(prompt, run.out().strip());
              });

      assertHalfAndHalf(agent, said, THREADS, t -> "reply " + t, t -> "tape " + t);
    }
  }

  @Test
  void fortyFakesStartedTogetherTakeOneReplyOrQueuedTapeEachInOrderOfArrival() {
    run(FortyFakesStartedTogether.class)
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                message("fake agent: enqueued tape #" + (THREADS / 2 + 1) + NEVER_USED)));
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class InvocationsSentTogether {
    @RepeatedTest(3)
    void takeOneReplyOrQueuedTapeEach(FakeAgent agent) {
      note(this, agent);
      List<String> prompts = halfAndHalf(agent, THREADS);

      Map<String, String> tapes = postTogether(agent, prompts);

      assertHalfAndHalf(
          agent, tapes, THREADS, t -> "reply #" + t + " to prompt even", t -> "tape #" + t);
    }
  }

  @Test
  void invocationsSentTogetherTakeOneReplyOrQueuedTapeEachInOrderOfArrival() {
    run(InvocationsSentTogether.class)
        .assertThatEvents()
        .haveExactly(
            3,
            finishedWithFailure(
                message("fake agent: enqueued tape #" + (THREADS / 2 + 1) + NEVER_USED)));
  }

  static List<String> names(int count, IntFunction<String> name) {
    return IntStream.rangeClosed(1, count).mapToObj(name).toList();
  }

  /**
   * Every run took exactly one of the first {@code count} tapes ({@code prefix 1} ...), and the
   * invocations, in the order they reached the control plane, took them in order.
   */
  static void assertEachTookOneInOrderOfArrival(
      FakeAgent agent, Map<String, String> said, String prefix, int count) {
    List<String> tapes = names(count, t -> prefix + t);
    assertThat(said.values()).containsExactlyInAnyOrderElementsOf(tapes);
    List<String> arrived = agent.invocations().stream().map(Invocation::prompt).toList();
    assertThat(arrived).containsExactlyInAnyOrderElementsOf(said.keySet());
    assertThat(arrived.stream().map(said::get)).containsExactlyElementsOf(tapes);
  }

  /**
   * Starts {@code count} runs of the fake (prompts {@code run 1} ...) before waiting for any, and
   * returns what each printed on stdout, by prompt; each must exit 0.
   */
  static Map<String, String> startTogether(FakeAgent agent, int count) {
    Map<String, String> said = new LinkedHashMap<>();
    Together.run(agent.executable(), Map.of(), names(count, i -> "run " + i))
        .forEach(
            (prompt, run) -> {
              assertThat(run.exit()).as("%s: %s", prompt, run.err()).isZero();
              said.put(prompt, run.out().strip());
            });
    return said;
  }

  /**
   * Sends the invocation a fake would send for each of {@code prompts}, all at once from as many
   * threads, and returns the tape each got, by prompt.
   */
  static Map<String, String> postTogether(FakeAgent agent, List<String> prompts) {
    Map<String, String> env = agent.environment();
    return Together.post(
        URI.create(env.get(FakeEnvironment.URL) + "/invocations"),
        env.get(ControlSecret.ENV),
        prompts);
  }
}
