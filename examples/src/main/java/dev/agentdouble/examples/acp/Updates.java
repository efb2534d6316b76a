package dev.agentdouble.examples.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.ContentBlock;
import com.agentclientprotocol.sdk.spec.AcpSchema.SessionUpdate;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.List;
import java.util.Optional;

/** Reads the agent's {@code session/update}s into {@link AcpUpdate}s. */
final class Updates {
  /**
   * The one mapper of the ACP client, the SDK's too. Not the SDK's default {@code new
   * ObjectMapper()}: that fails on an update kind or enum value the SDK does not know (Cursor's
   * {@code session_info_update}), and the SDK then drops the whole notification with an error in
   * its log. Here an unknown kind reads as null, and this client keeps it as {@link
   * AcpUpdate.Other}. No limit on the length of a string: a tool's output holds whole files.
   */
  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
                  .build())
          .disable(DeserializationFeature.FAIL_ON_INVALID_SUBTYPE)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.READ_UNKNOWN_ENUM_VALUES_AS_NULL)
          .addMixIn(AcpSchema.PermissionSelected.class, OutcomeWrittenOnce.class)
          .addMixIn(AcpSchema.PermissionCancelled.class, OutcomeWrittenOnce.class)
          .build();

  /**
   * The SDK writes a permission answer's {@code outcome} twice, as the type id of {@code
   * RequestPermissionOutcome} and as the record's own field: {@code
   * {"outcome":"selected","outcome":"selected","optionId":"allow-once"}}, which a strict JSON
   * reader rejects. Written once here: as the type id.
   */
  @JsonIgnoreProperties(value = "outcome", allowSetters = true)
  private abstract static class OutcomeWrittenOnce {}

  private Updates() {}

  /** The update {@code update} (the {@code update} object of a notification) stands for. */
  static AcpUpdate of(JsonNode update) {
    SessionUpdate typed;
    try {
      typed = MAPPER.treeToValue(update, SessionUpdate.class);
    } catch (Exception e) {
      typed = null;
    }
    if (typed instanceof AcpSchema.AgentThoughtChunk chunk) {
      return new AcpUpdate.Thought(text(chunk.content()));
    } else if (typed instanceof AcpSchema.AgentMessageChunk chunk) {
      return new AcpUpdate.Message(text(chunk.content()));
    } else if (typed instanceof AcpSchema.UserMessageChunk chunk) {
      return new AcpUpdate.UserMessage(text(chunk.content()));
    } else if (typed instanceof AcpSchema.ToolCall call) {
      // kind and status as sent: the SDK's enums read a value they do not know as null
      return new AcpUpdate.ToolCallStarted(
          call.toolCallId(),
          Optional.ofNullable(call.title()).orElse(""),
          update.path("kind").asText(""),
          update.path("status").asText(""),
          tree(call.rawInput()));
    } else if (typed instanceof AcpSchema.ToolCallUpdateNotification call) {
      return new AcpUpdate.ToolCallUpdated(
          call.toolCallId(),
          Optional.of(update.path("status").asText("")).filter(s -> !s.isEmpty()),
          Optional.ofNullable(call.rawOutput()).map(Updates::tree));
    } else if (typed instanceof AcpSchema.CurrentModeUpdate mode) {
      return new AcpUpdate.ModeChanged(mode.currentModeId());
    }
    return new AcpUpdate.Other(update.path("sessionUpdate").asText(""), update);
  }

  /** The text of a content block; empty for images, audio and resources. */
  static String text(ContentBlock content) {
    return content instanceof AcpSchema.TextContent text && text.text() != null ? text.text() : "";
  }

  /** The text blocks of a tool call's content, joined by lines. */
  static String text(List<AcpSchema.ToolCallContent> content) {
    StringBuilder text = new StringBuilder();
    for (AcpSchema.ToolCallContent part :
        content == null ? List.<AcpSchema.ToolCallContent>of() : content) {
      if (part instanceof AcpSchema.ToolCallContentBlock block
          && !text(block.content()).isEmpty()) {
        text.append(text.length() == 0 ? "" : "\n").append(text(block.content()));
      }
    }
    return text.toString();
  }

  /** A value the SDK read as maps and lists, as a tree; a missing node for null. */
  static JsonNode tree(Object value) {
    return value == null ? MissingNode.getInstance() : MAPPER.valueToTree(value);
  }

  /**
   * An enum of the SDK as it is on the wire ({@code execute}, {@code allow_once}); empty for null.
   */
  static String wire(Enum<?> value) {
    return value == null ? "" : MAPPER.valueToTree(value).asText("");
  }
}
