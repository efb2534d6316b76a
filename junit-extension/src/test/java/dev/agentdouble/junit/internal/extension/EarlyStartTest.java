package dev.agentdouble.junit.internal.extension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectUniqueId;

import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.junit.AgentDoubleExtension;
import dev.agentdouble.junit.AgentTape;
import dev.agentdouble.junit.FakeAgent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.store.Namespace;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The launcher session listener ({@link EarlyStart}, registered in META-INF/services) starts the
 * control plane as the test plan begins when it holds a class of the extension, the extension's
 * fakes use that plane, and it is stopped when the session closes; a session without such a class,
 * or with the switch off, starts none. Each case runs a class of this file in a launcher session of
 * its own, as Surefire and Gradle do.
 */
@Timeout(120)
@Execution(ExecutionMode.SAME_THREAD) // one at a time: they count the early start's threads
class EarlyStartTest {

  /** A class of the extension: its test notes the control plane URL its fake was given. */
  @ExtendWith(AgentDoubleExtension.class)
  static class UsesAFake {
    static volatile String url;

    @Test
    void notesItsControlPlane(FakeAgent agent) {
      url = agent.environment().get(FakeEnvironment.URL);
    }
  }

  static class UsesNoFake {
    @Test
    void runs() {}
  }

  /** What a session left behind: the plane started early and its URL, read before it closed. */
  record Session(
      Optional<EarlyPlane> early, Optional<String> url, boolean warm, List<String> failures) {}

  private static Session run(DiscoverySelector selector, boolean enabled) {
    List<String> failures = new ArrayList<>();
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
              failures.add(id.getDisplayName() + ": " + result);
            }
          }
        };
    LauncherDiscoveryRequestBuilder request =
        LauncherDiscoveryRequestBuilder.request()
            .selectors(selector)
            .configurationParameter(EarlyStart.ENABLED, Boolean.toString(enabled));
    Optional<EarlyPlane> early;
    Optional<String> url;
    boolean warm;
    try (LauncherSession session = LauncherFactory.openSession()) {
      session.getLauncher().execute(request.build(), listener);
      early =
          Optional.ofNullable(
              session
                  .getStore()
                  .get(
                      Namespace.create(EarlyPlane.NAMESPACE.getParts()),
                      EarlyPlane.class,
                      EarlyPlane.class));
      url = early.map(e -> e.await(Duration.ofSeconds(30)).plane().baseUrl());
      warm = early.map(e -> e.await(Duration.ofSeconds(30)).plane().warm()).orElse(false);
    }
    return new Session(early, url, warm, failures);
  }

  @Test
  void aClassOfTheExtensionGetsThePlaneStartedEarlyWhichTheSessionStops() {
    UsesAFake.url = null;
    Session session = run(selectClass(UsesAFake.class), true);

    assertThat(session.failures()).isEmpty();
    assertThat(session.early()).isPresent();
    SharedPlane plane = session.early().get().await(Duration.ofSeconds(1));
    // the fake used the plane started early, not one of its own
    assertThat(UsesAFake.url).startsWith(session.url().orElseThrow() + "/");
    // warmed by one request as it started, so the first test's invocation is not WireMock's first
    assertThat(session.warm()).isTrue();
    // closed with the session: its server stopped, the thread that started it gone
    assertThat(plane.plane().server().isRunning()).isFalse();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> threadsNamed("agentdouble-early-start") == 0);
  }

  @Test
  void aClassFoundOtherwiseThanByNameGetsItAsTheTestPlanStarts() {
    UsesAFake.url = null;
    String id = "[engine:junit-jupiter]/[class:" + UsesAFake.class.getName() + "]";
    Session session = run(selectUniqueId(id), true);

    assertThat(session.failures()).isEmpty();
    assertThat(session.early()).isPresent();
    assertThat(UsesAFake.url).isNotNull();
  }

  @Test
  void aSessionWithoutAFakeStartsNone() {
    Session session = run(selectClass(UsesNoFake.class), true);

    assertThat(session.failures()).isEmpty();
    assertThat(session.early()).isEmpty();
  }

  @Test
  void theSwitchLeavesTheStartToTheFirstFake() {
    UsesAFake.url = null;
    Session session = run(selectClass(UsesAFake.class), false);

    assertThat(session.failures()).isEmpty();
    assertThat(session.early()).isEmpty();
    assertThat(UsesAFake.url).isNotNull(); // from the plane the extension started itself
  }

  private static long threadsNamed(String name) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals(name) && t.isAlive())
        .count();
  }

  @AgentTape("x")
  static class UnderAgentTape {}

  static class Registered {
    @RegisterExtension static AgentDoubleExtension agents = AgentDoubleExtension.builder().build();
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class Outer {
    @Nested
    class Inner {}
  }

  static class InheritsIt extends UsesAFake {}

  @Test
  void seesTheExtensionWhereverAClassDeclaresIt() {
    assertThat(EarlyStart.usesTheExtension(UsesAFake.class)).isTrue();
    assertThat(EarlyStart.usesTheExtension(UnderAgentTape.class)).isTrue();
    assertThat(EarlyStart.usesTheExtension(Registered.class)).isTrue();
    assertThat(EarlyStart.usesTheExtension(Outer.Inner.class)).isTrue();
    assertThat(EarlyStart.usesTheExtension(InheritsIt.class)).isTrue();
    assertThat(EarlyStart.usesTheExtension(UsesNoFake.class)).isFalse();
  }

  @Test
  void aFailedStartFailsEachFakeWithItsCauseAndClosesQuietly() {
    EarlyPlane early =
        new EarlyPlane(
            () -> {
              throw new UncheckedIOException("cannot create a work folder", new IOException("x"));
            });

    assertThatThrownBy(() -> early.await(Duration.ofSeconds(30)))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessage("cannot create a work folder");
    early.close();
  }

  @Test
  void closingDoesNotWaitForTheStartAndStopsThePlaneOnceItIsUp() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    AtomicReference<SharedPlane> started = new AtomicReference<>();
    EarlyPlane early =
        new EarlyPlane(
            () -> {
              try {
                release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              started.set(SharedPlane.start());
              return started.get();
            });

    early.close(); // returns with the start still held back
    assertThat(started.get()).isNull();
    release.countDown();

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> started.get() != null && !started.get().plane().server().isRunning());
  }

  @Test
  void aLauncherThatDiscoversAndExecutesInTwoSessionsRunsTheFake() {
    UsesAFake.url = null;
    List<String> failures = new ArrayList<>();
    Launcher launcher = LauncherFactory.create(); // a session per call: discover, then execute
    TestPlan plan =
        launcher.discover(
            LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(UsesAFake.class))
                .build());
    launcher.execute(
        plan,
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
              failures.add(id.getDisplayName() + ": " + result);
            }
          }
        });

    assertThat(failures).isEmpty();
    assertThat(UsesAFake.url).isNotNull();
  }

  @Test
  void aStartTooSlowFailsTheWaitNamingTheSwitch() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    EarlyPlane early =
        new EarlyPlane(
            () -> {
              try {
                release.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              throw new IllegalStateException("released");
            });
    try {
      assertThatThrownBy(() -> early.await(Duration.ofMillis(50)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("still starting")
          .hasMessageContaining(EarlyStart.ENABLED + "=false");
    } finally {
      release.countDown();
      early.close();
    }
  }
}
