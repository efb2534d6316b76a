package dev.agentdouble.recorder.internal.normalise;

import java.util.Optional;

/**
 * Which CLI's keys name the volatile values of a tape, by the CLI its header names: what is
 * specific to a CLI's stream is its surface, never told apart by version.
 */
public enum CliKeys {
  /**
   * The Cursor CLI's (and any CLI not named below): {@code request_id}, {@code model_call_id},
   * {@code call_id}, {@code toolCallId}, {@code timestamp_ms}, {@code startedAtMs}, {@code
   * completedAtMs}.
   */
  CURSOR,

  /**
   * Claude Code's ({@code reference/claude-code.md} §4), besides Cursor's: every line's {@code
   * uuid} and the {@code ..._uuid}s and {@code uuids} of a compaction, the model API's message ids
   * ({@code message.id}, {@code msg_...}) and tool use ids ({@code toolu_...}: a tool_use block's
   * {@code id}, {@code tool_use_id}, {@code parent_tool_use_id}), hook, agent and task ids, ISO
   * {@code timestamp} strings and a rate limit's {@code resetsAt} (epoch seconds).
   */
  CLAUDE;

  /** The keys of the CLI a header names ({@code claude}); Cursor's for any other or none. */
  public static CliKeys of(Optional<String> cli) {
    return cli.filter("claude"::equals).isPresent() ? CLAUDE : CURSOR;
  }
}
