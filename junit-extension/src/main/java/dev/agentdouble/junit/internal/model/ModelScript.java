package dev.agentdouble.junit.internal.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the model said in a Claude Code tape, as the answers a Messages API gives the CLI, one per
 * request, in order: the tape's assistant turns (one answer per message id, its blocks in order),
 * and the API errors its {@code system/api_retry} lines and its error result tell of.
 *
 * <p>Read from a stream-json tape: an {@code api_retry} line is one failed request (its {@code
 * error_status}; none: a stream cut short); an assistant message is one answer, streamed as the
 * tape's {@code stream_event} lines did when it holds them, else as one delta a block; an {@code
 * is_api_error_message} assistant line is the error that ended the run, given to every request
 * after it (the CLI may ask again without a streaming answer). The last message before a {@code
 * result} takes that result's stop reason and the output tokens the result counts beyond the
 * messages before it, so the CLI's totals and costs come out as the tape's. An answer waits, under
 * the timing asked for, the time from the line before its first one (the CLI's {@code
 * thinking_tokens} estimates, printed while an answer streams, aside) to it.
 */
public final class ModelScript {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** One answer to one request of the CLI. */
  public sealed interface Answer {
    /** How long to wait before answering, in milliseconds, as the tape's times say. */
    long delayMs();
  }

  /**
   * A model's message: {@code events} as the SSE stream sends them ({@code event:} name and {@code
   * data:} JSON each), {@code message} the whole message a non-streaming request gets.
   */
  public record Message(long delayMs, String requestId, List<Event> events, ObjectNode message)
      implements Answer {}

  /** An HTTP error: its status and Anthropic's error JSON. */
  public record Failure(long delayMs, int status, String requestId, ObjectNode body)
      implements Answer {}

  /**
   * A stream cut short: {@code events}, the beginning of a message, and no {@code message_stop};
   * the CLI takes it as a broken stream, as it does a connection closed mid-stream (an {@code
   * api_retry} line with no {@code error_status}), and counts the usage of its {@code
   * message_start}.
   */
  public record Cut(long delayMs, List<Event> events) implements Answer {}

  /** One server-sent event. */
  public record Event(String name, String data) {}

  private final String source;
  private final List<Answer> answers;
  private final Failure last;

  private ModelScript(String source, List<Answer> answers, Failure last) {
    this.source = source;
    this.answers = List.copyOf(answers);
    this.last = last;
  }

  /** Where the tape came from (a file, {@code builtin:NAME}). */
  public String source() {
    return source;
  }

  /** The answers, in the order the requests get them. */
  public List<Answer> answers() {
    return answers;
  }

  /**
   * The error that ended the tape's run, which answers every request after the scripted ones; null
   * when the run ended without one.
   */
  public Failure finalFailure() {
    return last;
  }

  /**
   * The script of {@code tape}, read from {@code source}, its delays as {@code timing} says.
   *
   * @throws IllegalArgumentException {@code source: problem; fix}, when the tape is not one a model
   *     API can serve
   */
  public static ModelScript of(String source, Tape tape, Timing timing) {
    String cli = tape.header().cli().orElse(InvocationRecord.CLI_CURSOR);
    if (!cli.equals(InvocationRecord.CLI_CLAUDE)) {
      throw new IllegalArgumentException(
          source
              + ": a tape of "
              + cli
              + "; the model API serves Claude Code tapes (\"cli\":\"claude\" in the header)");
    }
    if (tape.header().format() != OutputFormat.STREAM_JSON) {
      throw new IllegalArgumentException(
          source
              + ": recorded in "
              + tape.header().format().cliName()
              + ", which does not hold the model's turns; record the run with --output-format"
              + " stream-json --verbose");
    }
    Reading reading = new Reading(source, timing);
    for (Frame frame : tape.frames()) {
      reading.frame(frame);
    }
    return reading.finish();
  }

  /** The walk through a tape's frames, gathering each message's blocks until it is answered. */
  private static final class Reading {
    private final String source;
    private final Timing timing;
    private final List<Answer> answers = new ArrayList<>();
    private final List<Pending> sinceResult = new ArrayList<>();
    private final Map<String, Pending> open = new LinkedHashMap<>();
    private final List<JsonNode> retries = new ArrayList<>();
    private Failure last;
    private boolean abandoned;
    private String model = "claude";
    private long previousT;
    private int line = 1;

    Reading(String source, Timing timing) {
      this.source = source;
      this.timing = timing;
    }

