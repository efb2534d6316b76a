package dev.agentdouble.junit.internal.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

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

  private final String source;
  private final List<ModelAnswer> answers;
  private final ModelAnswer.Failure last;

  private ModelScript(String source, List<ModelAnswer> answers, ModelAnswer.Failure last) {
    this.source = source;
    this.answers = List.copyOf(answers);
    this.last = last;
  }

  /** Where the tape came from (a file, {@code builtin:NAME}). */
  public String source() {
    return source;
  }

  /** The answers, in the order the requests get them. */
  public List<ModelAnswer> answers() {
    return answers;
  }

  /**
   * The error that ended the tape's run, which answers every request after the scripted ones; null
   * when the run ended without one.
   */
  public ModelAnswer.Failure finalFailure() {
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
    private final List<Supplier<ModelAnswer>> answers = new ArrayList<>();
    private final List<ModelTurn> sinceResult = new ArrayList<>();
    private final Map<String, ModelTurn> open = new LinkedHashMap<>();
    private ModelAnswer.Failure last;
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
            ModelTurn turn = turn(id, gap);
            turn.events.add(inner);
            // the CLI's own message_stop, on giving up on a stream cut short
            abandoned = event.has("abandoned_blocks");
            turn.abandoned |= abandoned;
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
        int code = status.asInt();
        answers.add(() -> retryAnswer(code)); // known once the error that ended the run is
      } else if (abandoned) {
        abandoned = false; // its events are the cut answer already
      } else {
        ModelTurn cut = new ModelTurn(delay(gap));
        cut.cut = true;
        cut.cutModel = model;
        sinceResult.add(cut);
        answers.add(cut::answer);
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
            new ModelAnswer.Failure(
                delay(gap),
                status,
                event.path("request_id").asText(null),
                ApiErrors.body(
                    event.path("api_error_type").asText(ApiErrors.type(status)), text, status));
        ModelAnswer.Failure failure = last;
        answers.add(() -> failure);
        return;
      }
      String id = message.path("id").asText(null);
      if (id == null) {
        throw new IllegalArgumentException(
            source + ":" + line + ": an assistant line without message.id; a model turn needs one");
      }
      ModelTurn turn = turn(id, gap);
      if (turn.message == null) {
        turn.message = message;
        turn.requestId = event.path("request_id").asText(null);
      }
      for (JsonNode block : message.path("content")) {
        turn.blocks.add(block);
      }
    }

    private ModelTurn turn(String id, long gap) {
      ModelTurn turn = open.get(id);
      if (turn == null) {
        turn = new ModelTurn(delay(gap));
        open.put(id, turn);
        sinceResult.add(turn);
        answers.add(turn::answer);
      }
      return turn;
    }

    private void result(JsonNode result) {
      long total = result.path("usage").path("output_tokens").asLong(0);
      long input = result.path("usage").path("input_tokens").asLong(0);
      for (ModelTurn turn : sinceResult) {
        input -= turn.startUsage("input_tokens");
      }
      long before = 0;
      for (int i = 0; i < sinceResult.size(); i++) {
        ModelTurn turn = sinceResult.get(i);
        boolean lastOne = i == sinceResult.size() - 1;
        if (turn.cut) {
          // what the result counts beyond its messages went on the streams cut short
          turn.cutInputTokens = Math.max(0, input);
          input = 0;
        } else if (lastOne) {
          turn.outputTokens = Math.max(0, total - before);
          JsonNode stop = result.path("stop_reason");
          turn.stopReason = stop.isTextual() ? stop.asText() : null;
        } else {
          turn.outputTokens = turn.startOutputTokens();
          before += turn.outputTokens;
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
      List<ModelAnswer> done = new ArrayList<>();
      for (Supplier<ModelAnswer> answer : answers) {
        done.add(answer.get());
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
    private ModelAnswer retryAnswer(int code) {
      if (last != null && last.status() == code) {
        return new ModelAnswer.Failure(0, code, last.requestId(), last.body());
      }
      return new ModelAnswer.Failure(0, code, null, ApiErrors.body(ApiErrors.type(code), "", code));
    }
  }
}
