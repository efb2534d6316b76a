package dev.agentdouble.examples;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Optional;

/**
 * A tool the agent called: its start and, when it completed, its result.
 *
 * @param tool the kind, e.g. {@code readToolCall}, {@code shellToolCall}, {@code editToolCall}
 * @param args the arguments, e.g. {@code {"path":"src/cart.ts"}}
 * @param result e.g. {@code {"success":{...}}}; empty when the call never completed
 */
public record ToolCall(String callId, String tool, JsonNode args, Optional<JsonNode> result) {

  /** {@code success}, {@code rejected}, ... (the result's key), or {@code pending}. */
  public String outcome() {
    return result
        .map(
            r -> {
              Iterator<String> names = r.fieldNames();
              return names.hasNext() ? names.next() : "unknown";
            })
        .orElse("pending");
  }
}
