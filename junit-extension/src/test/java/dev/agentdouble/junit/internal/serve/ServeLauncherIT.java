package dev.agentdouble.junit.internal.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.Launch;
import dev.agentdouble.junit.Runs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./agentdouble serve} as a user (or a Python or Node test runner) starts it ({@link
 * Launcher}): a process that prints its URL, answers the fake agent, and ends on SIGTERM.
 */
@Timeout(120)
class ServeLauncherIT {
  @TempDir Path dir;
  private Launcher launcher;

  @BeforeEach
  void noNestedBuild() throws IOException {
    launcher = Launcher.in(dir);
  }

  private ProcessBuilder agentdouble(String... args) {
    return launcher.agentdouble(args);
  }

  @Test
  void servesUntilSigterm() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(
        tapes.resolve("hello.tape.ndjson"),
        "{\"tape\":1,\"match\":{\"prompt\":\"hello\"}}\n"
            + "{\"t\":0,\"outRaw\":\"hi from serve\\n\"}\n"
            + "{\"t\":1,\"exit\":0}\n");
    Process serve = agentdouble("serve", "--tapes", "tapes").start();
    CompletableFuture<String> err = Runs.drain(serve.getErrorStream());
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
      String[] printed = Launcher.twoLines(out);
      assertThat(printed[0])
          .as("stdout; stderr: %s", err.getNow(""))
          .isNotNull()
          .matches("AGENTDOUBLE_URL=http://127\\.0\\.0\\.1:[0-9]+/agentdouble/serve");
      assertThat(printed[1]).matches("AGENTDOUBLE_SECRET=[A-Za-z0-9_-]{43}");
      String url = printed[0].substring("AGENTDOUBLE_URL=".length());
      String secret = printed[1].substring("AGENTDOUBLE_SECRET=".length());
      CompletableFuture<String> rest =
          CompletableFuture.supplyAsync(
              () -> {
                StringBuilder more = new StringBuilder();
                try {
                  for (String l = out.readLine(); l != null; l = out.readLine()) {
                    more.append(l).append('\n');
                  }
                } catch (IOException e) {
                  // the process is gone; what was read is what there was
                }
                return more.toString();
              });

      Runs.Result hit =
          ServeTest.fake(
              Map.of(
                  "AGENTDOUBLE_URL",
                  url,
                  "AGENTDOUBLE_SECRET",
                  secret,
                  "AGENTDOUBLE_TIMING",
                  "fast"),
              "-p",
              "--trust",
              "--output-format",
              "stream-json",
              "hello there");
      Runs.Result miss =
          ServeTest.fake(
              Map.of("AGENTDOUBLE_URL", url, "AGENTDOUBLE_SECRET", secret),
              "-p",
              "--trust",
              "--output-format",
              "stream-json",
              "bye");

      assertThat(hit.out()).isEqualTo("hi from serve\n");
      assertThat(hit.exit()).isZero();
      assertThat(miss.exit()).isEqualTo(70);
      assertThat(miss.err())
          .contains(
              "(HTTP 404)",
              "hello.tape.ndjson",
              "it missed: prompt matching \"hello\", was \"bye\"");
      assertThat(serve.isAlive()).isTrue();

