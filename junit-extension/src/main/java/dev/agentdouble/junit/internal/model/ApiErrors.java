package dev.agentdouble.junit.internal.model;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Anthropic's API errors as the model API answers them: their JSON, their type by status. */
final class ApiErrors {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private ApiErrors() {}

  /**
   * Anthropic's error JSON for {@code status}: {@code type}, and the message the CLI printed after
   * its own words ({@code API Error: Request rejected (429) · MESSAGE}), else the API's usual one.
   */
  static ObjectNode body(String type, String printed, int status) {
    int dot = printed.indexOf(" · ");
    String message = status == 429 && dot >= 0 ? printed.substring(dot + 3) : message(status, type);
    return of(type, message);
  }

  /** Anthropic's error JSON: {@code {"type":"error","error":{"type":TYPE,"message":MESSAGE}}}. */
  static ObjectNode of(String type, String message) {
    ObjectNode body = NODES.objectNode().put("type", "error");
    body.putObject("error").put("type", type).put("message", message);
    return body;
  }

  /** The {@code error.type} Anthropic's API gives with {@code status}. */
  static String type(int status) {
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

  private static String message(int status, String type) {
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
