package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recording shim end to end: {@code agentdouble shim --record-into DIR --real CLI --bin B} in
 * front of a stand-in for the real CLI (the fake agent on a tape). Software that calls {@code
 * B/cursor-agent} sees exactly what the CLI itself would have shown it, and every call leaves one
 * tape in DIR.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class RecordShimTest {
  @TempDir Path dir;

  private static final String CLI_TAPE =
      """
      {"tape":1,"outputFormat":"stream-json","source":"scripted"}
      {"t":0,"out":{"type":"system","subtype":"init","model":"GPT-5.5 1M"}}
      {"t":0,"err":"warning: slow network\\n"}
      {"t":1,"out":{"type":"result","subtype":"error","is_error":true,"result":"quota exceeded"}}
      {"t":2,"exit":3}
      """;

  @Test
  void callersSeeTheRealCliAndEveryCallLeavesOneTape() throws IOException {
    Path bin = dir.resolve("bin");
    Path tapes = dir.resolve("tapes");
    Path real = Cli.root().resolve("fake-agent/bin/cursor-agent");
    Map<String, String> env = new HashMap<>(Child.noBuild(dir));
    env.put("AGENTDOUBLE_TAPE", Cli.write(dir, "cli.tape.ndjson", CLI_TAPE).toString());
    env.put("AGENTDOUBLE_TIMING", "fast");

    Cli.Result shim =
        Cli.runInstalled(
            "shim",
            "--record-into",
            tapes.toString(),
            "--real",
            real.toString(),
            "--bin",
            bin.toString());
    assertThat(shim.exit()).as("%s", shim).isZero();

    List<String> first = List.of("-p", "--output-format", "stream-json", "Fix the flaky test");
    List<String> second =
        List.of(
            "-p",
            "--output-format",
            "stream-json",
            "--model",
            "gpt-5.5-medium",
            "Explain this repo");
    Child direct = Child.start(command(real, first), dir, env);
    Child viaShim = Child.start(command(bin.resolve("cursor-agent"), first), dir, env);
    Child viaAgent = Child.start(command(bin.resolve("agent"), second), dir, env);

    int status = direct.waitFor();
    assertThat(status).as("%s", direct.err()).isEqualTo(3);
    for (Child c : List.of(viaShim, viaAgent)) {
      assertThat(c.waitFor()).as("%s: %s", c, c.err()).isEqualTo(status);
      assertThat(c.stdout()).as("%s", c).isEqualTo(direct.stdout());
      assertThat(c.stderr()).as("%s", c).isEqualTo(direct.stderr());
    }

    List<Path> recorded;
    try (Stream<Path> files = Files.list(tapes)) {
      recorded = files.sorted().toList();
    }
    assertThat(recorded).hasSize(2);
    List<List<String>> argvs = new ArrayList<>();
    for (Path file : recorded) {
      assertThat(file.getFileName().toString())
          .matches(
              "\\d{8}-\\d{6}-\\d{3}-(fix-the-flaky-test|explain-this-repo)-[0-9a-f]+"
                  + "\\.tape\\.ndjson");
      Tape tape = Frames.read(file);
      argvs.add(tape.header().argv());
      assertThat(tape.header().cli()).contains("cursor-agent");
      assertThat(Frames.stdout(tape)).isEqualTo(direct.stdout());
      assertThat(Frames.stderr(tape)).isEqualTo(direct.stderr());
      assertThat(Frames.kind(tape.ending())).isEqualTo("exit 3");
    }
    assertThat(argvs).containsExactlyInAnyOrder(first, second);
  }

  private static List<String> command(Path cli, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(cli.toString());
    command.addAll(args);
    return command;
  }
}
