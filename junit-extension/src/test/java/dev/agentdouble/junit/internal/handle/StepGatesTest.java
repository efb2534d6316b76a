package dev.agentdouble.junit.internal.handle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.script.Script;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The step gates of one fake as the test sees them, without a run: only the gates folder. */
@Timeout(60)
class StepGatesTest {
  @TempDir Path dir;

  @Test
  void aGateNoTapeHasFailsAtOnceNamingTheGatesTheTapesHave() throws Exception {
    StepGates gates = new StepGates(dir.resolve("gates"));
    gates.note(Script.of("go").gate("b").gate("a").result().exit(0).build());

    assertThatThrownBy(() -> gates.await("c", Duration.ofMinutes(5), () -> 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "no tape given to this fake has a gate named \"c\"; its tapes have \"a\", \"b\"");
    assertThatThrownBy(() -> gates.reached("c")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aGateReachedIsSeenAndAReleaseIsAFileReleasedTwiceAlike() throws Exception {
    StepGates gates = new StepGates(dir.resolve("gates"));
    gates.note(Script.of("go").gate("a").result().exit(0).build());
    assertThat(gates.reached("a").call()).isFalse();

    Files.writeString(gates.folder().resolve(GateFiles.reached("a")), GateFiles.mark(1));
    gates.await("a", Duration.ofSeconds(5), () -> 0);
    gates.release("a");
    gates.release("a");

    assertThat(gates.reached("a").call()).isTrue();
    assertThat(gates.folder().resolve(GateFiles.release("a"))).exists();
  }

  @Test
  void aWaitThatRunsOutSaysTheGateAndTheInvocations() throws Exception {
    StepGates gates = new StepGates(dir.resolve("gates"));
    gates.note(Script.of("go").gate("a").result().exit(0).build());

    assertThatThrownBy(() -> gates.await("a", Duration.ofMillis(1), () -> 2))
        .isInstanceOf(AssertionError.class)
        .hasMessage("fake agent did not reach gate \"a\" within 1ms (2 invocations)");
  }

  @Test
  void onlyLiveProcessesWithAMarkAreWaitingForStdin() throws Exception {
    StepGates gates = new StepGates(dir.resolve("gates"));
    Process gone = new ProcessBuilder("true").start();
    assertThat(gone.waitFor(30, TimeUnit.SECONDS)).isTrue();
    long self = ProcessHandle.current().pid();
    Files.createFile(gates.folder().resolve(GateFiles.stdinOpen(self)));
    Files.createFile(gates.folder().resolve(GateFiles.stdinOpen(gone.pid())));
    Files.createFile(gates.folder().resolve(GateFiles.STDIN_OPEN + "not-a-pid"));

    assertThat(gates.waitingForStdin()).containsExactly(self);
  }

  @Test
  void aResetForgetsTheTapesGatesAndEveryFileButKeepsTheFolder() throws Exception {
    StepGates gates = new StepGates(dir.resolve("gates"));
    gates.note(Script.of("go").gate("a").result().exit(0).build());
    gates.release("a");

    gates.reset();

    assertThat(gates.folder()).isEmptyDirectory();
    assertThatThrownBy(() -> gates.reached("a"))
        .hasMessageContaining("none of its tapes has a gate");
  }
}
