package dev.agentdouble.examples.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What a session and its turns ask of the client that opened them: requests to the agent by session
 * id, the client's timeouts, and its wait for an answer. An interface, so that sessions and turns
 * need nothing of {@link CursorAcpClient} (which makes them).
 */
interface AgentLink {
  void setMode(String sessionId, String modeId) throws InterruptedException;

  CompletableFuture<AcpSchema.PromptResponse> prompt(String sessionId, String text);

  void cancel(String sessionId);

  Duration turnTimeout();

  Duration requestTimeout();

  /**
   * {@code answer}, waiting at most {@code left} of the {@code timeout} the caller allowed, and no
   * longer than the agent lives.
   */
  <T> T await(
      String method,
      CompletableFuture<T> answer,
      Duration left,
      Duration timeout,
      Supplier<List<AcpUpdate>> seen)
      throws InterruptedException;
}
