package dev.agentdouble.junit.internal.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A message of the tape being read: its blocks, or the stream events it was sent as, and what the
 * result says of it; once the tape is read, the {@link ModelAnswer} it is: the message, its SSE
 * events (the tape's own, else one delta a block) and its whole form, or the stream cut short.
 */
final class ModelTurn {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  final long delayMs;
  final List<JsonNode> blocks = new ArrayList<>();
  final List<JsonNode> events = new ArrayList<>();
  JsonNode message;
  String requestId;
  long outputTokens = -1;
  String stopReason;
  boolean cut;
  boolean abandoned;
  String cutModel;
  long cutInputTokens;

  ModelTurn(long delayMs) {
    this.delayMs = delayMs;
  }

  long startOutputTokens() {
    return startUsage("output_tokens");
  }

  long startUsage(String key) {
    return message == null ? 0 : message.path("usage").path(key).asLong(0);
  }

  String stopReason() {
    if (stopReason != null) {
      return stopReason;
    }
    for (JsonNode block : blocks) {
      if (block.path("type").asText().equals("tool_use")) {
        return "tool_use";
      }
    }
    return "end_turn";
  }

  ModelAnswer answer() {
    if (cut || abandoned) {
      return cutShort(); // the CLI gave up on this stream: it was cut short
    }
    ObjectNode start = message == null ? NODES.objectNode() : message.deepCopy();
    ObjectNode whole = whole(start);
    List<ModelAnswer.Event> sse;
    if (!events.isEmpty()) {
      sse = asSent(events);
    } else {
      sse = new ArrayList<>();
      stream(start, sse);
    }
    return new ModelAnswer.Message(delayMs, requestId, sse, whole);
  }

  /**
   * The stream cut short: the events that came before the cut (those the CLI added on giving up,
   * the {@code message_stop} with {@code abandoned_blocks} and the {@code content_block_stop}s
   * before it, left out), or, for a tape without stream events, a {@code message_start} with the
   * input tokens the result counts beyond its messages.
   */
  private ModelAnswer.Cut cutShort() {
    if (!events.isEmpty()) {
      int end = events.size() - 1; // the abandoned message_stop
      while (end > 0 && events.get(end - 1).path("type").asText().equals("content_block_stop")) {
        end--;
      }
      return new ModelAnswer.Cut(delayMs, asSent(events.subList(0, end)));
    }
    List<ModelAnswer.Event> sse = new ArrayList<>();
    ObjectNode message = NODES.objectNode();
    message
        .put("id", "msg_cut")
        .put("type", "message")
        .put("role", "assistant")
        .put("model", cutModel)
        .putArray("content");
    message.putNull("stop_reason").putNull("stop_sequence");
    message
        .putObject("usage")
        .put("input_tokens", cutInputTokens)
        .put("output_tokens", 0)
        .put("cache_creation_input_tokens", 0)
        .put("cache_read_input_tokens", 0);
    ObjectNode start = NODES.objectNode().put("type", "message_start");
    start.set("message", message);
    sse.add(new ModelAnswer.Event("message_start", start.toString()));
    // a block begun: a stream that ends before any is taken for an empty answer, not a cut one
    ObjectNode block = NODES.objectNode().put("type", "content_block_start").put("index", 0);
    block.putObject("content_block").put("type", "text").put("text", "");
    sse.add(new ModelAnswer.Event("content_block_start", block.toString()));
    return new ModelAnswer.Cut(delayMs, sse);
  }

  /** The tape's own stream events, as the SSE stream sends them. */
  private static List<ModelAnswer.Event> asSent(List<JsonNode> events) {
    List<ModelAnswer.Event> sse = new ArrayList<>();
    for (JsonNode event : events) {
      sse.add(new ModelAnswer.Event(event.path("type").asText(), event.toString()));
    }
    return sse;
  }

  /** The message as a non-streaming request gets it: every block, the final usage. */
  private ObjectNode whole(ObjectNode start) {
    ObjectNode whole = start.deepCopy();
    whole.remove("context_management");
    ArrayNode content = whole.putArray("content");
    for (JsonNode block : blocks) {
      content.add(block);
    }
    whole.put("stop_reason", stopReason());
    whole.putNull("stop_sequence");
    ObjectNode usage = usage(start);
    usage.put("output_tokens", Math.max(outputTokens, 0));
    whole.set("usage", usage);
    return whole;
  }

  private static ObjectNode usage(ObjectNode message) {
    JsonNode usage = message.path("usage");
    return usage.isObject() ? ((ObjectNode) usage).deepCopy() : NODES.objectNode();
  }

  /** The SSE events of a message known only by its blocks: one delta a block. */
  private void stream(ObjectNode start, List<ModelAnswer.Event> sse) {
    ObjectNode opening = start.deepCopy();
    opening.remove("context_management");
    opening.putArray("content");
    opening.putNull("stop_reason");
    opening.putNull("stop_sequence");
    ObjectNode messageStart = NODES.objectNode().put("type", "message_start");
    messageStart.set("message", opening);
    sse.add(new ModelAnswer.Event("message_start", messageStart.toString()));
    for (int i = 0; i < blocks.size(); i++) {
      block(i, blocks.get(i), sse);
    }
    ObjectNode delta = NODES.objectNode().put("type", "message_delta");
    delta.putObject("delta").put("stop_reason", stopReason()).putNull("stop_sequence");
    delta.putObject("usage").put("output_tokens", Math.max(outputTokens, 0));
    sse.add(new ModelAnswer.Event("message_delta", delta.toString()));
    sse.add(new ModelAnswer.Event("message_stop", "{\"type\":\"message_stop\"}"));
  }

  private static void block(int index, JsonNode block, List<ModelAnswer.Event> sse) {
    String type = block.path("type").asText();
    ObjectNode empty = ((ObjectNode) block).deepCopy();
    List<ObjectNode> deltas = new ArrayList<>();
    switch (type) {
      case "text" -> {
        empty.put("text", "");
        deltas.add(NODES.objectNode().put("type", "text_delta").put("text", text(block)));
      }
      case "thinking" -> {
        empty.put("thinking", "").put("signature", "");
        deltas.add(
            NODES
                .objectNode()
                .put("type", "thinking_delta")
                .put("thinking", block.path("thinking").asText("")));
        deltas.add(
            NODES
                .objectNode()
                .put("type", "signature_delta")
                .put("signature", block.path("signature").asText("")));
      }
      case "tool_use" -> {
        empty.putObject("input");
        deltas.add(
            NODES
                .objectNode()
                .put("type", "input_json_delta")
                .put("partial_json", block.path("input").toString()));
      }
      default -> {
        // redacted_thinking, server tool blocks, ...: whole in content_block_start
      }
    }
    ObjectNode startBlock =
        NODES.objectNode().put("type", "content_block_start").put("index", index);
    startBlock.set("content_block", empty);
    sse.add(new ModelAnswer.Event("content_block_start", startBlock.toString()));
    for (ObjectNode delta : deltas) {
      ObjectNode event = NODES.objectNode().put("type", "content_block_delta").put("index", index);
      event.set("delta", delta);
      sse.add(new ModelAnswer.Event("content_block_delta", event.toString()));
    }
    sse.add(
        new ModelAnswer.Event(
            "content_block_stop",
            NODES.objectNode().put("type", "content_block_stop").put("index", index).toString()));
  }

  private static String text(JsonNode block) {
    return block.path("text").asText("");
  }
}
