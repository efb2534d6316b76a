package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agentdouble record -- claude ...} as a process: a stand-in {@code claude} that prints what
 * 2.1.328 prints (src/test/resources/claude), with an Anthropic key and an OAuth bearer token in
 * it; and the real Claude Code where it is installed, with no account.
 */
@Timeout(300)
class RecordClaudeTest {
  /** Made-up values in the shapes of Anthropic's key and of an OAuth access token. */
  static final String KEY = "sk-ant-api03-" + "Xq7_rT2-yU8iO9pA1sD3fG4hJ5kL6zX0cV" + "-AA";

  static final String ARGV_KEY = "sk-ant-api03-" + "Pr0mpt_k3y-9f8e7d6c5b4a3210zyxwvu" + "AA";
  static final String BEARER = "ya29.a0Af" + "H6SMBx7Yq2Lw9Zr4Tn1Vk8Uc3Jd6Ge0Hs5";

  @TempDir Path dir;

  /** The stand-in, installed as {@code claude} in {@code bin}, and the stream it prints. */
  private Path standIn(Path bin) throws IOException {
    Files.createDirectories(bin);
    Path stream =
        Files.write(dir.resolve("stream.ndjson"), resource("stream-json-tool-run.ndjson"));
    Path claude = Files.write(bin.resolve("claude"), resource("stand-in-claude.sh"));
    Child.executable(claude);
    assertThat(stream).isRegularFile();
    return claude;
  }

  private static byte[] resource(String name) {
    try (InputStream in = RecordClaudeTest.class.getResourceAsStream("/claude/" + name)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Records the stand-in in {@code work} (HOME {@code home}) to {@code tape}. */
  private Child record(Path claude, Path work, Path home, String... args) throws IOException {
    Files.createDirectories(work);
    Files.createDirectories(home);
    List<String> command = new ArrayList<>(List.of("record", "--quiet"));
    command.addAll(List.of(args));
    command.add("--");
    command.addAll(
        List.of(
            claude.toString(),
            "-p",
            "use " + ARGV_KEY + " to list the files",
            "--output-format",
            "stream-json",
            "--verbose"));
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("STREAM", dir.resolve("stream.ndjson").toString());
    env.put("HOME", home.toString());
    env.put("ANTHROPIC_API_KEY", KEY);
    env.put("CLAUDE_CODE_OAUTH_TOKEN", BEARER);
    Child r = Child.startWithoutStdin(Child.agentdouble(command.toArray(new String[0])), work, env);
    r.waitFor();
    return r;
  }

  static List<String> outs(Tape tape) {
    List<String> outs = new ArrayList<>();
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Out out) {
        outs.add(out.json());
      }
    }
    return outs;
  }

  @Test
  void aClaudeRunIsRecordedWithoutItsSecretsAndWithStableStandIns() throws Exception {
    Path claude = standIn(dir.resolve("bin"));
    Path aliceTape = dir.resolve("alice.tape.ndjson");
    Path bobTape = dir.resolve("bob.tape.ndjson");

    Child alice =
        record(
            claude, dir.resolve("alice/proj"), dir.resolve("alice"), "--out", aliceTape.toString());
    Child bob =
        record(claude, dir.resolve("b.o/src"), dir.resolve("b.o"), "--out", bobTape.toString());

    assertThat(alice.waitFor()).as("%s", alice).isZero();
    assertThat(bob.waitFor()).as("%s", bob).isZero();
    assertThat(alice.out()).contains(KEY); // the caller sees the run as it was
    assertThat(alice.err()).contains(BEARER);
    String bytes = Files.readString(aliceTape, StandardCharsets.UTF_8);
    assertThat(bytes)
        .doesNotContain(KEY)
        .doesNotContain(ARGV_KEY)
        .doesNotContain(BEARER)
        .doesNotContain(dir.toString())
        .contains("REDACTED:ANTHROPIC_API_KEY", "REDACTED:anthropic-key")
        .contains("REDACTED:CLAUDE_CODE_OAUTH_TOKEN");

    Tape tape = Frames.read(aliceTape);
    assertThat(tape.header().cli()).contains("claude");
    assertThat(tape.header().cliVersion()).contains("2.1.328");
    assertThat(tape.header().format()).isEqualTo(OutputFormat.STREAM_JSON);
    assertThat(tape.header().argv())
        .containsExactly(
            "-p",
            "use REDACTED:anthropic-key to list the files",
            "--output-format",
            "stream-json",
            "--verbose");
    assertThat(tape.header().vars().sessionId()).contains(Normaliser.SESSION_ID);
    assertThat(tape.header().vars().cwd()).contains(Normaliser.CWD);
    JsonNode init = ConformanceTest.JSON.readTree(outs(tape).get(0));
    assertThat(init.at("/memory_paths/auto").asText())
        .isEqualTo("/home/user/.claude/projects/-workspace/memory/");
    JsonNode toolUse = ConformanceTest.JSON.readTree(outs(tape).get(1));
    JsonNode toolResult = ConformanceTest.JSON.readTree(outs(tape).get(2));
    assertThat(toolResult.at("/message/content/0/tool_use_id").asText())
        .isEqualTo(toolUse.at("/message/content/0/id").asText())
        .isEqualTo("toolu_000000000000000000000001");
    assertThat(init.get("uuid").asText()).isEqualTo("00000000-0000-4000-a000-000000000001");

    // two recordings in other folders and homes: the same lines, stand-ins and all; but for the
    // times, which move with the recorder's start as the real CLI's move with the clock (the
    // stand-in prints the same times each run)
    assertThat(untimed(outs(Frames.read(bobTape)))).isEqualTo(untimed(outs(tape)));
    assertThat(untimed(outs(tape))).anyMatch(line -> line.contains("\"timestamp\":\"T\""));
  }

