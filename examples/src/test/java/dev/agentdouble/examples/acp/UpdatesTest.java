package dev.agentdouble.examples.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.examples.acp.AcpUpdate.Other;
import dev.agentdouble.examples.acp.AcpUpdate.Thought;
import dev.agentdouble.examples.acp.AcpUpdate.ToolCallStarted;
import org.junit.jupiter.api.Test;

/**
 * How the client reads updates and writes answers where the SDK's defaults fall short; no agent
 * needed. The JSON here is the subject: Cursor's own shapes, from its transcripts.
 */
class UpdatesTest {

  @Test
  void anUpdateOfAKindTheSdkDoesNotKnowIsKept() throws Exception {
    JsonNode title =
        Updates.MAPPER.readTree("{\"sessionUpdate\":\"session_info_update\",\"title\":\"Shell\"}");

    assertThat(Updates.of(title)).isEqualTo(new Other("session_info_update", title));
  }

  @Test
  void aToolKindTheSdkDoesNotKnowIsKeptAsSent() throws Exception {
    JsonNode call =
        Updates.MAPPER.readTree(
            "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"c1\",\"title\":\"Plan\","
                + "\"kind\":\"cursor_plan\",\"status\":\"pending\",\"rawInput\":{}}");

    assertThat(Updates.of(call))
        .isInstanceOfSatisfying(
            ToolCallStarted.class, started -> assertThat(started.kind()).isEqualTo("cursor_plan"));
  }

  @Test
  void aThoughtIsReadThroughTheSdksTypes() throws Exception {
    JsonNode thought =
        Updates.MAPPER.readTree(
            "{\"sessionUpdate\":\"agent_thought_chunk\","
                + "\"content\":{\"type\":\"text\",\"text\":\"Running the shell command\"}}");

    assertThat(Updates.of(thought)).isEqualTo(new Thought("Running the shell command"));
  }

  @Test
  void aPermissionAnswerNamesItsOutcomeOnce() throws Exception {
    String answer =
        Updates.MAPPER.writeValueAsString(
            new AcpSchema.RequestPermissionResponse(
                new AcpSchema.PermissionSelected("allow-once")));

    // the SDK's own mapper writes "outcome" twice in the inner object
    assertThat(answer)
        .isEqualTo("{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\"allow-once\"}}");
  }
}
