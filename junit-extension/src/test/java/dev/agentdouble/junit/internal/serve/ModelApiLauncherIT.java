package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.junit.Runs;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./agentdouble model-api --tape FILE} as a user starts it for the real {@code claude}:
 * {@code ANTHROPIC_BASE_URL=URL} its first stdout line and {@code ANTHROPIC_API_KEY=KEY} its
 * second, the tape's model turns answered at that URL to that key only, until SIGTERM or until the
 * process that started it ends.
 */
@Timeout(120)
class ModelApiLauncherIT {
  @TempDir Path dir;
  private Launcher launcher;

  @BeforeEach
  void noNestedBuild() throws IOException {
    launcher = Launcher.in(dir);
  }

  @Test
  void printsTheBaseUrlFirstAndServesTheTapeUntilSigterm() throws Exception {
    Process api =
        launcher
            .agentdouble("model-api", "--tape", "builtin:claude-answer", "--timing", "fast")
            .start();
    CompletableFuture<String> err = Runs.drain(api.getErrorStream());
    try {
      String[] printed =
          Launcher.twoLines(
              new BufferedReader(
                  new InputStreamReader(api.getInputStream(), StandardCharsets.UTF_8)));
      assertThat(printed[0])
          .as("stdout; stderr: %s", err.getNow(""))
          .matches("ANTHROPIC_BASE_URL=http://127\\.0\\.0\\.1:[0-9]+");
      assertThat(printed[1]).matches("ANTHROPIC_API_KEY=sk-ant-agentdouble-[A-Za-z0-9_-]{43}");
      String url = printed[0].substring("ANTHROPIC_BASE_URL=".length());
      String key = printed[1].substring("ANTHROPIC_API_KEY=".length());

      HttpResponse<String> answer = post(url + "/v1/messages?beta=true", key);
      HttpResponse<String> refused = post(url + "/v1/messages?beta=true", "sk-ant-other");

      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body())
          .startsWith("event: message_start\n")
          .contains("Hello from the script.");
      assertThat(refused.statusCode()).isEqualTo(401);

      api.destroy(); // SIGTERM
      assertThat(api.waitFor(30, TimeUnit.SECONDS)).as("ends on SIGTERM").isTrue();
      assertThat(api.exitValue()).isEqualTo(143);
      assertThat(err.get(10, TimeUnit.SECONDS))
          .startsWith("agentdouble: serving builtin:claude-answer (1 answer) as the Messages API")
          .doesNotContain("SLF4J", "Exception")
          .doesNotContain(key);
    } finally {
      api.destroyForcibly();
    }
  }

  /**
   * Started as docs/claude.md starts it, in the background of a shell (SIGINT ignored from the
   * start), it still stops on SIGINT as in a terminal (Ctrl-C): exit 130.
   */
  @Test
  void sigintStopsItWhenStartedInTheBackgroundOfAShell() throws Exception {
    assertThat(
            launcher.interruptInTheBackground(
                "ANTHROPIC_BASE_URL=", "model-api", "--tape", "builtin:claude-answer"))
        .isEqualTo(130);
  }

  /** A test runner killed outright (SIGKILL) leaves no model API behind. */
  @Test
  void stopsWhenTheProcessThatStartedItIsKilled() throws Exception {
    Launcher.Orphaned orphaned =
        launcher.killTheParentOf(
            "ANTHROPIC_BASE_URL=", "model-api", "--tape", "builtin:claude-answer");

    assertThat(orphaned.err())
        .endsWith(
            "agentdouble: model-api: the process that started it ("
                + orphaned.parent()
                + ") has ended; stopping\n");
  }

  /**
   * The console session of docs/claude.md that starts {@code agentdouble model-api} prints what the
   * page shows (DocExamplesTest, which runs the other sessions, runs before this module is built):
   * as one {@code sh} session in a folder of its own, each {@code $} line run, its output the lines
   * the page shows under it.
   */
  @Test
  void theDocsSessionPrintsWhatThePageShows() throws Exception {
    Matcher block =
        Pattern.compile("(?m)^```console\\n(\\$ mkfifo model-api\\.env\\n.*?)^```$", Pattern.DOTALL)
            .matcher(Files.readString(ServeTest.root().resolve("docs/claude.md")));
    assertThat(block.find()).as("docs/claude.md's model-api session").isTrue();
    List<String> commands = new ArrayList<>();
    List<List<String>> shown = new ArrayList<>();
    for (String line : block.group(1).split("\n")) {
      if (line.startsWith("$ ")) {
        commands.add(line.substring(2));
        shown.add(new ArrayList<>());
      } else {
        shown.get(shown.size() - 1).add(line);
      }
    }
    StringBuilder session = new StringBuilder("exec 2>&1\n");
    for (int i = 0; i < commands.size(); i++) {
      session
          .append("printf '@@@")
          .append(i)
          .append("@@@\\n'\n")
          .append(commands.get(i))
          .append('\n');
    }
    Files.createSymbolicLink(dir.resolve("agentdouble"), ServeTest.root().resolve("agentdouble"));
    Path script = dir.resolve("session.sh");
    Files.writeString(script, session.toString());

    ProcessBuilder sh = launcher.agentdouble().command("/bin/sh", script.toString());
    sh.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process run = sh.start();
    CompletableFuture<String> out = Runs.drain(run.getInputStream());
    assertThat(run.waitFor(60, TimeUnit.SECONDS)).as("the session ends").isTrue();

    String[] printed = out.get(10, TimeUnit.SECONDS).split("@@@\\d+@@@\n", -1);
    assertThat(printed).hasSize(commands.size() + 1);
    for (int i = 0; i < commands.size(); i++) {
      assertThat(printed[i + 1].lines().toList())
          .as("$ %s", commands.get(i))
          .isEqualTo(shown.get(i));
    }
  }

  @Test
  void badInputExitsWithOneLineAndNoStackTrace() throws Exception {
    Process noTape = launcher.agentdouble("model-api").start();
    Process cursorTape =
        launcher.agentdouble("model-api", "--tape", "builtin:documented-minimal").start();
    Process stray = launcher.agentdouble("model-api", "tape.ndjson").start();

    assertThat(exit(noTape)).isEqualTo(2);
    assertThat(errOf(noTape))
        .isEqualTo(
            "agentdouble: --tape FILE is needed: a stream-json tape of claude\n"
                + "Run 'agentdouble model-api --help' for usage.\n");
    assertThat(exit(cursorTape)).isEqualTo(1);
    assertThat(errOf(cursorTape))
        .isEqualTo(
            "agentdouble: builtin:documented-minimal: a tape of cursor-agent; the model API serves"
                + " Claude Code tapes (\"cli\":\"claude\" in the header)\n");
    assertThat(cursorTape.getInputStream().readAllBytes()).isEmpty();
    assertThat(exit(stray)).isEqualTo(2);
    assertThat(errOf(stray))
        .startsWith(
            "agentdouble: unexpected argument 'tape.ndjson'; the tape is given with --tape FILE\n");
  }

  @Test
  void theCommandsHelpListsModelApi() throws Exception {
    Process help = launcher.agentdouble("--help").start();
    Process own = launcher.agentdouble("model-api", "--help").start();

    String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String usage = new String(own.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(exit(help)).isZero();
    assertThat(text).contains("model-api --tape FILE [--port N] [--timing T]");
    assertThat(exit(own)).isZero();
    assertThat(usage).isEqualTo(ModelApiCommand.HELP);
  }

  private static int exit(Process process) throws InterruptedException {
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return process.exitValue();
  }

  private static String errOf(Process process) throws IOException {
    return new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> post(String url, String key) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(30))
            .header("x-api-key", key)
            .POST(HttpRequest.BodyPublishers.ofString("{\"stream\":true}"))
            .build();
    return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
  }
}
