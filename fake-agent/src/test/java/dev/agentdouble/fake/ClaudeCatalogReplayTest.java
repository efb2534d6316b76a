package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in Claude Code tape ({@code claude-*}) replayed as {@code builtin:NAME} through
 * {@code fake-agent/bin/claude} in each output format it declares, with its header's command line
 * (the format swapped, {@code --verbose} kept for stream-json only): stdout is the tape rendered
 * for that format as the real CLI derives it, under the live session id, cwd, home and clock (its
 * ISO timestamps and resetsAt moved, here to 2026-01-01T00:00:00Z); stderr and the exit status are
 * the tape's. Cursor's tapes: {@link CatalogReplayTest}.
 */
@Timeout(300)
class ClaudeCatalogReplayTest {
  /** The live run's start: 2026-01-01T00:00:00Z, the catalog's tapes being from July 2026. */
  static final long LIVE_EPOCH_MS = 1_767_225_600_000L;

  @TempDir Path dir;

  static Stream<Arguments> entriesInTheirFormats() {
    return Catalog.entries().stream()
        .filter(entry -> !CatalogReplayTest.cursors(entry))
        .flatMap(
            entry -> entry.formats().stream().map(format -> Arguments.of(entry.name(), format)));
  }

  /**
   * The header's argv asking for {@code format}; the tape's session id given back with {@code
   * --session-id} unless the run resumes one (then the id resumed is the live one already).
   */
  private static final String PARTIAL = "--include-partial-messages";

  static List<String> args(Tape tape, OutputFormat format) {
    List<String> recorded = tape.header().argv();
    List<String> args = new ArrayList<>();
    for (int i = 0; i < recorded.size(); i++) {
      String word = recorded.get(i);
      if (word.equals("--output-format")) {
        args.add(word);
        args.add(format.cliName());
        i++;
      } else if (!(word.equals("--verbose") || word.equals(PARTIAL))
          || format == OutputFormat.STREAM_JSON) {
        // the two flags stream-json alone takes (partial messages: the not-logged-in run's)
        args.add(word);
      }
    }
    if (!recorded.contains("--resume")) {
      args.add(0, tape.header().vars().sessionId().orElseThrow());
      args.add(0, "--session-id");
    }
    return args;
  }

