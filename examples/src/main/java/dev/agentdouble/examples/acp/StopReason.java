package dev.agentdouble.examples.acp;

/** Why a turn ended: the {@code stopReason} of the {@code session/prompt} response. */
public enum StopReason {
  /** The agent finished its answer. */
  END_TURN,
  /** The model hit its token limit. */
  MAX_TOKENS,
  /** The agent hit its limit of model requests in one turn. */
  MAX_TURN_REQUESTS,
  /** The agent refused to go on. */
  REFUSAL,
  /** The client cancelled the turn ({@code session/cancel}). */
  CANCELLED
}
