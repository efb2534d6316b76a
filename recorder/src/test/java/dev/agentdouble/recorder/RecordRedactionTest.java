package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Tape;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** `agentdouble record` as a process: what it writes never holds the secrets it saw. */
@Timeout(120)
class RecordRedactionTest {
  static final String KEY = "sk-live-0123456789abcdef";
  static final String TOKEN = "tok/with\"quote-987654";

  @TempDir Path dir;

  /** {@code ./agentdouble record --quiet --out TAPE -- COMMAND...} with a secret in the env. */
  private Child record(Path tape, String... command) {
    Child r = start(tape, command);
    r.waitFor();
    return r;
  }

  /** {@link #record}, still running. */
  private Child start(Path tape, String... command) {
    List<String> args = new ArrayList<>(List.of("record", "--quiet", "--out", tape.toString(),
        "--"));
    args.addAll(List.of(command));
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("CURSOR_API_KEY", KEY);
    return Child.start(Child.agentdouble(args.toArray(new String[0])), dir, env);
  }

  @Test
  void secretsFromEnvAndArgvNeverReachTheTapeButReachTheCaller() throws Exception {
    Path script = dir.resolve("leaky.sh");
    Files.writeString(script, String.join("\n", "#!/bin/sh",
        "printf '{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"%s\",\"key\":\"%s\"}\\n' \"$PWD\" \"$CURSOR_API_KEY\"",
        "printf 'raw line with %s\\n' \"$2\"",
        "printf 'stderr %s\\n' \"$CURSOR_API_KEY\" >&2",
        "exit 3", ""));
    script.toFile().setExecutable(true);
    Path tape = dir.resolve("run.tape.ndjson");

    Child r = record(tape, script.toString(), "--auth-token", TOKEN);

    assertThat(r.waitFor()).isEqualTo(3);
    assertThat(r.out()).contains(KEY, TOKEN); // the caller sees the run as it was
    assertThat(r.err()).contains(KEY);
    String bytes = Files.readString(tape, StandardCharsets.UTF_8);
    assertThat(bytes).doesNotContain(KEY).doesNotContain(TOKEN)
        .doesNotContain(TOKEN.replace("\"", "\\\"")).doesNotContain(TOKEN.replace("/", "\\/"));
    assertThat(bytes).contains("REDACTED:CURSOR_API_KEY", "REDACTED:auth-token");
    // normalised by default: the working folder became the canonical one, declared in vars
    assertThat(bytes).contains("\"cwd\":\"/workspace\"").doesNotContain(dir.toString());
    assertThat(List.of(bytes.split("\n")).get(0)).contains("\"vars\":{");
  }

  /**
   * A secret written in two writes (two reads, two frames), on stderr and as raw stdout, is
   * still taken out of the tape; the caller sees the run as it was. The second writes wait until
   * the test has seen the first ones passed through, so they are read apart whatever the load.
   */
  @Test
  void aSecretSplitAcrossTwoWritesNeverReachesTheTape() throws Exception {
    Path script = dir.resolve("split.sh");
    Files.writeString(script, String.join("\n", "#!/bin/sh",
        "half=${#CURSOR_API_KEY}; half=$((half / 2))",
        "first=$(printf '%s' \"$CURSOR_API_KEY\" | cut -c1-$half)",
        "rest=$(printf '%s' \"$CURSOR_API_KEY\" | cut -c$((half + 1))-)",
        "printf 'Error: key %s' \"$first\" >&2; printf 'raw %s' \"$first\"",
        "read seen",
        "sleep 0.3",
        "printf '%s rejected\\n' \"$rest\" >&2; printf '%s end\\n' \"$rest\"",
        "exit 1", ""));
    script.toFile().setExecutable(true);
    Path tape = dir.resolve("split.tape.ndjson");

    Child r = start(tape, script.toString());
    r.awaitOut("raw " + KEY.substring(0, KEY.length() / 2));
    r.awaitErr("Error: key " + KEY.substring(0, KEY.length() / 2));
    r.send("seen");
    r.waitFor();

    assertThat(r.out()).isEqualTo("raw " + KEY + " end\n");
    assertThat(r.err()).isEqualTo("Error: key " + KEY + " rejected\n");
    Tape recorded = Tape.read(tape);
    assertThat(Frames.kinds(recorded)).as("two writes on each stream: two frames each")
        .containsExactlyInAnyOrder("err Error: key REDACTED:CURSOR_API_KEY",
            "outRaw raw REDACTED:CURSOR_API_KEY", "err  rejected\n", "outRaw  end\n", "exit 1");
    String bytes = Files.readString(tape, StandardCharsets.UTF_8);
    assertThat(bytes).doesNotContain(KEY.substring(0, KEY.length() / 2))
        .doesNotContain(KEY.substring(KEY.length() / 2));
  }
}