    void frame(Frame frame) {
      line++;
      long gap = Math.max(0, frame.t() - previousT);
      if (!(frame instanceof Frame.Out out)) {
        previousT = frame.t();
        return;
      }
      JsonNode event;
      try {
        event = JSON.readTree(out.json());
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(source + ":" + line + ": not JSON: " + e.getMessage());
      }
      String type = event.path("type").asText();
      // the CLI's estimate of the thinking it is streaming: part of the answer's wait, not before
      // it
      if (!(type.equals("system") && event.path("subtype").asText().equals("thinking_tokens"))) {
        previousT = frame.t();
      }
      switch (type) {
        case "system" -> {
          if (event.path("subtype").asText().equals("init")) {
            model = event.path("model").asText(model);
          }
          if (event.path("subtype").asText().equals("api_retry")) {
            retry(event.path("error_status"), gap);
          }
        }
        case "stream_event" -> {
          String id = event.path("api_message_id").asText(null);
          JsonNode inner = event.path("event");
          if (id == null && inner.path("type").asText().equals("message_start")) {
            id = inner.path("message").path("id").asText(null);
          }
          if (id != null) {
            Pending pending = pending(id, gap);
            pending.events.add(inner);
            // the CLI's own message_stop, on giving up on a stream cut short
            abandoned = event.has("abandoned_blocks");
            pending.abandoned |= abandoned;
          }
        }
        case "assistant" -> assistant(event, gap);
        case "result" -> result(event);
        default -> {
          // user lines (the CLI's own tool results), rate limit events, ...: not the model's
        }
      }
    }

    /**
     * A failed request: an HTTP error (its answer known once the error that ended the run is), or,
     * with no status, a stream cut short, unless the tape holds that stream's own events.
     */
    private void retry(JsonNode status, long gap) {
      if (status.isInt()) {
        retries.add(status);
        answers.add(null); // filled in once the error that ended the run is known
      } else if (abandoned) {
        abandoned = false; // its events are the cut answer already
      } else {
        Pending cut = new Pending(delay(gap));
        cut.cut = true;
        cut.cutModel = model;
        sinceResult.add(cut);
        answers.add(cut.answerSlot());
      }
    }

    private void assistant(JsonNode event, long gap) {
      JsonNode message = event.path("message");
      if (event.path("is_api_error_message").asBoolean(false)) {
        if (!event.path("api_error_status").isInt()) {
          return; // the CLI's own error, no API's answer (not logged in): nothing was asked
        }
        int status = event.path("api_error_status").asInt();
        String text = message.path("content").path(0).path("text").asText("");
        last =
            new Failure(
                delay(gap),
                status,
                event.path("request_id").asText(null),
                error(event.path("api_error_type").asText(errorType(status)), text, status));
        answers.add(last);
        return;
      }
      String id = message.path("id").asText(null);
      if (id == null) {
        throw new IllegalArgumentException(
            source + ":" + line + ": an assistant line without message.id; a model turn needs one");
      }
      Pending pending = pending(id, gap);
      if (pending.message == null) {
        pending.message = message;
        pending.requestId = event.path("request_id").asText(null);
      }
      for (JsonNode block : message.path("content")) {
        pending.blocks.add(block);
      }
    }

    private Pending pending(String id, long gap) {
      Pending pending = open.get(id);
      if (pending == null) {
        pending = new Pending(delay(gap));
        open.put(id, pending);
        sinceResult.add(pending);
        answers.add(pending.answerSlot());
      }
      return pending;
    }

    private void result(JsonNode result) {
      long total = result.path("usage").path("output_tokens").asLong(0);
      long input = result.path("usage").path("input_tokens").asLong(0);
      for (Pending pending : sinceResult) {
        input -= pending.startUsage("input_tokens");
      }
      long before = 0;
      for (int i = 0; i < sinceResult.size(); i++) {
        Pending pending = sinceResult.get(i);
        boolean lastOne = i == sinceResult.size() - 1;
        if (pending.cut) {
          // what the result counts beyond its messages went on the streams cut short
          pending.cutInputTokens = Math.max(0, input);
          input = 0;
        } else if (lastOne) {
          pending.outputTokens = Math.max(0, total - before);
          JsonNode stop = result.path("stop_reason");
          pending.stopReason = stop.isTextual() ? stop.asText() : null;
        } else {
          pending.outputTokens = pending.startOutputTokens();
          before += pending.outputTokens;
        }
      }
      sinceResult.clear();
    }

    private long delay(long gap) {
      if (timing instanceof Timing.Recorded) {
        return gap;
      }
      if (timing instanceof Timing.Scale scale) {
        return (long) (gap * scale.factor());
      }
      if (timing instanceof Timing.MaxGap maxGap) {
        return Math.min(gap, maxGap.ms());
      }
      return 0;
    }

    ModelScript finish() {
      List<Answer> done = new ArrayList<>();
      int retry = 0;
      for (Answer answer : answers) {
        if (answer == null) {
          done.add(retryAnswer(retries.get(retry++)));
        } else if (answer instanceof Slot slot) {
          done.add(slot.pending.answer());
        } else {
          done.add(answer);
        }
      }
      if (done.isEmpty()) {
        throw new IllegalArgumentException(
            source
                + ": the run never reached the model (no assistant turn, no API error): there is"
                + " nothing for a model API to answer; pick a tape whose run asked the model");
      }
      return new ModelScript(source, done, last);
    }

