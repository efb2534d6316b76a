package dev.agentdouble.recorder.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which command lines the recorder takes for an ACP session, to proxy both ways. */
class AcpCommandTest {
  @Test
  void anAcpSessionIsTheAcpCommandAfterAnyOptions() {
    assertThat(RecordedCommandLine.acp(List.of("cursor-agent", "acp"))).isTrue();
    assertThat(RecordedCommandLine.acp(List.of("agent", "--force", "acp"))).isTrue();
    assertThat(RecordedCommandLine.acp(List.of("agent", "--model", "gpt-5", "acp"))).isTrue();
  }

  @Test
  void aPromptOrAnOptionsValueIsNot() {
    assertThat(RecordedCommandLine.acp(List.of("agent", "-p", "acp is a protocol"))).isFalse();
    assertThat(RecordedCommandLine.acp(List.of("agent", "--model", "acp", "hi"))).isFalse();
    assertThat(RecordedCommandLine.acp(List.of("agent", "--", "acp"))).isFalse();
    assertThat(RecordedCommandLine.acp(List.of("agent"))).isFalse();
  }
}
