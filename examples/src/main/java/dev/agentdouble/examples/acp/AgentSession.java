package dev.agentdouble.examples.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A session of the agent: a conversation in a working folder. Its prompts are turns, one at a time.
 */
public final class AgentSession {
  private final AgentLink client;
  private final String id;
  private final Path cwd;
  private final List<AcpUpdate> history = new ArrayList<>();
  private volatile String mode = "";
  private volatile List<String> modes = List.of();
  private volatile Turn turn;

  AgentSession(AgentLink client, String id, Path cwd) {
    this.client = client;
    this.id = id;
    this.cwd = cwd;
  }

  /** The session id: what {@link CursorAcpClient#loadSession} takes to continue it later. */
  public String id() {
    return id;
  }

  public Path cwd() {
    return cwd;
  }

  /** The current mode, e.g. {@code agent}, {@code plan}, {@code ask}. */
  public String mode() {
    return mode;
  }

  /** The modes the agent offers. */
  public List<String> availableModes() {
    return modes;
  }

  /**
   * The updates that came outside a turn: for a loaded session, its conversation so far (prompts as
   * {@link AcpUpdate.UserMessage}, then what the agent answered).
   */
  public List<AcpUpdate> history() {
    synchronized (history) {
      return List.copyOf(history);
    }
  }

  /** Switches the mode ({@code session/set_mode}), e.g. to {@code plan} or {@code ask}. */
  public void setMode(String modeId) throws InterruptedException {
    if (!modes.isEmpty() && !modes.contains(modeId)) {
      throw new IllegalArgumentException("unknown mode \"" + modeId + "\"; one of " + modes);
    }
    client.setMode(id, modeId);
    mode = modeId;
  }

  /**
   * Sends a prompt; the turn runs while this returns. Its updates go to {@code listener} (on the
   * client's reader thread) as they arrive.
   */
  public Turn start(String prompt, Consumer<AcpUpdate> listener) {
    if (prompt.isBlank()) {
      throw new IllegalArgumentException("prompt must not be blank");
    }
    synchronized (this) {
      if (turn != null && !turn.done()) {
        throw new IllegalStateException("a turn of this session is still running");
      }
      // known before the prompt goes out: its first update may come at once
      Turn next = new Turn(client, id, prompt, listener);
      turn = next;
      next.send();
      return next;
    }
  }

  /** Sends a prompt; watch the turn with {@link Turn#updates()}. */
  public Turn start(String prompt) {
    return start(prompt, update -> {});
  }

  /** Sends a prompt and waits for the turn to end. */
  public TurnResult prompt(String prompt) throws InterruptedException {
    try (Turn running = start(prompt)) {
      return running.await();
    }
  }

  Optional<Turn> running() {
    Turn current = turn;
    return current == null || current.done() ? Optional.empty() : Optional.of(current);
  }

  void modes(AcpSchema.SessionModeState state) {
    if (state == null) {
      return;
    }
    List<String> ids = new ArrayList<>();
    Optional.ofNullable(state.availableModes()).orElse(List.of()).forEach(m -> ids.add(m.id()));
    modes = List.copyOf(ids);
    if (state.currentModeId() != null) {
      mode = state.currentModeId();
    }
  }

  void updated(AcpUpdate update) {
    if (update instanceof AcpUpdate.ModeChanged changed) {
      mode = changed.modeId();
    }
    Optional<Turn> current = running();
    if (current.isPresent()) {
      current.get().updated(update);
    } else {
      synchronized (history) {
        history.add(update);
      }
    }
  }
}