    /** A failed request an {@code api_retry} line tells of, like the error that ended the run. */
    private Answer retryAnswer(JsonNode status) {
      int code = status.asInt();
      if (last != null && last.status() == code) {
        return new Failure(0, code, last.requestId(), last.body());
      }
      return new Failure(0, code, null, error(errorType(code), "", code));
    }
  }

  /** The answer a message will be once its tape has been read to its result. */
  private record Slot(Pending pending) implements Answer {
    @Override
    public long delayMs() {
      return pending.delayMs;
    }
  }

  /** A message being read: its blocks, or the stream events it was sent as. */
  private static final class Pending {
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

    Pending(long delayMs) {
      this.delayMs = delayMs;
    }

    Slot answerSlot() {
      return new Slot(this);
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

    Answer answer() {
      if (cut || abandoned) {
        return cutShort(); // the CLI gave up on this stream: it was cut short
      }
      ObjectNode start = message == null ? NODES.objectNode() : message.deepCopy();
      ObjectNode whole = whole(start);
      List<Event> sse = new ArrayList<>();
      if (!events.isEmpty()) {
        for (JsonNode event : events) {
          sse.add(new Event(event.path("type").asText(), event.toString()));
        }
      } else {
        stream(start, sse);
      }
      return new Message(delayMs, requestId, sse, whole);
    }

    /**
     * The stream cut short: the events that came before the cut (those the CLI added on giving up,
     * the {@code message_stop} with {@code abandoned_blocks} and the {@code content_block_stop}s
     * before it, left out), or, for a tape without stream events, a {@code message_start} with the
     * input tokens the result counts beyond its messages.
     */
    private Cut cutShort() {
      List<Event> sse = new ArrayList<>();
      if (!events.isEmpty()) {
        int end = events.size() - 1; // the abandoned message_stop
        while (end > 0 && events.get(end - 1).path("type").asText().equals("content_block_stop")) {
          end--;
        }
        for (JsonNode event : events.subList(0, end)) {
          sse.add(new Event(event.path("type").asText(), event.toString()));
        }
        return new Cut(delayMs, sse);
      }
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
      sse.add(new Event("message_start", start.toString()));
      // a block begun: a stream that ends before any is taken for an empty answer, not a cut one
      ObjectNode block = NODES.objectNode().put("type", "content_block_start").put("index", 0);
      block.putObject("content_block").put("type", "text").put("text", "");
      sse.add(new Event("content_block_start", block.toString()));
      return new Cut(delayMs, sse);
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
    private void stream(ObjectNode start, List<Event> sse) {
      ObjectNode opening = start.deepCopy();
      opening.remove("context_management");
      opening.putArray("content");
      opening.putNull("stop_reason");
      opening.putNull("stop_sequence");
      ObjectNode messageStart = NODES.objectNode().put("type", "message_start");
      messageStart.set("message", opening);
      sse.add(new Event("message_start", messageStart.toString()));
      for (int i = 0; i < blocks.size(); i++) {
        block(i, blocks.get(i), sse);
      }
      ObjectNode delta = NODES.objectNode().put("type", "message_delta");
      delta.putObject("delta").put("stop_reason", stopReason()).putNull("stop_sequence");
      delta.putObject("usage").put("output_tokens", Math.max(outputTokens, 0));
      sse.add(new Event("message_delta", delta.toString()));
      sse.add(new Event("message_stop", "{\"type\":\"message_stop\"}"));
    }

    private static void block(int index, JsonNode block, List<Event> sse) {
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
      sse.add(new Event("content_block_start", startBlock.toString()));
      for (ObjectNode delta : deltas) {
        ObjectNode event =
            NODES.objectNode().put("type", "content_block_delta").put("index", index);
        event.set("delta", delta);
        sse.add(new Event("content_block_delta", event.toString()));
      }
      sse.add(
          new Event(
              "content_block_stop",
              NODES.objectNode().put("type", "content_block_stop").put("index", index).toString()));
    }

    private static String text(JsonNode block) {
      return block.path("text").asText("");
    }
  }

  /**
   * Anthropic's error JSON for {@code status}: {@code type}, and the message the CLI printed after
   * its own words ({@code API Error: Request rejected (429) · MESSAGE}), else the API's usual one.
   */
  static ObjectNode error(String type, String printed, int status) {
    int dot = printed.indexOf(" · ");
    String message =
        status == 429 && dot >= 0 ? printed.substring(dot + 3) : usualMessage(status, type);
    ObjectNode body = NODES.objectNode().put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return body;
  }

  /** The {@code error.type} Anthropic's API gives with {@code status}. */
  static String errorType(int status) {
    return switch (status) {
      case 400 -> "invalid_request_error";
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 413 -> "request_too_large";
      case 429 -> "rate_limit_error";
      case 529 -> "overloaded_error";
      default -> "api_error";
    };
  }

  private static String usualMessage(int status, String type) {
    return switch (status) {
      case 401 -> "invalid x-api-key";
      case 404 -> "model not found";
      case 429 -> "Number of request tokens has exceeded your per-minute rate limit";
      case 529 -> "Overloaded";
      case 500 -> "Internal server error";
      default -> type;
    };
  }
}