  /**
   * Claude Code names its live cwd inside its own messages (a {@code permission_denied}'s {@code
   * message}, runs part k): recorded, the tape holds the canonical cwd there, and the fake
   * replaying it in another folder names that folder, as the real CLI run there would.
   */
  @Test
  void theCwdInsideClaudesMessagesIsRecordedCanonicalAndReplayedAsTheLiveOne() throws Exception {
    Path claude = standIn(dir.resolve("bin"));
    Path stream = dir.resolve("stream.ndjson");
    Files.writeString(stream, ClaudeNormaliserTest.withDenial(Files.readString(stream), "@CWD@"));
    Path tapeFile = dir.resolve("denied.tape.ndjson");

    Child r =
        record(
            claude, dir.resolve("alice/proj"), dir.resolve("alice"), "--out", tapeFile.toString());

    assertThat(r.waitFor()).as("%s", r).isZero();
    assertThat(r.out()).contains(ClaudeNormaliserTest.denial(dir.resolve("alice/proj").toString()));
    Tape tape = Frames.read(tapeFile);
    assertThat(Files.readString(tapeFile)).doesNotContain(dir.toString());
    assertThat(tape.header().vars().cwd()).contains(Normaliser.CWD);
    JsonNode denied = ConformanceTest.JSON.readTree(outs(tape).get(5));
    assertThat(denied.get("message").asText())
        .isEqualTo(ClaudeNormaliserTest.denial(Normaliser.CWD));

    Path elsewhere = Files.createDirectories(dir.resolve("b.o/src"));
    Child replay =
        Child.start(
            List.of(
                Cli.root().resolve("fake-agent/bin/claude").toString(),
                "-p",
                tape.header().argv().get(1),
                "--output-format",
                "stream-json",
                "--verbose"),
            elsewhere,
            Map.of(
                "AGENTDOUBLE_TAPE",
                tapeFile.toString(),
                "AGENTDOUBLE_TIMING",
                "fast",
                "HOME",
                dir.resolve("b.o").toString()));

    assertThat(replay.waitFor()).as("%s", replay).isZero();
    String played = new String(replay.stdout(), StandardCharsets.UTF_8);
    assertThat(played)
        .contains(JsonText.quote(ClaudeNormaliserTest.denial(elsewhere.toString())))
        .doesNotContain(Normaliser.CWD);
  }

  /** The lines with their times (ISO {@code timestamp}, {@code resetsAt}) as {@code T}. */
  static List<String> untimed(List<String> lines) {
    return lines.stream()
        .map(
            l ->
                l.replaceAll("\"timestamp\":\"[^\"]*\"", "\"timestamp\":\"T\"")
                    .replaceAll("\"resetsAt\":[0-9]+", "\"resetsAt\":T"))
        .toList();
  }

