package dev.agentdouble.fake.internal;

import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.script.Script;
import dev.agentdouble.tape.Tape;
import java.io.ByteArrayInputStream;
import java.io.InputStream;

/**
 * Runs the server refuses whatever the tape says, played as the 2026.10 CLI plays them: init and
 * the user event, three reconnect and retry cycles, the server's error on stderr, exit 1. Today
 * that is {@code --system-prompt}, which the CLI accepts locally and the server rejects.
 */
final class ServerRejection {
  static final String SESSION = "00000000-0000-4000-8000-000000000000";
  static final long EPOCH = 1_790_000_000_000L;

  private ServerRejection() {}

  /** The run of a {@code --system-prompt} invocation, as a tape the player replays. */
  static TapeSource systemPrompt(String prompt, String cwd, String model) {
    Script run =
        Script.of(prompt)
            .sessionId(SESSION)
            .cwd(cwd)
            .model(model)
            .epochMs(EPOCH)
            .spacing(1)
            .pause(150)
            .init()
            .user()
            .pause(700);
    long t = 150 + 1 + 1 + 700;
    for (int attempt = 1; attempt <= 3; attempt++) {
      run.event(
          "{\"type\":\"connection\",\"subtype\":\"reconnecting\",\"session_id\":"
              + JsonText.quote(SESSION)
              + ",\"timestamp_ms\":"
              + (EPOCH + t)
              + ",\"attempt\":"
              + attempt
              + ",\"endpoint_url\":"
              + JsonText.quote(CursorMessages.AGENT_ENDPOINT)
              + "}");
      run.pause(399);
      t += 400;
      run.event(
          "{\"type\":\"retry\",\"subtype\":\"starting\",\"session_id\":"
              + JsonText.quote(SESSION)
              + ",\"timestamp_ms\":"
              + (EPOCH + t)
              + ",\"attempt\":"
              + attempt
              + ",\"is_resume\":false}");
      run.pause(299);
      t += 300;
      run.event(
          "{\"type\":\"connection\",\"subtype\":\"reconnected\",\"session_id\":"
              + JsonText.quote(SESSION)
              + ",\"timestamp_ms\":"
              + (EPOCH + t)
              + "}");
      run.pause(799);
      t += 800;
    }
    Tape tape = run.stderr(CursorMessages.SYSTEM_PROMPT_REJECTED).exit(1).build();
    byte[] bytes = tape.toBytes();
    return new TapeSource(
        "the server's rejection of --system-prompt",
        new TapeSource.Opener() {
          @Override
          public InputStream open() {
            return new ByteArrayInputStream(bytes);
          }
        });
  }
}