  /**
   * What the fake prints on stdout: the tape rendered for {@code format}, live paths and the live
   * {@code socket} put in.
   */
  static String stdout(
      Tape tape,
      OutputFormat format,
      boolean verbose,
      boolean partial,
      Path cwd,
      Path home,
      String socket) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame rendered : rendered(tape, format, verbose, partial)) {
      if (rendered instanceof Frame.Out out) {
        bytes.writeBytes((out.json() + "\n").getBytes(StandardCharsets.UTF_8));
      } else if (rendered instanceof Frame.OutBytes raw) {
        bytes.writeBytes(raw.bytes());
      }
    }
    return SOCKET
        .matcher(live(bytes.toString(StandardCharsets.UTF_8), tape.header().vars(), cwd, home))
        .replaceAll(Matcher.quoteReplacement("\"messaging_socket_path\":\"" + socket + "\""));
  }

  private static final Pattern SOCKET = Pattern.compile("\"messaging_socket_path\":\"[^\"]*\"");

  /** The tape's frames as the real CLI derives them for {@code format}, as its profile says. */
  static List<Frame> rendered(Tape tape, OutputFormat format, boolean verbose, boolean partial) {
    ClaudeProfile profile = ClaudeProfile.byDefault();
    Renderer renderer =
        Renderer.claude(
            format,
            new Renderer.ClaudeOptions(
                verbose,
                partial,
                profile.jsonResultLeavesOut(),
                profile.jsonVerboseInitLeavesOut(),
                profile.textNotes()));
    List<Frame> frames = new ArrayList<>();
    for (Frame frame : tape.frames()) {
      frames.addAll(renderer.next(frame));
    }
    return frames;
  }

  /**
   * {@code json} with the recorded cwd and home replaced by live ones where a JSON string starts
   * with them, and Claude Code's project folder ({@code ~/.claude/projects/<root, mangled>}, the
   * cwd here being a repository's root) following both; the cwd also where it stands as a path
   * inside a string (after a space, {@code '} or {@code (}, before the string's end, {@code /}, a
   * space, {@code '} or {@code )}).
   */
  static String live(String json, Vars vars, Path cwd, Path home) {
    String recordedCwd = vars.cwd().orElseThrow();
    String recordedHome = vars.home().orElseThrow();
    String projects = "/.claude/projects/";
    json =
        Pattern.compile("(?<=[ '(])" + Pattern.quote(recordedCwd) + "(?=[\"/ ')])")
            .matcher(json)
            .replaceAll(Matcher.quoteReplacement(cwd.toString()));
    return json.replace(
            "\"" + recordedHome + projects + mangle(recordedCwd),
            "\"" + home + projects + mangle(cwd.toString()))
        .replace("\"" + recordedCwd + "\"", "\"" + cwd + "\"")
        .replace("\"" + recordedCwd + "/", "\"" + cwd + "/")
        .replace("\"" + recordedHome + "\"", "\"" + home + "\"")
        .replace("\"" + recordedHome + "/", "\"" + home + "/");
  }

  private static final Pattern TIMES =
      Pattern.compile("\"timestamp\":\"([^\"]+)\"|\"resetsAt\":([0-9]+)");

  /**
   * {@code json} with its ISO {@code timestamp}s moved by {@code ms} (java.time's reckoning, their
   * millisecond shape kept) and its {@code resetsAt} epoch seconds by whole seconds rounded down.
   */
  static String movedBy(String json, long ms) {
    DateTimeFormatter iso =
        DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    return TIMES
        .matcher(json)
        .replaceAll(
            m ->
                Matcher.quoteReplacement(
                    m.group(1) != null
                        ? "\"timestamp\":\""
                            + iso.format(Instant.parse(m.group(1)).plusMillis(ms))
                            + "\""
                        : "\"resetsAt\":"
                            + (Long.parseLong(m.group(2)) + Math.floorDiv(ms, 1000))));
  }

  /** A folder as the real 2.1.328 names its project: every character but a letter or digit as -. */
  static String mangle(String folder) {
    return folder.replaceAll("[^A-Za-z0-9]", "-");
  }

  /** The stderr of the tape derived for {@code format}: the tape's, with the format's notes. */
  private static String stderr(Tape tape, OutputFormat format) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (Frame frame : rendered(tape, format, false, false)) {
      if (frame instanceof Frame.Err err) {
        bytes.writeBytes(err.bytes());
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private FakeProcess.Result claude(String name, String... args) throws IOException {
    return FakeProcess.run(
        ClaudeArgvTest.claude(),
        Map.of("AGENTDOUBLE_TAPE", "builtin:" + name, "AGENTDOUBLE_TIMING", "fast"),
        new byte[0],
        args);
  }

  /** The id claude-resume-not-found resumes: it is in its errors and stderr, not substituted. */
  static final String UNKNOWN = "3f1e2d4c-5b6a-4789-8abc-def012345678";

  @Test
  void aResumedSessionThatIsNotThereIsRefusedWithItsResultLineEvenWithoutVerbose()
      throws IOException {
    // the real 2.1.328 looks the session up before the verbose rule (runs, part d order 7)
    FakeProcess.Result plain =
        claude(
            "claude-resume-not-found",
            "-p",
            "--resume",
            UNKNOWN,
            "--output-format",
            "stream-json",
            "hi");
    FakeProcess.Result verbose =
        claude(
            "claude-resume-not-found",
            "-p",
            "--resume",
            UNKNOWN,
            "--output-format",
            "stream-json",
            "--verbose",
            "hi");

    assertThat(plain.out())
        .startsWith("{\"type\":\"result\",\"subtype\":\"error_during_execution\"");
    assertThat(plain.out()).isEqualTo(verbose.out());
    assertThat(plain.err()).isEqualTo("No conversation found with session ID: " + UNKNOWN + "\n");
    assertThat(plain.exit()).isEqualTo(1);
  }

  @Test
  void aResumedSessionThatIsThereStillNeedsVerboseForStreamJson() throws IOException {
    // a tape that starts a session is a session found: then the verbose rule (runs, part j.4)
    FakeProcess.Result r =
        claude("claude-answer", "-p", "--resume", UNKNOWN, "--output-format", "stream-json", "hi");

    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo("Error: When using --print, --output-format=stream-json requires --verbose\n");
    assertThat(r.exit()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("entriesInTheirFormats")
  void replaysAsItsTapeRendersForTheFormatAndEndsAsItSays(String name, OutputFormat format)
      throws IOException {
    Tape tape = Catalog.tape(name);
    // a repository's root: the project folder is named after it, wherever this checkout is
    Path cwd = Files.createDirectories(dir.resolve("a_b.c d+e/.git")).getParent().toRealPath();
    Path home = Files.createDirectories(dir.resolve("home")).toRealPath();
    Path tmp = Files.createDirectories(dir.resolve("tmp")).toRealPath();
    Path journal = dir.resolve("journal.ndjson");
    List<String> args = args(tape, format);

    FakeProcess.Result r =
        FakeProcess.runIn(
            ClaudeArgvTest.claude(),
            cwd,
            Map.of(
                "AGENTDOUBLE_TAPE",
                "builtin:" + name,
                "AGENTDOUBLE_TIMING",
                "fast",
                "AGENTDOUBLE_EPOCH_MS",
                Long.toString(LIVE_EPOCH_MS),
                "HOME",
                home.toString(),
                "TMPDIR",
                tmp.toString(),
                "AGENTDOUBLE_JOURNAL",
                journal.toString()),
            args);

    long shift = LIVE_EPOCH_MS - tape.header().vars().epochMs().orElseThrow();
    String socket = tmp + "/cc-socks/" + pid(journal) + ".sock";
    assertThat(r.out())
        .as("stdout of %s", args)
        .isEqualTo(
            movedBy(
                stdout(
                    tape,
                    format,
                    args.contains("--verbose"),
                    args.contains(PARTIAL),
                    cwd,
                    home,
                    socket),
                shift));
    assertThat(r.err()).as("stderr of %s", args).isEqualTo(stderr(tape, format));
    assertThat(r.exit()).as("exit of %s", args).isEqualTo(((Frame.Exit) tape.ending()).code());
  }

  /** The pid the fake's journal says it ran as. */
  static long pid(Path journal) throws IOException {
    Matcher m =
        Pattern.compile("\"pid\":([0-9]+)")
            .matcher(Files.readString(journal, StandardCharsets.UTF_8));
    assertThat(m.find()).as("a pid in the journal %s", journal).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void anUnrecognisedModelIsWarnedAboutBeforeItsLineInTextOnly() throws IOException {
    // the real 2.1.328, --model no-such-model: text prints the warning, then the line; json and
    // stream-json the line alone (runs of 2026-11-26, docs/claude-2.1.328-runs.md part k)
    String line =
        "[claude-code:unrecognized_model] {\"model\":\"no-such-model\",\"query_source\":\"sdk\"}\n";
    String warning =
        "Claude Code doesn't recognize the model \"no-such-model\", so it assumes a context window"
            + " of 1m tokens. Update Claude Code, or see"
            + " https://code.claude.com/docs/en/model-config#correct-the-window-for-a-gateway-or-custom-model-id"
            + " to set the window.\n";

    FakeProcess.Result text =
        claude("claude-unknown-model", "-p", "--model", "no-such-model", "hi");
    FakeProcess.Result json =
        claude(
            "claude-unknown-model",
            "-p",
            "--output-format",
            "json",
            "--model",
            "no-such-model",
            "hi");
    FakeProcess.Result stream =
        claude(
            "claude-unknown-model",
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "--model",
            "no-such-model",
            "hi");

    assertThat(text.err()).isEqualTo(warning + line);
    assertThat(json.err()).isEqualTo(line);
    assertThat(stream.err()).isEqualTo(line);
  }

  @Test
  void theMessagingSocketIsInTheLiveFolderForTemporaryFilesUnderTheLivePid() throws IOException {
    // the real 2.1.328: $TMPDIR/cc-socks/<its pid>.sock (runs, part k)
    Path tmp = Files.createDirectories(dir.resolve("x/tmp"));
    Path journal = dir.resolve("journal.ndjson");
    FakeProcess.Result r =
        FakeProcess.run(
            ClaudeArgvTest.claude(),
            Map.of(
                "AGENTDOUBLE_TAPE",
                "builtin:claude-answer",
                "AGENTDOUBLE_TIMING",
                "fast",
                "TMPDIR",
                tmp + "/",
                "AGENTDOUBLE_JOURNAL",
                journal.toString()),
            new byte[0],
            "-p",
            "--output-format",
            "stream-json",
            "--verbose",
            "hi");

    assertThat(r.out())
        .contains("\"messaging_socket_path\":\"" + tmp + "/cc-socks/" + pid(journal) + ".sock\"")
        .doesNotContain("4242");
  }

  @Test
  void theCliOwnMessageNamesTheLiveWorkingFolder() throws IOException {
    // claude-permission-denied: "touch in '/workspace/made.txt' needs approval ... ('/workspace')"
    Path cwd = Files.createDirectories(dir.resolve("w")).toRealPath();
    FakeProcess.Result r =
        FakeProcess.runIn(
            ClaudeArgvTest.claude(),
            cwd,
            Map.of(
                "AGENTDOUBLE_TAPE",
                "builtin:claude-permission-denied",
                "AGENTDOUBLE_TIMING",
                "fast"),
            List.of("-p", "--output-format", "stream-json", "--verbose", "Make a file"));

    assertThat(r.out())
        .contains("touch in '" + cwd + "/made.txt' needs approval")
        .contains("for this session ('" + cwd + "')")
        .doesNotContain("'/workspace");
  }
}