      serve.destroy(); // SIGTERM
      assertThat(serve.waitFor(30, TimeUnit.SECONDS)).as("ends on SIGTERM").isTrue();
      assertThat(serve.exitValue()).isEqualTo(143);
      assertThat(rest.get(10, TimeUnit.SECONDS)).as("nothing more on stdout").isEmpty();
      assertThat(err.get(10, TimeUnit.SECONDS))
          .startsWith("agentdouble: serving 1 tape from tapes")
          .doesNotContain("SLF4J", "Exception")
          .doesNotContain(secret);
    } finally {
      serve.destroyForcibly();
    }
  }

  /**
   * Started as docs/claude.md starts it, in the background of a shell (SIGINT ignored from the
   * start), it still stops on SIGINT as in a terminal (Ctrl-C): exit 130.
   */
  @Test
  void sigintStopsItWhenStartedInTheBackgroundOfAShell() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(tapes.resolve("hello.tape.ndjson"), "{\"tape\":1}\n{\"t\":1,\"exit\":0}\n");
    assertThat(launcher.interruptInTheBackground("AGENTDOUBLE_URL=", "serve", "--tapes", "tapes"))
        .isEqualTo(130);
  }

  /**
   * A test runner killed outright (SIGKILL) leaves no server behind: {@code serve} sees that the
   * process that started it has ended and stops, saying so. The parent here is a shell that runs
   * {@code serve} in the background and waits; serve's stderr goes to a file, which outlives it.
   */
  @Test
  void stopsWhenTheProcessThatStartedItIsKilled() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(tapes.resolve("hello.tape.ndjson"), "{\"tape\":1}\n{\"t\":1,\"exit\":0}\n");

    Launcher.Orphaned orphaned =
        launcher.killTheParentOf("AGENTDOUBLE_URL=", "serve", "--tapes", "tapes");

    assertThat(orphaned.err())
        .endsWith(
            "agentdouble: serve: the process that started it ("
                + orphaned.parent()
                + ") has ended; stopping\n");
  }

  /**
   * A parent killed as {@code serve} starts (here: as soon as its launcher has become the JVM, long
   * before the JVM could look at its parent) leaves no server behind either: the launcher saw the
   * parent before it died, and {@code serve} stops as soon as it finds it gone, saying so.
   */
  @Test
  void stopsWhenTheProcessThatStartedItIsKilledAsItStarts() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(tapes.resolve("hello.tape.ndjson"), "{\"tape\":1}\n{\"t\":1,\"exit\":0}\n");
    Path err = dir.resolve("serve.err");
    ProcessBuilder pb = agentdouble("serve", "--tapes", "tapes");
    List<String> command =
        new ArrayList<>(
            List.of("sh", "-c", "\"$0\" \"$@\" 2>'" + err + "' </dev/null & echo $!; wait"));
    command.addAll(pb.command());
    Process parent = pb.command(command).start();
    long serve = -1;
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8));
      CompletableFuture<String> pid =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return out.readLine();
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      serve = Long.parseLong(pid.get(60, TimeUnit.SECONDS).strip());
      ProcessHandle handle = ProcessHandle.of(serve).orElseThrow();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(1))
          .until(
              () ->
                  !handle.isAlive()
                      || handle
                          .info()
                          .arguments()
                          .map(a -> List.of(a).contains(Launch.RECORDER_MAIN))
                          .orElse(false));

      parent.destroyForcibly(); // SIGKILL

      assertThat(handle.onExit().get(60, TimeUnit.SECONDS).isAlive()).isFalse();
      assertThat(Files.readString(err))
          .endsWith(
              "agentdouble: serve: the process that started it ("
                  + parent.pid()
                  + ") has ended; stopping\n");
    } finally {
      parent.destroyForcibly();
      if (serve > 0) {
        ProcessHandle.of(serve).ifPresent(ProcessHandle::destroyForcibly);
      }
    }
  }

  /**
   * A user's own WireMock stubs in the working folder ({@code src/test/resources/mappings}, where
   * WireMock looks by default) never reach serve: only its tapes and its API's stubs answer.
   */
  @Test
  void wireMockStubsOfTheWorkingFolderAreNotLoaded() throws Exception {
    Path mappings = Files.createDirectories(dir.resolve("src/test/resources/mappings"));
    Files.writeString(
        mappings.resolve("everything.json"),
        "{\"request\":{\"method\":\"ANY\"},\"response\":{\"status\":200,\"body\":\"no tape\"}}");
    Process serve = agentdouble("serve").start();
    CompletableFuture<String> err = Runs.drain(serve.getErrorStream());
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(serve.getInputStream(), StandardCharsets.UTF_8));
      String[] printed = Launcher.twoLines(out);
      assertThat(printed[1]).as("stdout; stderr: %s", err.getNow("")).isNotNull();
      String url = printed[0].substring("AGENTDOUBLE_URL=".length());
      String secret = printed[1].substring("AGENTDOUBLE_SECRET=".length());

      HttpResponse<String> stubs =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(url.replace("/agentdouble/serve", "/__admin/mappings")))
                      .header(ControlSecret.HEADER, secret)
                      .timeout(Duration.ofSeconds(30))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());

      assertThat(stubs.statusCode()).isEqualTo(200);
      assertThat(new ObjectMapper().readTree(stubs.body()).get("mappings"))
          .as(stubs.body())
          .isEmpty();
    } finally {
      serve.destroyForcibly();
    }
  }

  @Test
  void badInputExitsWithOneLineAndNoStackTrace() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    Files.writeString(tapes.resolve("bad.tape.ndjson"), "{\"tape\":2}\n{\"t\":0,\"exit\":0}\n");

    Process noDir = agentdouble("serve", "--tapes=").start();
    Process badTape = agentdouble("serve", "--tapes", "tapes").start();

    assertThat(noDir.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(noDir.exitValue()).isEqualTo(2);
    assertThat(new String(noDir.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo(
            "agentdouble: --tapes needs a folder of *.tape.ndjson files\n"
                + "Run 'agentdouble serve --help' for usage.\n");
    assertThat(badTape.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(badTape.exitValue()).isEqualTo(1);
    assertThat(new String(badTape.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
        .isEqualTo(
            "agentdouble: tapes/bad.tape.ndjson:1: tape format version 2 is not supported; "
                + "this AgentDouble reads version 1\n");
    assertThat(badTape.getInputStream().readAllBytes()).isEmpty();
  }

  @Test
  void theCommandsHelpListsServe() throws Exception {
    Process help = agentdouble("--help").start();

    String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(help.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(help.exitValue()).isZero();
    assertThat(text).contains("serve [--tapes DIR] [--port N] [--timing T]");
  }
}
