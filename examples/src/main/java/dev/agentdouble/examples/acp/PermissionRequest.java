package dev.agentdouble.examples.acp;

import java.util.List;

/**
 * The agent asks whether a tool may run ({@code session/request_permission}).
 *
 * @param sessionId the session the turn runs in
 * @param toolCallId the tool call it asks about, as its {@code tool_call} update named it
 * @param title e.g. {@code `rm -rf dist`}
 * @param kind ACP's tool kind, e.g. {@code execute}
 * @param reason why it asks, e.g. Cursor's {@code Not in allowlist: rm}; empty if it gave none
 * @param options the option ids offered, e.g. {@code allow-once}, {@code allow-always}, {@code
 *     reject-once}
 */
public record PermissionRequest(
    String sessionId,
    String toolCallId,
    String title,
    String kind,
    String reason,
    List<String> options) {

  public PermissionRequest {
    options = List.copyOf(options);
  }
}
