package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static dev.agentdouble.fake.FakeProcess.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * What an adversarial user can hand the fake through its tapes and their files: lines bigger than
 * its memory, tapes of hundreds of MiB, a tape replaced while it is replayed, FIFOs where tapes
 * should be, times at the top of their range. Each ends as documented (exit 70 and {@code
 * agentdouble: FILE:LINE: ...}, or the replay), never with a stack trace or a hang.
 */
@Timeout(120)
class HostileTapesTest {
  private static final String SMALL_HEAP = "-Xmx48m";
  private static final String BIG = "big replays";
  private static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\","
          + "\"is_error\":false,\"result\":\"done\",\"session_id\":\"4f1c2a8e-9b7d-4e21\"}";

  @TempDir Path dir;

  private static String event(String type, String text) {
    return "{\"type\":\""
        + type
        + "\",\"message\":{\"role\":\"assistant\",\"content\":[{\"type\":"
        + "\"text\",\"text\":\""
        + text
        + "\"}]},\"session_id\":\"4f1c2a8e-9b7d-4e21\"}";
  }

  private static void assertNoStackTrace(String stderr) {
    assertThat(stderr).doesNotContain("Exception", "OutOfMemoryError", "\tat ");
  }

  private static Path mkfifo(Path path) throws IOException, InterruptedException {
    Process p = new ProcessBuilder("mkfifo", path.toString()).inheritIO().start();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("mkfifo").isZero();
    return path;
  }

