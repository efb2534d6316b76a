package dev.agentdouble.examples;

/**
 * The answer of a {@code --output-format json} run: the CLI's single result object.
 *
 * @param text the full answer
 * @param sessionId the session id, for {@code --resume}
 * @param durationMs how long the run took, as the CLI reports it
 */
public record JsonResult(String text, String sessionId, long durationMs) {}
