package dev.agentdouble.fake.internal.control;

import java.io.IOException;

/** No complete answer within the deadline. */
final class NoAnswerInTime extends IOException {
  private static final long serialVersionUID = 1L;

  NoAnswerInTime(String message) {
    super(message);
  }
}
