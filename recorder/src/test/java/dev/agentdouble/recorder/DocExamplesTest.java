package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The console examples of the docs are what AgentDouble prints today.
 *
 * <p>A page runs as a reader follows it: its console blocks in page order, as one shell session in
 * a folder of its own, where the files its {@code sh} blocks write ({@code cat > FILE <<'EOF'}) are
 * written when the page writes them and {@code fake-agent} and {@code agentdouble} are those of the
 * project. The machine is a fresh one, as CI is: no workspace is trusted. Every {@code $} line
 * runs, and what it prints, stdout and stderr together, must be the lines the page shows under it,
 * up to live values (ids, times, pids, durations, folders); a line {@code ...} stands for any
 * lines, and {@code $ echo $?} shows a status like any other command. The pauses of the tapes are
 * left out ({@code AGENTDOUBLE_TIMING=fast}): they change no byte. A block that needs what its page
 * only describes is left out, in {@link #NOT_RUN} with the reason.
 *
 * <p>Every print-mode run of the fake a page shows, in a console or a sh block, passes {@code
 * --trust} (or {@code --yolo}, {@code -f}, {@code --force}, {@code AGENTDOUBLE_TRUST=trusted}),
 * unless the page shows what the trust gate or an option error prints.
 */
@Timeout(600)
class DocExamplesTest {
  @TempDir Path dir;

  /** A fenced block: its language and its text. */
  private static final Pattern BLOCK =
      Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```$", Pattern.DOTALL);

  /** A heredoc that writes a file: {@code cat > FILE <<'EOF'}. */
  private static final Pattern HEREDOC =
      Pattern.compile("(?m)^cat > \\S+ <<'EOF'\\n.*?^EOF$", Pattern.DOTALL);

  /** Where the session's output of one example begins: the example's index. */
  private static final Pattern MARK = Pattern.compile("@@@(\\d+)@@@\\n");

  private static final Pattern PRINT_RUN =
      Pattern.compile("(cursor-agent|bin/agent|(?<![\\w/-])agent) .*(?<!\\S)(-p|--print)(?!\\S)");

  private static final Pattern TRUSTED =
      Pattern.compile("(?<!\\S)(--trust|--yolo|-f|--force)(?!\\S)|AGENTDOUBLE_TRUST=trusted");

  /** A line of {@code agentdouble show} for a silence, which depends on the timing. */
  private static final Pattern SILENCE =
      Pattern.compile(" *\\.\\.\\. [0-9.]+s without output \\.\\.\\.");

  /**
   * The blocks left out, by page: a text one of their commands holds, and why. Each must still be
   * found, so that an entry does not outlive its block.
   */
  private static final Map<String, Map<String, String>> NOT_RUN =
      Map.of(
          "docs/cli.md",
          Map.of(
              "AGENTDOUBLE_TAPES=tapes ", "the tapes of tapes/ are described, not given",
              "python3 control.py", "a control server of its own on port 8089",
              "kill -INT", "an interactive shell: a script starts background jobs ignoring SIGINT",
              "broken.tape.ndjson", "broken.tape.ndjson and odd.tape.ndjson are described only",
              "before.tape.ndjson", "before.tape.ndjson and after.tape.ndjson are described only",
              "old.tape.ndjson", "old.tape.ndjson and new.tape.ndjson are described only",
              "AGENTDOUBLE_SECRET=$SECRET", "agentdouble serve, running in another shell"),
          "docs/cookbook.md",
          Map.of("/tmp/drift", "writes outside its folder; DriftConformanceTest checks the report"),
          "docs/claude.md",
          Map.of(
              "mkfifo model-api.env",
              "model-api is a command of the JUnit extension, built after the recorder;"
                  + " ModelApiLauncherIT runs this block"));

  /** Commands that run but whose output is not compared, and why. */
  private static final Map<String, String> NOT_COMPARED =
      Map.of("cat shims/", "a shim holds this machine's paths: its java, the project");

  /** Every page: the docs and the README. */
  static Stream<String> pages() {
    try (Stream<Path> docs = Files.list(Cli.root().resolve("docs"))) {
      List<String> pages =
          new ArrayList<>(
              docs.map(p -> "docs/" + p.getFileName())
                  .filter(p -> p.endsWith(".md"))
                  .sorted()
                  .toList());
      pages.add("README.md");
      return pages.stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The pages with a console example. */
  static Stream<String> pagesWithExamples() {
    return pages().filter(doc -> blocks(doc).stream().anyMatch(b -> !b.examples().isEmpty()));
  }

  @ParameterizedTest
  @MethodSource("pages")
  void everyPrintRunOfTheFakeIsTrustedOrShowsWhyNot(String doc) {
    List<String> untrusted = new ArrayList<>();
    for (Block b : blocks(doc)) {
      for (Example e : b.examples()) {
        if (untrusted(e.command())
            && e.output().stream()
                .noneMatch(
                    l -> l.contains("Workspace Trust Required") || l.startsWith("error: "))) {
          untrusted.add(doc + ":" + e.line() + ": " + e.command());
        }
      }
      if (b.language().equals("sh")) {
        String[] lines = b.text().split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
          int first = i;
          String line = lines[i];
          while (line.endsWith("\\") && i + 1 < lines.length) {
            line = line.substring(0, line.length() - 1) + lines[++i];
          }
          if (untrusted(line)) {
            untrusted.add(doc + ":" + (b.firstLine() + first) + ": " + line.strip());
          }
        }
      }
    }
    assertThat(untrusted).as("print runs of the fake without a trust flag").isEmpty();
  }

  private static boolean untrusted(String command) {
    return PRINT_RUN.matcher(command).find() && !TRUSTED.matcher(command).find();
  }

  @ParameterizedTest
  @MethodSource("pagesWithExamples")
  @SuppressWarnings("try") // sh.close() inside its try: kills a shell that did not end in time
  void theConsoleExamplesPrintWhatThePageShows(String doc) throws Exception {
    List<Path> links =
        List.of(
            Files.createSymbolicLink(dir.resolve("fake-agent"), Cli.root().resolve("fake-agent")),
            Files.createSymbolicLink(
                dir.resolve("agentdouble"), Cli.root().resolve("agentdouble")));
    Map<String, String> notRun = NOT_RUN.getOrDefault(doc, Map.of());
    Set<String> found = new TreeSet<>();
    List<Example> examples = new ArrayList<>();
    StringBuilder session = new StringBuilder("exec 2>&1\n");
    for (Block b : blocks(doc)) {
      if (b.language().equals("sh")) {
        Matcher file = HEREDOC.matcher(b.text());
        while (file.find()) {
          session.append(file.group()).append('\n');
        }
      }
      List<String> why =
          notRun.keySet().stream()
              .filter(k -> b.examples().stream().anyMatch(e -> e.command().contains(k)))
              .toList();
      found.addAll(why);
      if (!why.isEmpty()) {
        continue;
      }
      for (Example e : b.examples()) {
        // the mark keeps the status of the command before it, for a $ echo $?
        session
            .append("shown=$?; printf '@@@")
            .append(examples.size())
            .append("@@@\\n'; (exit $shown)\n")
            .append(e.command())
            .append('\n');
        examples.add(e);
      }
    }
    assertThat(found).as("entries of NOT_RUN for %s", doc).isEqualTo(notRun.keySet());

    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("AGENTDOUBLE_TRUST", "untrusted");
    env.put("AGENTDOUBLE_TIMING", "fast");
    env.put(
        "DEMO",
        Cli.root().resolve("recorder/src/main/resources/dev/agentdouble/recorder/demo").toString());
    Path script = Cli.write(dir, ".examples.sh", session.toString());
    String printed;
    boolean ended;
    try (Child sh = Child.start(List.of("/bin/sh", script.toString()), dir, env)) {
      sh.closeStdin(); // no command is left waiting on a pipe that nobody writes
      ended = sh.process().waitFor(Child.PATIENCE.toSeconds(), TimeUnit.SECONDS);
      if (!ended) {
        sh.close();
      }
      sh.waitFor();
      printed = sh.out();
    } finally {
      for (Path link : links) {
        Files.delete(link); // JUnit warns about links out of the folder it deletes
      }
    }

    Map<Integer, List<String>> outputs = new HashMap<>();
    Matcher mark = MARK.matcher(printed);
    int at = -1;
    int from = 0;
    while (mark.find()) {
      if (at >= 0) {
        outputs.put(at, lines(printed.substring(from, mark.start())));
      }
      at = Integer.parseInt(mark.group(1));
      from = mark.end();
    }
    if (at >= 0) {
      outputs.put(at, lines(printed.substring(from)));
    }
    List<String> wrong = new ArrayList<>();
    for (int i = 0; i < examples.size(); i++) {
      Example e = examples.get(i);
      List<String> actual = outputs.getOrDefault(i, List.of("(the session ended before it)"));
      if (NOT_COMPARED.keySet().stream().noneMatch(e.command()::contains)
          && !matches(normalise(e.output()), 0, normalise(actual), 0)) {
        wrong.add(
            doc
                + ":"
                + e.line()
                + ": "
                + e.command()
                + "\n  the page shows:\n    "
                + String.join("\n    ", e.output())
                + "\n  it prints:\n    "
                + String.join("\n    ", actual));
      }
    }
    if (!ended) {
      Example e = examples.get(Math.max(at, 0));
      wrong.add(
          "the session did not end within "
              + Child.PATIENCE.toSeconds()
              + " s; it was running "
              + doc
              + ":"
              + e.line()
              + ": "
              + e.command());
    }
    assertThat(wrong).as("console examples of %s that are not what runs print", doc).isEmpty();
    assertThat(examples).as("examples run from %s", doc).isNotEmpty();
  }

  /** Whether {@code expected} from its i-th line is {@code actual} from its j-th. */
  private static boolean matches(List<String> expected, int i, List<String> actual, int j) {
    if (i == expected.size()) {
      return j == actual.size();
    }
    if (expected.get(i).equals("...")) {
      for (int k = j; k <= actual.size(); k++) {
        if (matches(expected, i + 1, actual, k)) {
          return true;
        }
      }
      return false;
    }
    return j < actual.size()
        && expected.get(i).equals(actual.get(j))
        && matches(expected, i + 1, actual, j + 1);
  }

  /** Live values replaced: ids, times, pids, durations, folders, names of recorded tapes. */
  private List<String> normalise(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      if (SILENCE.matcher(line).matches()) {
        continue;
      }
      out.add(
          line.replace(dir.toString(), "DIR")
              .replaceAll("/tmp/[\\w.-]+", "DIR")
              .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID")
              .replaceAll("\"(timestamp_ms|pid|epochMs|t)\":[0-9]+", "\"$1\":N")
              .replaceAll("\"(startedAt|recordedAt)\":\"[^\"]*\"", "\"$1\":\"T\"")
              .replaceAll("\"model_call_id\":\"[^\"]*\"", "\"model_call_id\":\"ID\"")
              .replaceAll("\\b[0-9]+\\.[0-9]+s\\b", "N.Ns")
              .replaceAll(
                  "\\b[0-9]{8}-[0-9]{6}-[0-9]{3}-([\\w-]+)-[0-9a-f]{6}\\.tape\\.ndjson",
                  "STAMP-$1-HASH.tape.ndjson"));
    }
    return out;
  }

  /** A fenced block of a page: its language, the line after its fence, its text. */
  record Block(String language, int firstLine, String text) {
    /** A console block's {@code $} lines, each with the lines it shows. */
    List<Example> examples() {
      if (!language.equals("console")) {
        return List.of();
      }
      List<String> lines = lines(text);
      List<Example> examples = new ArrayList<>();
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith("$ ")) {
          int j = i + 1;
          while (j < lines.size() && !lines.get(j).startsWith("$ ")) {
            j++;
          }
          examples.add(
              new Example(firstLine + i, lines.get(i).substring(2), lines.subList(i + 1, j)));
        }
      }
      return examples;
    }
  }

  /** A {@code $} line and the lines the page shows under it. */
  record Example(int line, String command, List<String> output) {}

  private static List<Block> blocks(String doc) {
    String page = Cli.read(Cli.root().resolve(doc));
    List<Block> blocks = new ArrayList<>();
    Matcher block = BLOCK.matcher(page);
    while (block.find()) {
      blocks.add(new Block(block.group(1), lineOf(page, block.start()) + 1, block.group(2)));
    }
    return blocks;
  }

  /** The lines of {@code text}, without the empty one after a last newline. */
  private static List<String> lines(String text) {
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    if (lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  private static int lineOf(String text, int offset) {
    int line = 1;
    for (int i = 0; i < offset; i++) {
      if (text.charAt(i) == '\n') {
        line++;
      }
    }
    return line;
  }
}
