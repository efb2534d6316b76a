package dev.agentdouble.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.catalog.Catalog;
import dev.agentdouble.junit.ModelApi;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.testing.TestProcess;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Fidelity by difference: for each Claude catalog scenario a model API can express, the real {@code
 * claude} 2.1.328 (npm {@code @anthropic-ai/claude-code}, installed into {@code target/}) run
 * against the tape served as the Messages API ({@link ModelApi}) and the fake's {@code claude}
 * replaying the same tape, with the same argv, print the same stdout and stderr and exit alike, in
 * every output format, once the values that differ between any two runs are normalised: ids, times,
 * ports and paths ({@link #normalised}; docs/claude.md, "The fake against the real CLI").
 *
 * <p>The real runs start together as the class starts (the retry scenarios wait minutes in the
 * CLI's own backoff); each case then waits for its own. Without node and npm, or where the CLI
 * cannot be installed, the class is skipped with a message saying so.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class RealClaudeDifferenceTest {
  /** The catalog's Claude scenarios a Messages API can express, each a {@code builtin:claude-*}. */
  static final List<String> SCENARIOS =
      List.of(
          "answer",
          "tool-bash",
          "max-turns",
          "permission-denied",
          "overloaded-retry",
          "stream-cut",
          "unknown-model",
          "usage-limit",
          "invalid-api-key");

  /** Each output format, as the flags that ask for it. */
  static final Map<String, List<String>> FORMATS =
      Map.of(
          "text", List.of("--output-format", "text"),
          "json", List.of("--output-format", "json"),
          "stream-json", List.of("--output-format", "stream-json", "--verbose"));

  private static final Path FAKE =
      Path.of(System.getProperty("agentdouble.root", ".."), "fake-agent/bin/claude")
          .toAbsolutePath()
          .normalize();
  private static final Duration PATIENCE = Duration.ofMinutes(8);

  private static final Map<String, Future<Run>> REAL = new ConcurrentHashMap<>();
  private static ExecutorService pool;

  /** One run, normalised: its stdout and stderr, its exit, model requests past the tape. */
  record Run(String out, String err, int exit, int pastTheTape) {}

  @BeforeAll
  static void installTheCliAndStartItsRuns() throws Exception {
    Path claude = RealClaude.installed();
    // the retry scenarios sleep through the CLI's backoff (minutes): they run side by side
    pool = Executors.newFixedThreadPool(8);
    for (Arguments arguments : cases().toList()) {
      Object[] a = arguments.get();
      String tape = (String) a[1];
      @SuppressWarnings("unchecked")
      List<String> argv = (List<String>) a[2];
      REAL.put((String) a[0], pool.submit(() -> real(claude, tape, argv)));
    }
  }

  @AfterAll
  static void stop() {
    if (pool != null) {
      pool.shutdownNow();
    }
  }

  /**
   * Each case: its name, its tape ({@code builtin:claude-*}, or a file), its argv. The catalog's
   * scenarios in each format, then the runs recorded with {@code --include-partial-messages}.
   */
  static Stream<Arguments> cases() throws Exception {
    List<Arguments> cases = new ArrayList<>();
    for (String scenario : SCENARIOS) {
      for (String format : List.of("text", "json", "stream-json")) {
        cases.add(
            Arguments.of(
                scenario + " in " + format, "builtin:claude-" + scenario, argv(scenario, format)));
      }
    }
    for (String scenario : SCENARIOS) {
      Path tape = partial(scenario);
      cases.add(
          Arguments.of(
              scenario + " with --include-partial-messages",
              tape.toString(),
              Tape.read(tape).header().argv()));
    }
    return cases.stream();
  }

  /**
   * The run of {@code scenario} recorded from the real CLI with {@code --include-partial-messages}
   * ({@code agentdouble record} against {@code agentdouble model-api} serving the catalog's tape):
   * its stream events are what the model API streams.
   */
  static Path partial(String scenario) throws URISyntaxException {
    return Path.of(
        RealClaudeDifferenceTest.class
            .getClassLoader()
            .getResource("claude-partial/" + scenario + ".tape.ndjson")
            .toURI());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void theFakeOnTheTapePrintsWhatTheRealCliPrintsOnItsModelApi(
      String name, String tape, List<String> argv, @TempDir Path folder) throws Exception {
    Run fake = fake(tape, argv, folder);
    Run real = REAL.get(name).get(PATIENCE.toMinutes() + 1, TimeUnit.MINUTES);

    assertThat(real.pastTheTape())
        .as("the real CLI asked the model more than the tape's run did")
        .isZero();
    assertThat(lines(fake.out()))
        .as("the fake's stdout lines, normalised, against the real CLI's")
        .containsExactlyElementsOf(lines(real.out()));
    assertThat(fake.out()).as("stdout, normalised, to the last byte").isEqualTo(real.out());
    assertThat(lines(fake.err()))
        .as("the fake's stderr lines, normalised, against the real CLI's")
        .containsExactlyElementsOf(lines(real.err()));
    assertThat(fake.exit()).as("exit").isEqualTo(real.exit());
  }

  /** {@code text}'s lines, each with its line end, so that a missing last newline shows. */
  private static List<String> lines(String text) {
    List<String> lines = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      end = end < 0 ? text.length() : end + 1;
      lines.add(text.substring(start, end));
      start = end;
    }
    return lines;
  }

  /** The tape's argv with the format's flags instead of its own. */
  static List<String> argv(String scenario, String format) {
    List<String> recorded = Catalog.tape("claude-" + scenario).header().argv();
    List<String> argv = new ArrayList<>();
    for (int i = 0; i < recorded.size(); i++) {
      String arg = recorded.get(i);
      if (arg.equals("--output-format")) {
        i++;
      } else if (!arg.equals("--verbose")) {
        argv.add(arg);
      }
    }
    argv.addAll(1, FORMATS.get(format)); // after -p
    return argv;
  }

  private static Run real(Path claude, String tape, List<String> argv) throws Exception {
    try (ModelApi api = ModelApi.serving(tape)) {
      TestProcess.Result run =
          TestProcess.of(api.claude(claude, argv)).noStdin().patience(PATIENCE).run();
      Map<String, String> paths = paths(api.workFolder().toString(), api.environment().get("HOME"));
      return new Run(
          normalised(run.out(), paths),
          normalised(run.err(), paths),
          run.exit(),
          api.requestsPastTheTape());
    }
  }

  private static Run fake(String tape, List<String> argv, Path folder) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(FAKE.toString());
    command.addAll(argv);
    TestProcess.Result run = RealClaude.offline(command, folder, Map.of("AGENTDOUBLE_TAPE", tape));
    Map<String, String> paths =
        paths(folder.resolve("work").toString(), folder.resolve("home").toString());
    return new Run(normalised(run.out(), paths), normalised(run.err(), paths), run.exit(), 0);
  }

  /**
   * A run's paths and what they become: its working folder, its home (its TMPDIR too), and the
   * project folder Claude Code names after the working folder under {@code ~/.claude/projects/}.
   */
  static Map<String, String> paths(String cwd, String home) {
    Map<String, String> paths = new LinkedHashMap<>();
    paths.put(cwd, "<cwd>");
    paths.put(home, "<home>");
    paths.put(cwd.replaceAll("[^A-Za-z0-9]", "-"), "<project>");
    return paths;
  }

  private static final Pattern UUID =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
  private static final Pattern ISO_TIME =
      Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
  private static final Pattern DURATION =
      Pattern.compile(
          "\"(duration_ms|duration_api_ms|ttft_ms|ttft_stream_ms|time_to_request_ms"
              + "|first_content_frame_ms|retry_delay_ms|thinking_duration_ms)\":\\d+");
  private static final Pattern PORT = Pattern.compile("127\\.0\\.0\\.1:\\d+");
  private static final Pattern SOCKET = Pattern.compile("\"messaging_socket_path\":\"[^\"]*\"");

  /**
   * {@code text} with what differs between any two runs made alike: the run's paths (longest
   * first), UUIDs (session ids, line uuids), ISO times, durations, the model API's port, the pid in
   * the messaging socket ({@code $TMPDIR/cc-socks/<pid>.sock}, or {@code
   * /tmp/cc-socks-<uid>/<pid>.sock} where that is over 103 bytes: which of the two a run takes
   * depends on the length of its own temp folder and pid, which differ between the real run and the
   * fake's, so that in a deep checkout one took each; ClaudeMessagingSocketTest holds the fake to
   * the real CLI's rule, runs of it in docs/claude-2.1.328-runs.md part n).
   */
  static String normalised(String text, Map<String, String> paths) {
    String result = text;
    List<String> longestFirst = new ArrayList<>(paths.keySet());
    longestFirst.sort(Comparator.comparingInt(String::length).reversed());
    for (String path : longestFirst) {
      result = result.replace(path, paths.get(path));
    }
    result = UUID.matcher(result).replaceAll("<uuid>");
    result = ISO_TIME.matcher(result).replaceAll("<time>");
    result = DURATION.matcher(result).replaceAll(m -> "\"" + m.group(1) + "\":0");
    result = PORT.matcher(result).replaceAll("127.0.0.1:<port>");
    result = SOCKET.matcher(result).replaceAll("\"messaging_socket_path\":\"<socket>\"");
    return result;
  }
}
