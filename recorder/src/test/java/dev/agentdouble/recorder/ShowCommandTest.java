package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShowCommandTest {
  static final String SID = "4f1c2a8e-9b7d-4e21-a3f0-6c5d8e9b1a27";
  static final String INIT =
      "{\"type\":\"system\",\"subtype\":\"init\",\"apiKeySource\":\"login\","
          + "\"cwd\":\"/home/dev/shop\",\"session_id\":\""
          + SID
          + "\",\"model\":\"Auto\","
          + "\"permissionMode\":\"default\"}";
  static final String USER =
      "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":"
          + "[{\"type\":\"text\",\"text\":\"What does cart.ts export?\"}]},\"session_id\":\""
          + SID
          + "\"}";
  static final String STARTED =
      "{\"type\":\"tool_call\",\"subtype\":\"started\",\"call_id\":\"c1\","
          + "\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"src/cart.ts\"}}},\"session_id\":\""
          + SID
          + "\"}";
  static final String SHELL =
      "{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c2\","
          + "\"tool_call\":{\"shellToolCall\":{\"result\":{\"rejected\":{\"command\":\"rm -rf /\"}}}},"
          + "\"session_id\":\""
          + SID
          + "\"}";
  static final String RESULT =
      "{\"type\":\"result\",\"subtype\":\"success\",\"duration_ms\":2250,"
          + "\"duration_api_ms\":2250,\"is_error\":false,\"result\":\"Item and total\",\"session_id\":\""
          + SID
          + "\"}";

  @TempDir Path dir;

  private Path tape(String name, String... lines) {
    return Cli.write(dir, name, String.join("\n", lines) + "\n");
  }

  @Test
  void showsEachFrameWithItsTimeStreamEventAndTool() {
    Path tape =
        tape(
            "run.tape.ndjson",
            "{\"tape\":1,\"cli\":\"cursor-agent\",\"cliVersion\":\"2026.10.01-e373342\","
                + "\"source\":\"recorded\"}",
            "{\"t\":180,\"out\":" + INIT + "}",
            "{\"t\":182,\"out\":" + USER + "}",
            "{\"t\":900,\"out\":" + STARTED + "}",
            "{\"t\":950,\"out\":" + SHELL + "}",
            "{\"t\":2250,\"out\":" + RESULT + "}",
            "{\"t\":2251,\"exit\":0}");

    Cli.Result r = Cli.run("show", tape.toString());

    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out().lines())
        .containsExactly(
            tape.toString(),
            "  recorded from cursor-agent 2026.10.01-e373342, output format stream-json, 6 frames",
            "      0.180s  out  system/init            model=Auto cwd=/home/dev/shop",
            "      0.182s  out  user                   What does cart.ts export?",
            "      0.900s  out  tool_call/started      readToolCall src/cart.ts",
            "      0.950s  out  tool_call/completed    shellToolCall rm -rf / (rejected)",
            "             ... 1.3s without output ...",
            "      2.250s  out  result/success         2250ms Item and total",
            "      2.251s  end  exit 0");
  }

  @Test
  void marksStderrFailingExitsAndKillsWithABang() {
    Path failed =
        tape(
            "failed.tape.ndjson",
            "{\"tape\":1}",
            "{\"t\":0,\"out\":" + INIT + "}",
            "{\"t\":10,\"err\":\"T: [internal] Failed to run step, exceeded max retries\\n\"}",
            "{\"t\":11,\"exit\":1}");
    Path killed =
        tape(
            "killed.tape.ndjson",
            "{\"tape\":1}",
            "{\"t\":0,\"outRaw\":\"{\\\"type\\\":\\\"tool_call\\\",\\\"subt\"}",
            "{\"t\":1,\"kill\":\"SIGKILL\"}");

    Cli.Result r = Cli.run("show", failed.toString(), killed.toString());

    assertThat(r.exit()).isZero();
    assertThat(r.out().lines())
        .contains(
            "      0.000s  out  system/init            model=Auto cwd=/home/dev/shop",
            " !    0.010s  err  T: [internal] Failed to run step, exceeded max retries\\n",
            " !    0.011s  end  exit 1",
            "      0.000s  out  (raw) {\"type\":\"tool_call\",\"subt",
            " !    0.001s  end  killed by SIGKILL (a shell sees 137)");
  }

  @Test
  void aHangIsMarkedAndSaysWhetherStdoutIsClosed() {
    Path tape =
        tape(
            "hang.tape.ndjson",
            "{\"tape\":1}",
            "{\"t\":0,\"out\":" + RESULT + "}",
            "{\"t\":0,\"hang\":true,\"closeStdout\":true}");

    Cli.Result r = Cli.run("show", tape.toString());

    assertThat(r.out()).contains(" !    0.000s  end  hangs until killed, stdout closed");
  }

  @Test
  void aSilenceOfASecondOrMoreGetsItsOwnLineAndAShorterOneDoesNot() {
    Path tape =
        tape(
            "gaps.tape.ndjson",
            "{\"tape\":1}",
            "{\"t\":1000,\"outRaw\":\"a\\n\"}",
            "{\"t\":1999,\"outRaw\":\"b\\n\"}",
            "{\"t\":4499,\"exit\":0}");

    Cli.Result r = Cli.run("show", tape.toString());

    assertThat(r.out().lines())
        .containsSubsequence(
            "             ... 1.0s without output ...",
            "      1.000s  out  (raw) a\\n",
            "      1.999s  out  (raw) b\\n",
            "             ... 2.5s without output ...",
            "      4.499s  end  exit 0");
    assertThat(r.out()).containsOnlyOnce("1.0s without output").doesNotContain("0.999s without");
  }

  @Test
  void longTextsAreShortenedToOneLine() {
    String longText = "x".repeat(100) + "\nsecond line";
    Path tape =
        tape(
            "long.tape.ndjson",
            "{\"tape\":1}",
            "{\"t\":0,\"err\":\"" + longText.replace("\n", "\\n") + "\"}",
            "{\"t\":0,\"exit\":1}");

    Cli.Result r = Cli.run("show", tape.toString());

    assertThat(r.out().lines()).contains(" !    0.000s  err  " + "x".repeat(67) + "...");
  }

  @Test
  void aBadTapeIsReportedAndTheOthersAreStillShown() {
    Path bad =
        tape(
            "bad.tape.ndjson",
            "{\"tape\":1}",
            "{\"t\":5,\"outRaw\":\"a\\n\"}",
            "{\"t\":4,\"exit\":0}");
    Path good = tape("good.tape.ndjson", "{\"tape\":1}", "{\"t\":0,\"exit\":0}");
    Path missing = dir.resolve("missing.tape.ndjson");

    Cli.Result r = Cli.run("show", bad.toString(), missing.toString(), good.toString());

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).startsWith(good.toString()).contains("end  exit 0");
    assertThat(r.err())
        .isEqualTo(
            "agentdouble: "
                + bad
                + ":3: \"t\" went back from 5 to 4; frame "
                + "times never decrease\nagentdouble: "
                + missing
                + ": no such file\n");
  }

  @Test
  void showsABuiltInTapeAndSaysWhenThereIsNoSuch() {
    Cli.Result r = Cli.run("show", "builtin:tool-shell", "builtin:no-such-tape");

    assertThat(r.exit()).as("%s", r).isEqualTo(1);
    assertThat(r.out()).startsWith("builtin:tool-shell\n").contains("shellToolCall");
    assertThat(r.err()).contains("no-such-tape");
  }

  /** Events as the fake replays them: no JSON library's limits, a key twice allowed. */
  static String[] hostileEvents() {
    String deep = "[".repeat(10_000) + "]".repeat(10_000);
    return new String[] {
      "{\"t\":0,\"out\":" + INIT + "}",
      "{\"t\":1,\"out\":" + USER.replace("What does cart.ts export?", "x".repeat(25_000_000)) + "}",
      "{\"t\":2,\"out\":{\"type\":\"tool_call\",\"subtype\":\"completed\",\"call_id\":\"c1\","
          + "\"tool_call\":{\"readToolCall\":{\"args\":{\"path\":\"a.txt\",\"deep\":"
          + deep
          + "},\"result\":{\"success\":{}}}},\"session_id\":\""
          + SID
          + "\"}}",
      "{\"t\":3,\"out\":{\"type\":\"assistant\",\"type\":\"assistant\",\"message\":{\"role\":"
          + "\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"one\",\"text\":\"two\"}]}}}",
      "{\"t\":4,\"out\":" + RESULT + "}",
      "{\"t\":5,\"exit\":0}"
    };
  }

  @Test
  void showsWhatTheFakeReplaysHugeDeepOrWithAKeyTwice() {
    String[] lines = new String[hostileEvents().length + 1];
    lines[0] = "{\"tape\":1}";
    System.arraycopy(hostileEvents(), 0, lines, 1, lines.length - 1);
    Path tape = tape("hostile.tape.ndjson", lines);

    Cli.Result r = Cli.run("show", tape.toString());

    assertThat(r.exit()).as("%s", r.err()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out().lines())
        .containsExactly(
            tape.toString(),
            "  tape, output format stream-json, 6 frames",
            "      0.000s  out  system/init            model=Auto cwd=/home/dev/shop",
            "      0.001s  out  user                   " + "x".repeat(67) + "...",
            "      0.002s  out  tool_call/completed    readToolCall a.txt",
            "      0.003s  out  assistant              one",
            "      0.004s  out  result/success         2250ms Item and total",
            "      0.005s  end  exit 0");
  }
}
