package dev.agentdouble.fake.internal.control;

import java.io.IOException;

/** An answer that is not usable HTTP; the message says what is wrong with it. */
final class BadAnswer extends IOException {
  private static final long serialVersionUID = 1L;

  BadAnswer(String message) {
    super(message);
  }
}
