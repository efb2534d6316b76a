package dev.agentdouble.junit;

import java.util.Map;

/**
 * One request the CLI made to a {@link ModelApi}: its method, its path with its query (e.g. {@code
 * /v1/messages?beta=true}), its headers by lower-case name (without the API key's), its body as
 * text (the Messages API's JSON).
 */
public record ModelRequest(String method, String path, Map<String, String> headers, String body) {
  public ModelRequest {
    headers = Map.copyOf(headers);
  }
}
