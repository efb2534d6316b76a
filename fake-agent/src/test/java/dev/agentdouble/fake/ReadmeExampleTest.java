package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import dev.agentdouble.tape.Tape;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The README's example, kept compiling and passing here. */
@Timeout(60)
class ReadmeExampleTest {
  @TempDir Path dir;

  @Test
  void scriptRunVerify() throws Exception {
    Path cursorAgent = FakeProcess.launcher();
    // README example: begin
    // 1. Script: a run that starts, then dies by SIGKILL in the middle of a line.
    Tape crash =
        Script.of("Refactor the checkout flow")
            .init() // system/init
            .user() // the prompt, echoed
            .tool(ToolCall.read("src/checkout.ts", "export function checkout() {}\n"))
            .stdoutRaw("{\"type\":\"assist") // a line cut short
            .stderr("fatal: connection reset\n")
            .kill("SIGKILL")
            .build();
    Path tape = dir.resolve("crash.tape.ndjson");
    crash.write(tape);

    // 2. Run: your code spawns the fake exactly as it would spawn cursor-agent.
    ProcessBuilder agent =
        new ProcessBuilder(
            cursorAgent.toString(),
            "-p",
            "--trust",
            "--output-format",
            "stream-json",
            "Refactor the checkout flow");
    agent.environment().put("AGENTDOUBLE_TAPE", tape.toString());
    agent.environment().put("AGENTDOUBLE_JOURNAL", dir.resolve("journal.ndjson").toString());
    agent.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process process = agent.start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int status = process.waitFor();

    // 3. Verify: what your consumer saw, and how the fake was invoked.
    assertThat(stdout).endsWith("{\"type\":\"assist"); // cut mid-line
    assertThat(status).isEqualTo(137); // 128 + SIGKILL
    assertThat(Files.readString(dir.resolve("journal.ndjson")))
        .contains("\"prompt\":\"Refactor the checkout flow\"", "\"signal\":\"SIGKILL\"");
    // README example: end
  }
}