  @Test
  void aTapeNamedAfterItsPromptNamesNoSecret() throws Exception {
    Path claude = standIn(dir.resolve("bin"));
    Path into = dir.resolve("tapes");

    Child r = record(claude, dir.resolve("w"), dir.resolve("h"), "--into", into.toString());

    assertThat(r.waitFor()).as("%s", r).isZero();
    try (Stream<Path> files = Files.list(into)) {
      List<String> names = files.map(p -> p.getFileName().toString()).toList();
      assertThat(names).hasSize(1);
      assertThat(names.get(0))
          .doesNotContain("sk-ant")
          .doesNotContain(ARGV_KEY.toLowerCase())
          .contains("-use-redacted-anthropic-key-to-list-the-f-"); // 40 characters at most
    }
  }

  /**
   * The real Claude Code: the executable {@code AGENTDOUBLE_REAL_CLAUDE} names (an npm install
   * outside the project, say), else {@code claude} on PATH.
   */
  static Optional<Path> realClaude() {
    String named = System.getenv("AGENTDOUBLE_REAL_CLAUDE");
    if (named != null && !named.isBlank() && Files.isExecutable(Path.of(named))) {
      return Optional.of(Path.of(named));
    }
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!d.isEmpty() && Files.isExecutable(Path.of(d, "claude"))) {
        return Optional.of(Path.of(d, "claude"));
      }
    }
    return Optional.empty();
  }

  /**
   * The real {@code claude -p --output-format json hi} with no account (HOME a fresh folder, no
   * credentials in the environment) answers "Not logged in" and exits 1: recorded, that is the
   * tape, and {@code agentdouble replay} plays its bytes back with its exit.
   */
  @Test
  void theRealClaudeWithoutAnAccountIsRecordedAndReplayed() throws Exception {
    Optional<Path> claude = realClaude();
    Assumptions.assumeTrue(
        claude.isPresent(),
        "the real Claude Code is neither named by AGENTDOUBLE_REAL_CLAUDE nor on PATH"
            + " (npm install @anthropic-ai/claude-code@2.1.328): its recording is not tested");
    Path home = Files.createDirectories(dir.resolve("home"));
    Path work = Files.createDirectories(dir.resolve("work"));
    Path tapeFile = dir.resolve("not-logged-in.tape.ndjson");
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("HOME", home.toString());
    // where it keeps its sockets (cc-socks/) and its claude-<uid>/ folder: under target/
    env.put("TMPDIR", Files.createDirectories(dir.resolve("tmp")).toString());
    env.put("DISABLE_TELEMETRY", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");

    Child r =
        Child.startWithoutStdin(
            Child.agentdouble(
                "record",
                "--quiet",
                "--out",
                tapeFile.toString(),
                "--",
                claude.get().toString(),
                "-p",
                "--output-format",
                "json",
                "hi"),
            work,
            env);

    assertThat(r.waitFor()).as("%s", r).isEqualTo(1);
    Tape tape = Frames.read(tapeFile);
    assertThat(tape.header().cli()).contains("claude");
    assertThat(tape.header().cliVersion())
        .hasValueSatisfying(v -> assertThat(v).matches("[0-9.]+"));
    assertThat(tape.header().format()).isEqualTo(OutputFormat.JSON);
    assertThat(tape.frames().get(tape.frames().size() - 1)).isInstanceOf(Frame.Exit.class);
    assertThat(((Frame.Exit) tape.frames().get(tape.frames().size() - 1)).code()).isEqualTo(1);
    JsonNode result = ConformanceTest.JSON.readTree(outs(tape).get(0));
    assertThat(result.get("type").asText()).isEqualTo("result");
    assertThat(result.get("is_error").asBoolean()).isTrue();
    assertThat(result.get("result").asText()).isEqualTo("Not logged in · Please run /login");
    assertThat(result.get("session_id").asText()).isEqualTo(Normaliser.SESSION_ID);
    assertThat(result.get("uuid").asText()).isEqualTo("00000000-0000-4000-a000-000000000001");

    // the fake plays it with a session id of its own, as the real CLI makes one each run
    Cli.Result replay = Cli.runInstalled("replay", "--timing", "fast", tapeFile.toString());
    assertThat(replay.exit()).as("%s", replay).isEqualTo(1);
    String played = new String(replay.stdout(), StandardCharsets.UTF_8);
    String session = ConformanceTest.JSON.readTree(played).get("session_id").asText();
    assertThat(session).isNotEqualTo(Normaliser.SESSION_ID);
    assertThat(played.replace(session, Normaliser.SESSION_ID))
        .isEqualTo(new String(Frames.stdout(tape), StandardCharsets.UTF_8));
  }
}
