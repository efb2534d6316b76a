package dev.agentdouble.recorder.internal.record;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.OutputFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the recorder reads from a {@code claude} command line (reference/claude-code.md §1). */
class ClaudeCommandLineTest {
  @Test
  void claudeIsTheProgramsFileName() {
    assertThat(RecordedCommandLine.claude(List.of("/opt/node_modules/.bin/claude", "-p"))).isTrue();
    assertThat(RecordedCommandLine.claude(List.of("cursor-agent", "-p"))).isFalse();
    assertThat(RecordedCommandLine.program(List.of("/opt/node_modules/.bin/claude")))
        .isEqualTo("claude");
  }

  @Test
  void theOutputFormatIsAskedEitherWayAndIsTextOtherwise() {
    assertThat(RecordedCommandLine.outputFormat(List.of("claude", "-p", "hi")))
        .isEqualTo(OutputFormat.TEXT);
    assertThat(RecordedCommandLine.outputFormat(List.of("claude", "--print", "hi")))
        .isEqualTo(OutputFormat.TEXT);
    assertThat(
            RecordedCommandLine.outputFormat(
                List.of("claude", "-p", "--output-format", "stream-json", "--verbose", "hi")))
        .isEqualTo(OutputFormat.STREAM_JSON);
    assertThat(RecordedCommandLine.outputFormat(List.of("claude", "-p", "--output-format=json")))
        .isEqualTo(OutputFormat.JSON);
    // Cursor's default is unchanged
    assertThat(RecordedCommandLine.outputFormat(List.of("cursor-agent", "-p", "hi")))
        .isEqualTo(OutputFormat.STREAM_JSON);
  }

  @Test
  void claudeHasNoAcpAgentAndNoWorkspaceOption() {
    assertThat(RecordedCommandLine.acp(List.of("claude", "acp"))).isFalse();
    assertThat(RecordedCommandLine.acp(List.of("claude", "-p", "acp"))).isFalse();
    assertThat(RecordedCommandLine.workspace(List.of("claude", "--workspace", "/x"))).isEmpty();
    assertThat(RecordedCommandLine.workspace(List.of("cursor-agent", "--workspace", "/x")))
        .contains("/x");
  }
}
