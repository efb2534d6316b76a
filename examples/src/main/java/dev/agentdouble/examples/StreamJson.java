package dev.agentdouble.examples;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentdouble.examples.AgentEvent.AssistantText;
import dev.agentdouble.examples.AgentEvent.Result;
import dev.agentdouble.examples.AgentEvent.SystemInit;
import dev.agentdouble.examples.AgentEvent.ThinkingDelta;
import dev.agentdouble.examples.AgentEvent.ToolCallCompleted;
import dev.agentdouble.examples.AgentEvent.ToolCallStarted;
import dev.agentdouble.examples.AgentEvent.Unknown;
import dev.agentdouble.examples.AgentEvent.UserMessage;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Reads the CLI's output, one line at a time. */
final class StreamJson {
  /**
   * No limit on the length of a string: a read or edit result holds a whole file, tens of MiB in
   * one JSON string, and Jackson (since 2.15) refuses strings over 20,000,000 characters by
   * default.
   */
  static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .streamReadConstraints(
                      StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  /** Keys the 2026 CLIs put next to the tool's own object inside {@code tool_call}. */
  private static final Set<String> TOOL_SIBLINGS =
      Set.of("hookAdditionalContexts", "toolCallId", "startedAtMs", "completedAtMs");

  private StreamJson() {}

  /** The JSON object on {@code line}; empty when the line is not one (garbage, a cut line, ...). */
  static Optional<JsonNode> object(String line) {
    try {
      JsonNode node = MAPPER.readTree(line);
      return node != null && node.isObject() ? Optional.of(node) : Optional.empty();
    } catch (JsonProcessingException e) {
      return Optional.empty();
    }
  }

  /** The event one stream-json object stands for. */
  static AgentEvent event(JsonNode event) {
    String type = event.path("type").asText("");
    String subtype = event.path("subtype").asText("");
    return switch (type + "/" + subtype) {
      case "system/init" ->
          new SystemInit(
              event.path("session_id").asText(""),
              event.path("model").asText(""),
              event.path("cwd").asText(""),
              event.path("apiKeySource").asText(""),
              event.path("permissionMode").asText(""));
      case "user/" -> new UserMessage(text(event.path("message")));
      case "assistant/" -> new AssistantText(text(event.path("message")));
      case "thinking/delta" -> new ThinkingDelta(event.path("text").asText(""));
      case "tool_call/started" -> {
        Tool tool = tool(event.path("tool_call"));
        yield new ToolCallStarted(event.path("call_id").asText(""), tool.name(), tool.args());
      }
      case "tool_call/completed" -> {
        Tool tool = tool(event.path("tool_call"));
        yield new ToolCallCompleted(
            event.path("call_id").asText(""), tool.name(), tool.args(), tool.result());
      }
      default ->
          type.equals("result")
              ? new Result(
                  subtype,
                  event.path("is_error").asBoolean(false),
                  event.path("result").asText(""),
                  event.path("duration_ms").asLong(0),
                  event.path("session_id").asText(""))
              : new Unknown(type, subtype, event);
    };
  }

  /** Every {@code content[].text} of a message, joined. */
  private static String text(JsonNode message) {
    StringBuilder text = new StringBuilder();
    for (JsonNode part : message.path("content")) {
      if (part.path("type").asText("").equals("text")) {
        text.append(part.path("text").asText(""));
      }
    }
    return text.toString();
  }

  private record Tool(String name, JsonNode args, JsonNode result) {}

  /**
   * The tool object inside {@code tool_call}, e.g. {@code
   * {"readToolCall":{"args":..,"result":..}}}.
   */
  private static Tool tool(JsonNode toolCall) {
    for (Map.Entry<String, JsonNode> field : toolCall.properties()) {
      if (TOOL_SIBLINGS.contains(field.getKey()) || !field.getValue().isObject()) {
        continue;
      }
      JsonNode tool = field.getValue();
      if (field.getKey().equals("function")) {
        // the documented shape of other tools: {"function":{"name":"..","arguments":".."}}
        return new Tool(
            tool.path("name").asText("function"),
            TextNode.valueOf(tool.path("arguments").asText("")),
            tool.path("result"));
      }
      return new Tool(field.getKey(), tool.path("args"), tool.path("result"));
    }
    return new Tool("unknown", MissingNode.getInstance(), MissingNode.getInstance());
  }
}
