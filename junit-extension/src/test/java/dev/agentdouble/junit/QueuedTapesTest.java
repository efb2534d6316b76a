package dev.agentdouble.junit;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlMatching;
import static dev.agentdouble.junit.FakeAgentTest.says;
import static dev.agentdouble.junit.InvocationPattern.invocation;
import static dev.agentdouble.junit.TextMatch.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.contract.QueueFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A tape the test enqueued is taken by the run from the fake's queue folder, without a request to
 * the control plane (AGENTDOUBLE_QUEUE, docs/cli.md); the journal, the verifications and the
 * strictness see it as they see a run that asked (AgentDoubleExtensionTest's unused tape too).
 */
@ExtendWith(AgentDoubleExtension.class)
@Timeout(120)
class QueuedTapesTest {
  private static int requests(FakeAgent agent) {
    return agent
        .plane()
        .server()
        .findAll(anyRequestedFor(urlMatching(agent.invocationPath() + ".*")))
        .size();
  }

  private static Runs.Result run(FakeAgent agent, String prompt) {
    return Runs.run(agent.executable(), "-p", "--trust", "--output-format", "stream-json", prompt);
  }

  @Test
  void anEnqueuedTapeIsTakenWithoutAskingTheControlPlaneAndJournalledAllTheSame(FakeAgent agent) {
    agent.enqueue(says("first", 0)).enqueue(says("second", 3));

    Runs.Result one = run(agent, "one");
    Runs.Result two = run(agent, "two");

    assertThat(one.out()).isEqualTo("first\n");
    assertThat(two.out()).isEqualTo("second\n");
    assertThat(two.exit()).isEqualTo(3);
    assertThat(requests(agent)).as("requests to the control plane").isZero();
    assertThat(agent.invocations()).extracting(Invocation::prompt).containsExactly("one", "two");
    assertThat(agent.takeInvocation().prompt()).isEqualTo("one");
    assertThat(agent.takeInvocation().prompt()).isEqualTo("two");
    agent.verify(1, invocation().prompt(equalTo("two")));
    assertThat(agent.findAll(invocation().prompt(equalTo("one")))).hasSize(1);
    assertThatThrownBy(() -> agent.verify(invocation().prompt(equalTo("three"))))
        .hasMessageContaining("got 0 (of 2)")
        .hasMessageContaining("closest: ");
  }

  /**
   * With a stub, every run asks the control plane, which answers from the stub or takes the queued
   * tape; the invocations, from the queue folder and the journal, are in the order they came.
   */
  @Test
  void withAStubEveryRunAsksAndTheQueueIsTakenByThePlane(FakeAgent agent) {
    agent.enqueue(says("queued first", 0));
    Runs.Result before = run(agent, "before the stub");
    agent.enqueue(says("queued second", 0));
    agent.when(invocation().prompt(equalTo("stubbed"))).reply(says("from the stub", 0));

    Runs.Result stubbed = run(agent, "stubbed");
    Runs.Result queued = run(agent, "other");

    assertThat(before.out()).isEqualTo("queued first\n");
    assertThat(stubbed.out()).isEqualTo("from the stub\n");
    assertThat(queued.out()).isEqualTo("queued second\n");
    assertThat(requests(agent)).as("requests to the control plane").isEqualTo(2);
    assertThat(agent.invocations())
        .extracting(Invocation::prompt)
        .containsExactly("before the stub", "stubbed", "other");
  }

  /** A reset forgets the queue: its folder is empty, and a run finds nothing queued. */
  @Test
  void aResetEmptiesTheQueue(FakeAgent agent) throws Exception {
    agent.enqueue(says("forgotten", 0));
    run(agent, "taken? no");
    agent.enqueue(says("forgotten too", 0));

    agent.reset().allowUnmatched();

    try (var files = Files.list(agent.directory().resolve("queue"))) {
      assertThat(files.map(f -> f.getFileName().toString()).toList()).containsExactly("taken");
    }
    assertThat(run(agent, "after").exit()).isEqualTo(70);
    assertThat(agent.invocations()).extracting(Invocation::prompt).containsExactly("after");
  }

  /** The rules the fake holds the queue to: the folders are the user's only, whatever the umask. */
  @Test
  void theQueueFoldersAreTheUsersOnly(FakeAgent agent) throws Exception {
    Path queue = agent.directory().resolve("queue");

    assertThat(Files.getPosixFilePermissions(queue))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
    assertThat(Files.getPosixFilePermissions(queue.resolve(QueueFiles.TAKEN)))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
  }

  /** The fake replays only files no one else can write: the queue's are the user's only. */
  @Test
  void theQueuedFilesAreTheUsersOnlyWhateverTheUmask(FakeAgent agent) throws Exception {
    agent.enqueue(says("first", 0));
    Path queue = agent.directory().resolve("queue");

    for (String suffix : new String[] {QueueFiles.TAPE, QueueFiles.META}) {
      assertThat(Files.getPosixFilePermissions(queue.resolve(QueueFiles.entry(1) + suffix)))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }
    assertThat(run(agent, "one").out()).isEqualTo("first\n");
  }

  /** An invocation in the queue is one a run wrote: never a link, nor another user's file. */
  @Test
  void onlyTheUsersOwnFilesInTakenAreInvocations(FakeAgent agent) throws Exception {
    agent.enqueue(says("first", 0));
    assertThat(run(agent, "one").out()).isEqualTo("first\n");
    Path taken = agent.directory().resolve("queue").resolve(QueueFiles.TAKEN);
    String planted =
        Files.readString(taken.resolve(QueueFiles.entry(1) + QueueFiles.INVOCATION))
            .replace("\"prompt\":\"one\"", "\"prompt\":\"planted\"");
    assertThat(planted).contains("planted");
    Path outside = Files.writeString(agent.directory().resolve("planted.json"), planted);
    Files.createSymbolicLink(taken.resolve(QueueFiles.entry(2) + QueueFiles.INVOCATION), outside);
    Path others =
        Files.writeString(taken.resolve(QueueFiles.entry(3) + QueueFiles.INVOCATION), planted);
    Files.setAttribute(others, "unix:uid", 65534); // the tests run as root: nobody's now

    assertThat(agent.invocations()).extracting(Invocation::prompt).containsExactly("one");
  }
}
