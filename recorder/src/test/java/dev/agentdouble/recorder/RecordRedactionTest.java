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
import java.util.stream.Stream;
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
    List<String> args =
        new ArrayList<>(List.of("record", "--quiet", "--out", tape.toString(), "--"));
    args.addAll(List.of(command));
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("CURSOR_API_KEY", KEY);
    return Child.start(Child.agentdouble(args.toArray(new String[0])), dir, env);
  }

  @Test
  void secretsFromEnvAndArgvNeverReachTheTapeButReachTheCaller() throws Exception {
    Path script = dir.resolve("leaky.sh");
    Files.writeString(
        script,
        String.join(
            "\n",
            "#!/bin/sh",
            "printf '{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"%s\",\"key\":\"%s\"}\\n' \"$PWD\" \"$CURSOR_API_KEY\"",
            "printf 'raw line with %s\\n' \"$2\"",
            "printf 'stderr %s\\n' \"$CURSOR_API_KEY\" >&2",
            "exit 3",
            ""));
    Child.executable(script);
    Path tape = dir.resolve("run.tape.ndjson");

    Child r = record(tape, script.toString(), "--auth-token", TOKEN);

    assertThat(r.waitFor()).isEqualTo(3);
    assertThat(r.out()).contains(KEY, TOKEN); // the caller sees the run as it was
    assertThat(r.err()).contains(KEY);
    String bytes = Files.readString(tape, StandardCharsets.UTF_8);
    assertThat(bytes)
        .doesNotContain(KEY)
        .doesNotContain(TOKEN)
        .doesNotContain(TOKEN.replace("\"", "\\\""))
        .doesNotContain(TOKEN.replace("/", "\\/"));
    assertThat(bytes).contains("REDACTED:CURSOR_API_KEY", "REDACTED:auth-token");
    // normalised by default: the working folder became the canonical one, declared in vars
    assertThat(bytes).contains("\"cwd\":\"/workspace\"").doesNotContain(dir.toString());
    assertThat(List.of(bytes.split("\n")).get(0)).contains("\"vars\":{");
  }

  /**
   * A secret written in two writes (two reads, two frames), on stderr and as raw stdout, is still
   * taken out of the tape; the caller sees the run as it was. The second writes wait until the test
   * has seen the first ones passed through, so they are read apart whatever the load.
   */
  @Test
  void aSecretSplitAcrossTwoWritesNeverReachesTheTape() throws Exception {
    Path script = dir.resolve("split.sh");
    Files.writeString(
        script,
        String.join(
            "\n",
            "#!/bin/sh",
            "half=${#CURSOR_API_KEY}; half=$((half / 2))",
            "first=$(printf '%s' \"$CURSOR_API_KEY\" | cut -c1-$half)",
            "rest=$(printf '%s' \"$CURSOR_API_KEY\" | cut -c$((half + 1))-)",
            "printf 'Error: key %s' \"$first\" >&2; printf 'raw %s' \"$first\"",
            "read seen",
            "sleep 0.3",
            "printf '%s rejected\\n' \"$rest\" >&2; printf '%s end\\n' \"$rest\"",
            "exit 1",
            ""));
    Child.executable(script);
    Path tape = dir.resolve("split.tape.ndjson");

    Child r = start(tape, script.toString());
    r.awaitOut("raw " + KEY.substring(0, KEY.length() / 2));
    r.awaitErr("Error: key " + KEY.substring(0, KEY.length() / 2));
    r.send("seen");
    r.waitFor();

    assertThat(r.out()).isEqualTo("raw " + KEY + " end\n");
    assertThat(r.err()).isEqualTo("Error: key " + KEY + " rejected\n");
    Tape recorded = Tape.read(tape);
    assertThat(Frames.kinds(recorded))
        .as("two writes on each stream: two frames each")
        .containsExactlyInAnyOrder(
            "err Error: key REDACTED:CURSOR_API_KEY",
            "outRaw raw REDACTED:CURSOR_API_KEY",
            "err  rejected\n",
            "outRaw  end\n",
            "exit 1");
    String bytes = Files.readString(tape, StandardCharsets.UTF_8);
    assertThat(bytes)
        .doesNotContain(KEY.substring(0, KEY.length() / 2))
        .doesNotContain(KEY.substring(KEY.length() / 2));
  }

  /**
   * A JSON line written in two writes, holding the key with every character {@code \}{@code
   * u}-escaped and cut between the writes, leaves no piece of the escaped key in the tape.
   */
  @Test
  void aUnicodeEscapedSecretSplitAcrossTwoWritesNeverReachesTheTape() throws Exception {
    StringBuilder escaped = new StringBuilder();
    for (char c : KEY.toCharArray()) {
      escaped.append(String.format("\\u%04x", (int) c));
    }
    int cut = escaped.length() / 2 + 3;
    Path script =
        Child.script(
            dir,
            "escaped.sh",
            String.join(
                "\n",
                "#!/bin/sh",
                "printf '%s' '{\"type\":\"assistant\",\"text\":\"key "
                    + escaped.substring(0, cut)
                    + "'",
                "sleep 0.3",
                "printf '%s\\n' '" + escaped.substring(cut) + " end\"}'",
                ""));
    Path tape = dir.resolve("escaped.tape.ndjson");

    Child r = record(tape, script.toString());

    assertThat(r.waitFor()).isZero();
    assertThat(r.out())
        .isEqualTo("{\"type\":\"assistant\",\"text\":\"key " + escaped + " end\"}\n");
    String bytes = Files.readString(tape, StandardCharsets.UTF_8);
    assertThat(bytes)
        .contains("REDACTED:CURSOR_API_KEY")
        .doesNotContain(escaped.substring(0, cut))
        .doesNotContain(escaped.substring(cut));
    assertThat(new String(Frames.stdout(Tape.read(tape)), StandardCharsets.UTF_8))
        .isEqualTo("{\"type\":\"assistant\",\"text\":\"key REDACTED:CURSOR_API_KEY end\"}\n");
  }

  /**
   * {@code record --into DIR} names each tape after its prompt: after redaction. A key in argv
   * (even as the last argument, the prompt coming on stdin) and a prompt a {@code --redact} pattern
   * matches reach neither a file name nor the summary line.
   */
  @Test
  void secretsReachNoFileNameAndNoSummary() throws Exception {
    Path script = Child.script(dir, "quiet.sh", "#!/bin/sh\necho ok\n");
    Path into = dir.resolve("tapes");
    String pass = "hunter2-abcdef99";
    List<List<String>> argvs =
        List.of(
            List.of("-p", "--api-key", KEY, "deploy with " + pass),
            List.of("-p", "--api-key", KEY),
            List.of("-p", "--api-key=" + KEY),
            List.of("-p", "-H", "Authorization: Bearer " + KEY));
    List<String> summaries = new ArrayList<>();
    for (List<String> argv : argvs) {
      List<String> args =
          new ArrayList<>(
              List.of(
                  "record",
                  "--into",
                  into.toString(),
                  "--redact",
                  "hunter2-[a-z0-9]+",
                  "--",
                  script.toString()));
      args.addAll(argv);
      Child r =
          Child.start(Child.agentdouble(args.toArray(new String[0])), dir, Child.noBuild(dir));
      assertThat(r.waitFor()).as("%s", r.err()).isZero();
      assertThat(r.out()).isEqualTo("ok\n");
      summaries.add(r.err());
    }

    List<String> names;
    try (Stream<Path> files = Files.list(into)) {
      names = files.map(f -> f.getFileName().toString()).sorted().toList();
    }
    assertThat(names).hasSize(argvs.size());
    for (String leak : List.of(KEY, "0123456789", "abcdef", pass, "hunter2")) {
      assertThat(names).as("file names").noneMatch(n -> n.contains(leak));
      assertThat(summaries).as("summaries").noneMatch(e -> e.contains(leak));
    }
    assertThat(names).anyMatch(n -> n.contains("-deploy-with-redacted-pattern-1-"));
    assertThat(summaries)
        .allMatch(
            e -> e.startsWith("agentdouble: recorded ") && e.contains(" -> " + into.resolve("")));
    for (String name : names) {
      assertThat(Files.readString(into.resolve(name))).doesNotContain(KEY).doesNotContain(pass);
    }
  }

  /** A secret option given before {@code --} is refused without echoing its value. */
  @Test
  void aMisplacedSecretOptionIsNotEchoed() {
    Cli.Result r = Cli.run("record", "--api-key=" + KEY, "--", "true");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .startsWith("agentdouble: unknown option '--api-key=REDACTED:api-key'\n")
        .doesNotContain(KEY);
  }
}
