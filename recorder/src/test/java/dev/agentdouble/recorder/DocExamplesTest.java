package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The console examples of the docs are what the fake prints today: each {@code $} line that runs
 * the fake on a tape the page gives (a built-in one, or a file a {@code sh} block of the page
 * writes) runs for real, in a folder where the page's files were written in page order, and its
 * output, stdout and stderr together, must be the lines the page shows, up to live values (session
 * ids, times, pids, folders). A {@code $ echo $?} after it checks its exit status.
 *
 * <p>Every documented print-mode run of the fake passes {@code --trust} (or {@code --yolo}, {@code
 * -f}, {@code --force}, {@code AGENTDOUBLE_TRUST}), unless the page shows what the trust gate or an
 * option error prints: the fake plays a fresh machine, as CI is.
 */
@Timeout(300)
class DocExamplesTest {
  @TempDir Path dir;

  /** A fenced block: its language and its text. */
  private static final Pattern BLOCK =
      Pattern.compile("(?m)^```(\\w*)\\n(.*?)^```$", Pattern.DOTALL);

  /** A heredoc that writes a file: {@code cat > FILE <<'EOF'}. */
  private static final Pattern HEREDOC =
      Pattern.compile("(?m)^cat > (\\S+) <<'EOF'\\n(.*?)^EOF$", Pattern.DOTALL);

  private static final Pattern PRINT_RUN =
      Pattern.compile("(cursor-agent|bin/agent|(?<![\\w/-])agent) .*(?<!\\S)(-p|--print)(?!\\S)");

  private static final Pattern TRUSTED =
      Pattern.compile("(?<!\\S)(--trust|--yolo|-f|--force)(?!\\S)|AGENTDOUBLE_TRUST=");

  @ParameterizedTest
  @ValueSource(strings = {"docs/cli.md", "docs/cookbook.md", "README.md"})
  void everyPrintRunOfTheFakeIsTrustedOrShowsWhyNot(String doc) throws IOException {
    List<String> untrusted = new ArrayList<>();
    for (Example e : examples(doc)) {
      if (PRINT_RUN.matcher(e.command()).find()
          && !TRUSTED.matcher(e.command()).find()
          && !String.join("\n", e.output()).matches("(?s).*(Workspace Trust Required|error: ).*")) {
        untrusted.add(doc + ":" + e.line() + ": " + e.command());
      }
    }
    assertThat(untrusted).as("print runs of the fake without a trust flag").isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"docs/cli.md", "docs/cookbook.md"})
  void theConsoleExamplesPrintWhatThePageShows(String doc) throws Exception {
    Files.createSymbolicLink(dir.resolve("fake-agent"), Cli.root().resolve("fake-agent"));
    String page = Files.readString(Cli.root().resolve(doc));
    List<String> wrong = new ArrayList<>();
    int ran = 0;
    Matcher block = BLOCK.matcher(page);
    while (block.find()) {
      int firstLine = lineOf(page, block.start()) + 1;
      if (block.group(1).equals("sh")) {
        Matcher file = HEREDOC.matcher(block.group(2));
        while (file.find()) {
          Path to = dir.resolve(file.group(1));
          Files.createDirectories(to.getParent());
          Files.writeString(to, file.group(2));
        }
        continue;
      }
      if (!block.group(1).equals("console")) {
        continue;
      }
      for (Example e : parse(block.group(2), firstLine)) {
        if (!runnable(e.command())) {
          continue;
        }
        Run run = run(e.command());
        ran++;
        List<String> expected = normalise(e.output());
        List<String> actual = normalise(run.lines());
        if (!actual.equals(expected)) {
          wrong.add(
              doc
                  + ":"
                  + e.line()
                  + ": "
                  + e.command()
                  + "\n  the page shows:\n    "
                  + String.join("\n    ", e.output())
                  + "\n  it prints:\n    "
                  + String.join("\n    ", run.lines()));
        }
        if (e.exit() != null && run.exit() != e.exit()) {
          wrong.add(doc + ":" + e.line() + ": exit " + run.exit() + ", the page says " + e.exit());
        }
      }
    }
    assertThat(wrong).as("console examples that are not what the fake prints").isEmpty();
    assertThat(ran).as("examples run from %s", doc).isGreaterThan(0);
  }

  /** A {@code $} line, the lines it shows, and the status a {@code $ echo $?} after it shows. */
  record Example(int line, String command, List<String> output, Integer exit) {}

  private static List<Example> examples(String doc) throws IOException {
    String page = Files.readString(Cli.root().resolve(doc));
    List<Example> all = new ArrayList<>();
    Matcher block = BLOCK.matcher(page);
    while (block.find()) {
      if (block.group(1).equals("console")) {
        all.addAll(parse(block.group(2), lineOf(page, block.start()) + 1));
      }
    }
    return all;
  }

  private static List<Example> parse(String text, int firstLine) {
    String[] lines = text.split("\n", -1);
    List<Example> examples = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      if (!lines[i].startsWith("$ ") || lines[i].equals("$ echo $?")) {
        continue;
      }
      List<String> output = new ArrayList<>();
      int j = i + 1;
      while (j < lines.length && !lines[j].startsWith("$ ")) {
        if (!(j == lines.length - 1 && lines[j].isEmpty())) {
          output.add(lines[j]);
        }
        j++;
      }
      Integer exit = null;
      if (j < lines.length && lines[j].equals("$ echo $?") && j + 1 < lines.length) {
        exit = Integer.valueOf(lines[j + 1].strip());
      }
      examples.add(new Example(firstLine + i, lines[i].substring(2), output, exit));
    }
    return examples;
  }

  /** Runs of the fake on a tape the page gives, whose whole output the page shows. */
  private static boolean runnable(String command) {
    return command.contains("fake-agent/bin/")
        && command.matches(".*AGENTDOUBLE_TAPE=(builtin:[\\w-]+|[\\w.-]+\\.tape\\.ndjson) .*")
        && !command.matches(".*(&\\s*$|\\$[A-Z!]|AGENTDOUBLE_URL|AGENTDOUBLE_GATES|>).*");
  }

  record Run(int exit, List<String> lines) {}

  private Run run(String command) throws Exception {
    Path out = Files.createTempFile(dir, "out", ".txt");
    ProcessBuilder pb =
        new ProcessBuilder("/bin/sh", "-c", command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(out.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_"));
    if (!command.contains("AGENTDOUBLE_TIMING=")) {
      pb.environment().put("AGENTDOUBLE_TIMING", "fast"); // the pauses change no byte
    }
    Process p = pb.start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError(command + ": still running after 60 s");
    }
    String text = Files.readString(out, StandardCharsets.UTF_8);
    List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return new Run(p.exitValue(), lines);
  }

  /** Live values replaced: ids, times, pids, folders. */
  private List<String> normalise(List<String> lines) {
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      out.add(
          line.replace(dir.toString(), "DIR")
              .replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "UUID")
              .replaceAll("\"(timestamp_ms|pid|epochMs)\":[0-9]+", "\"$1\":N")
              .replaceAll("\"(startedAt|recordedAt)\":\"[^\"]*\"", "\"$1\":\"T\"")
              .replaceAll("\"model_call_id\":\"[^\"]*\"", "\"model_call_id\":\"ID\""));
    }
    return out;
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