  @Test
  @ResourceLock(BIG) // one at a time: each moves hundreds of MiB
  void aLineBiggerThanTheHeapIsExit70NamingItsLineNotAnOutOfMemoryError() throws IOException {
    Path tape = dir.resolve("huge.tape.ndjson");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tape))) {
      out.write(
          "{\"tape\":1,\"outputFormat\":\"stream-json\"}\n{\"t\":0,\"out\":"
              .getBytes(StandardCharsets.UTF_8));
      out.write(event("assistant", "x".repeat(64 << 20)).getBytes(StandardCharsets.UTF_8));
      out.write("}\n{\"t\":1,\"exit\":0}\n".getBytes(StandardCharsets.UTF_8));
    }

    for (String format : List.of("stream-json", "text", "json")) {
      FakeProcess.Result r =
          FakeProcess.run(
              env(
                  "AGENTDOUBLE_TAPE",
                  tape.toString(),
                  "AGENTDOUBLE_TIMING",
                  "fast",
                  "JAVA_TOOL_OPTIONS",
                  SMALL_HEAP),
              "-p",
              "--output-format",
              format,
              "read it");

      assertThat(r.exit()).as(format + ": " + r.err()).isEqualTo(70);
      assertThat(r.out()).isEmpty();
      // the JVM says "Picked up JAVA_TOOL_OPTIONS: ..." first
      assertThat(r.err())
          .contains(
              "\nagentdouble: " + tape + ":2: the line is too long for this " + "JVM's memory: ")
          .contains("give the JVM more memory, e.g. JAVA_TOOL_OPTIONS=-Xmx2g");
      assertNoStackTrace(r.err());
    }
  }

  @Test
  @ResourceLock(BIG) // one at a time: each moves hundreds of MiB
  void aTapeOfHundredsOfMiBIsRenderedInAHeapOfTensOfMiB() throws Exception {
    int lines = 200;
    String text = "y".repeat(1 << 20);
    Path tape = dir.resolve("long.tape.ndjson");
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(tape), 1 << 20)) {
      out.write("{\"tape\":1,\"outputFormat\":\"stream-json\"}\n".getBytes(StandardCharsets.UTF_8));
      for (int i = 0; i < lines; i++) {
        out.write(
            ("{\"t\":" + i + ",\"out\":" + event("assistant", text) + "}\n")
                .getBytes(StandardCharsets.UTF_8));
      }
      out.write(
          ("{\"t\":" + lines + ",\"out\":" + RESULT + "}\n{\"t\":" + lines + ",\"exit\":0}\n")
              .getBytes(StandardCharsets.UTF_8));
    }
    assertThat(Files.size(tape)).isGreaterThan(200L << 20);

    // rendered as text, every line of it is read, parsed and written (json keeps only the
    // result; its memory for a big line is the 64 MiB test's)
    Path stdout = dir.resolve("stdout.txt");
    Map<String, String> env =
        env(
            "AGENTDOUBLE_TAPE",
            tape.toString(),
            "AGENTDOUBLE_TIMING",
            "fast",
            "AGENTDOUBLE_TEXT_STYLE",
            "actions",
            "JAVA_TOOL_OPTIONS",
            SMALL_HEAP);
    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(), env, List.of("-p", "--output-format", "text", "read it"))
            .redirectOutput(stdout.toFile())
            .start();
    try {
      p.getOutputStream().close();
      CompletableFuture<byte[]> err = FakeProcess.drain(p.getErrorStream());
      assertThat(p.waitFor(100, TimeUnit.SECONDS)).isTrue();
      String stderr = new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);

      assertThat(p.exitValue()).as(stderr).isZero();
      assertNoStackTrace(stderr);
      assertThat(Files.size(stdout)).isEqualTo((long) lines * text.length() + 1);
    } finally {
      FakeProcess.kill(p);
    }
  }

  @Test
  void aTapeRenamedOverWhileTheRunGoesOnDoesNotChangeWhatItReplays() throws Exception {
    Path tape =
        write(
            dir,
            "run.tape.ndjson",
            String.join(
                "\n",
                "{\"tape\":1,\"outputFormat\":\"stream-json\"}",
                "{\"t\":0,\"out\":{\"type\":\"first\"}}",
                "{\"t\":0,\"out\":{\"type\":\"first\",\"n\":2}}",
                "{\"t\":0,\"exit\":0}",
                ""));
    Path next =
        write(
            dir,
            "next.tape.ndjson",
            String.join(
                "\n",
                "{\"tape\":1,\"outputFormat\":\"stream-json\"}",
                "{\"t\":0,\"out\":{\"type\":\"second\"}}",
                "{\"t\":0,\"exit\":3}",
                ""));
    // the journal line is written after the tape is checked and before it is replayed: through a
    // FIFO, with a line longer than the pipe holds, it holds the run right between the two
    Path journal = mkfifo(dir.resolve("journal"));
    byte[] prompt = "p".repeat(1 << 20).getBytes(StandardCharsets.UTF_8);
    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env(
                    "AGENTDOUBLE_TAPE",
                    tape.toString(),
                    "AGENTDOUBLE_TIMING",
                    "fast",
                    "AGENTDOUBLE_JOURNAL",
                    journal.toString()),
                List.of("-p", "--output-format", "stream-json"))
            .start();
    try {
      CompletableFuture<byte[]> out = FakeProcess.drain(p.getInputStream());
      CompletableFuture<byte[]> err = FakeProcess.drain(p.getErrorStream());
      try (OutputStream stdin = p.getOutputStream()) {
        stdin.write(prompt); // the prompt, read before the tape is chosen
      }
      try (InputStream reader = Files.newInputStream(journal)) {
        assertThat(reader.read()).isEqualTo('{'); // the fake is writing the journal line

        Files.move(next, tape, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        reader.transferTo(OutputStream.nullOutputStream());
      }
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(new String(out.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8))
          .isEqualTo("{\"type\":\"first\"}\n{\"type\":\"first\",\"n\":2}\n");
      assertThat(p.exitValue()).as(new String(err.get(), StandardCharsets.UTF_8)).isZero();
      assertThat(Files.readString(tape)).contains("second"); // replaced indeed
    } finally {
      FakeProcess.kill(p);
    }
  }

  @Test
  void aTapeRenamedOverWhileTheRunWaitsMidReplayDoesNotChangeTheRestOfIt() throws Exception {
    Path gates = Files.createDirectory(dir.resolve("gates"));
    Path tape =
        write(
            dir,
            "run.tape.ndjson",
            String.join(
                "\n",
                "{\"tape\":1}",
                "{\"t\":0,\"outRaw\":\"first 1\\n\"}",
                "{\"t\":0,\"gate\":\"pause\"}",
                "{\"t\":0,\"outRaw\":\"first 2\\n\"}",
                "{\"t\":0,\"exit\":0}",
                ""));
    Path next =
        write(
            dir,
            "next.tape.ndjson",
            String.join(
                "\n",
                "{\"tape\":1}",
                "{\"t\":0,\"outRaw\":\"second 1\\n\"}",
                "{\"t\":0,\"gate\":\"pause\"}",
                "{\"t\":0,\"outRaw\":\"second 2\\n\"}",
                "{\"t\":0,\"exit\":3}",
                ""));
    Process p =
        FakeProcess.builder(
                FakeProcess.launcher(),
                env("AGENTDOUBLE_TAPE", tape.toString(), "AGENTDOUBLE_GATES", gates.toString()),
                List.of("-p", "hi"))
            .start();
    try {
      p.getOutputStream().close();
      FakeProcess.Drain out = new FakeProcess.Drain(p.getInputStream());
      out.awaitSize("first 1\n".length()); // the run waits at the gate

      Files.move(next, tape, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Files.createFile(gates.resolve("pause.release"));

      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(new String(out.awaitEnd(), StandardCharsets.UTF_8))
          .isEqualTo("first 1\nfirst 2\n");
      assertThat(p.exitValue()).isZero();
    } finally {
      FakeProcess.kill(p);
    }
  }

  /** Reads an HTTP request's head and its body, by its Content-Length. */
  private static void readRequest(InputStream in) throws IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        return;
      }
      head.append((char) b);
    }
    String lower = head.toString().toLowerCase(Locale.ROOT);
    int at = lower.indexOf("content-length:");
    in.readNBytes(Integer.parseInt(lower.substring(at + 15, lower.indexOf('\r', at)).strip()));
  }

  @Test
  void aControlServersHugeErrorPageIsCutAt64KiBOnStderrAndInTheJournal() throws Exception {
    int page = 50 << 20;
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread answer =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  readRequest(s.getInputStream());
                  OutputStream out = s.getOutputStream();
                  out.write(
                      ("HTTP/1.1 404 Not Found\r\nContent-Length: " + page + "\r\n\r\n")
                          .getBytes(StandardCharsets.ISO_8859_1));
                  byte[] block = "x".repeat(1 << 20).getBytes(StandardCharsets.US_ASCII);
                  for (int sent = 0; sent < page; sent += block.length) {
                    out.write(block);
                  }
                  out.flush();
                } catch (IOException e) {
                  // the fake went away
                }
              });
      answer.setDaemon(true);
      answer.start();
      String url = "http://127.0.0.1:" + server.getLocalPort() + "/run";
      Path journal = dir.resolve("journal.ndjson");

      FakeProcess.Result r =
          FakeProcess.run(
              env("AGENTDOUBLE_URL", url, "AGENTDOUBLE_JOURNAL", journal.toString()), "-p", "hi");

      String cut =
          "x".repeat(64 * 1024)
              + "\n[the answer is cut here: its first 65536 bytes are shown, of 52428800]";
      assertThat(r.exit()).isEqualTo(70);
      assertThat(r.out()).isEmpty();
      assertThat(r.err())
          .isEqualTo(
              "agentdouble: the control server ("
                  + url
                  + ") has no tape for this invocation (HTTP 404):\n"
                  + cut
                  + "\n");
      assertThat(Files.size(journal)).isLessThan(80 * 1024);
      assertThat(Files.readString(journal)).contains("[the answer is cut here");
    }
  }

  @Test
  void aControlServerThatAnswersGarbageIsExit70InTheFakesOwnWords() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread answer =
          new Thread(
              () -> {
                try (Socket s = server.accept()) {
                  s.getOutputStream()
                      .write(
                          "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"
                              .getBytes(StandardCharsets.ISO_8859_1));
                  s.getOutputStream().flush();
                  s.getInputStream().transferTo(OutputStream.nullOutputStream()); // held open
                } catch (IOException e) {
                  // the fake went away
                }
              });
      answer.setDaemon(true);
      answer.start();
      String url = "http://127.0.0.1:" + server.getLocalPort() + "/run";

      FakeProcess.Result r = FakeProcess.run(env("AGENTDOUBLE_URL", url), "-p", "hi");

      assertThat(r.exit()).isEqualTo(70);
      assertThat(r.out()).isEmpty();
      assertThat(r.err())
          .isEqualTo(
              "agentdouble: the control server at "
                  + url
                  + " gave an "
                  + "answer the fake cannot use: malformed chunk size: \"zz\"; is AGENTDOUBLE_URL the "
                  + "address of the test's control server (or of `agentdouble serve`)?\n");
    }
  }

  @Test
  void aFifoInATapesFolderIsRefusedWithoutWaitingForAWriter() throws Exception {
    Path tapes = Files.createDirectory(dir.resolve("tapes"));
    mkfifo(tapes.resolve("05-pipe.tape.ndjson"));
    write(
        tapes,
        "10-answer.tape.ndjson",
        "{\"tape\":1}\n{\"t\":0,\"outRaw\":\"hi\\n\"}\n" + "{\"t\":0,\"exit\":0}\n");

    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPES", tapes.toString(), "AGENTDOUBLE_TIMING", "fast"), "-p", "hi");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: AGENTDOUBLE_TAPES="
                + tapes
                + ": "
                + "05-pipe.tape.ndjson is not a regular file (a folder, a FIFO or a device); a tapes folder"
                + " holds tape files: move it away, or rename it to end in something else than"
                + " .tape.ndjson\n");
  }

  @Test
  void aFifoAsTheTapeIsRefusedWithoutWaitingForAWriter() throws Exception {
    Path fifo = mkfifo(dir.resolve("pipe.tape.ndjson"));

    FakeProcess.Result r =
        FakeProcess.run(
            env("AGENTDOUBLE_TAPE", fifo.toString(), "AGENTDOUBLE_TIMING", "fast"), "-p", "hi");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: AGENTDOUBLE_TAPE="
                + fifo
                + ": not a regular "
                + "file (a folder, a FIFO or a device); give a tape file\n");
  }

  @Test
  void aKeyTwiceInVarsIsExit70NamingLine1() {
    Path tape =
        write(
            dir,
            "twice.tape.ndjson",
            "{\"tape\":1,\"vars\":{\"cwd\":\"/a\","
                + "\"cwd\":\"/b\"}}\n{\"t\":0,\"outRaw\":\"hi\\n\"}\n{\"t\":0,\"exit\":0}\n");

    FakeProcess.Result r = FakeProcess.run(env("AGENTDOUBLE_TAPE", tape.toString()), "-p", "hi");

    assertThat(r.exit()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: " + tape + ":1: duplicate key \"cwd\" in \"vars\"; " + "keep one\n");
  }

  @Test
  void aFrameDueAtTheTopOfTheRangeIsNeverWrittenEarly() throws Exception {
    String far = "999999999999999999"; // the largest "t" a tape takes
    Path tape =
        write(
            dir,
            "far.tape.ndjson",
            String.join(
                "\n",
                "{\"tape\":1}",
                "{\"t\":0,\"outRaw\":\"now\\n\"}",
                "{\"t\":" + far + ",\"outRaw\":\"never\\n\"}",
                "{\"t\":" + far + ",\"exit\":0}",
                ""));
    Path scaled =
        write(
            dir,
            "scaled.tape.ndjson",
            String.join(
                "\n",
                "{\"tape\":1}",
                "{\"t\":0,\"outRaw\":\"now\\n\"}",
                "{\"t\":1,\"outRaw\":\"never\\n\"}",
                "{\"t\":1,\"exit\":0}",
                ""));

    for (Map<String, String> env :
        List.of(
            env("AGENTDOUBLE_TAPE", tape.toString()),
            env("AGENTDOUBLE_TAPE", scaled.toString(), "AGENTDOUBLE_TIMING", "scale:1e308"))) {
      Process p = FakeProcess.builder(FakeProcess.launcher(), env, List.of("-p", "hi")).start();
      try {
        p.getOutputStream().close();
        FakeProcess.Drain out = new FakeProcess.Drain(p.getInputStream());
        out.awaitSize(4);

        p.destroy(); // SIGTERM: the fake dies by it, as the CLI
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();

        assertThat(new String(out.awaitEnd(), StandardCharsets.UTF_8)).isEqualTo("now\n");
        assertThat(p.exitValue()).as("died by SIGTERM, still waiting").isEqualTo(143);
      } finally {
        FakeProcess.kill(p);
      }
    }
  }
}
