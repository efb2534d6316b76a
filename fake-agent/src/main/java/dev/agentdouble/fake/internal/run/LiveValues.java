package dev.agentdouble.fake.internal.run;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * The live values of a run, put where a tape has recorded ones ({@link Substitution}); empty where
 * the run keeps what was recorded.
 *
 * @param model the display name of the model {@code --model} chose, for the init event
 * @param projectRoot the folder Claude Code names the run's project folder after (the git
 *     repository's root, else the cwd); empty where the tape's project folder is kept
 * @param messagingSocket Claude Code's {@code messaging_socket_path}; empty where the tape's is
 *     kept
 */
public record LiveValues(
    Optional<String> sessionId,
    Optional<String> cwd,
    Optional<String> home,
    Optional<String> prompt,
    OptionalLong epochMs,
    Optional<String> apiKeySource,
    Optional<String> model,
    Optional<String> projectRoot,
    Optional<String> messagingSocket) {
  /** These live values with {@code id} as the session id. */
  public LiveValues withSessionId(String id) {
    return new LiveValues(
        Optional.of(id),
        cwd,
        home,
        prompt,
        epochMs,
        apiKeySource,
        model,
        projectRoot,
        messagingSocket);
  }

  /** Live values with the tape's messaging socket kept. */
  public LiveValues(
      Optional<String> sessionId,
      Optional<String> cwd,
      Optional<String> home,
      Optional<String> prompt,
      OptionalLong epochMs,
      Optional<String> apiKeySource,
      Optional<String> model,
      Optional<String> projectRoot) {
    this(sessionId, cwd, home, prompt, epochMs, apiKeySource, model, projectRoot, Optional.empty());
  }

  /** Live values with the tape's project folder kept. */
  public LiveValues(
      Optional<String> sessionId,
      Optional<String> cwd,
      Optional<String> home,
      Optional<String> prompt,
      OptionalLong epochMs,
      Optional<String> apiKeySource,
      Optional<String> model) {
    this(sessionId, cwd, home, prompt, epochMs, apiKeySource, model, Optional.empty());
  }

  /** Live values with the tape's model kept. */
  public LiveValues(
      Optional<String> sessionId,
      Optional<String> cwd,
      Optional<String> home,
      Optional<String> prompt,
      OptionalLong epochMs,
      Optional<String> apiKeySource) {
    this(sessionId, cwd, home, prompt, epochMs, apiKeySource, Optional.empty());
  }

  /** Live values with the tape's {@code apiKeySource} kept. */
  public LiveValues(
      Optional<String> sessionId,
      Optional<String> cwd,
      Optional<String> home,
      Optional<String> prompt,
      OptionalLong epochMs) {
    this(sessionId, cwd, home, prompt, epochMs, Optional.empty());
  }
}
