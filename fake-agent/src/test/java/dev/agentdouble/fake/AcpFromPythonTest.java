package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ACP client written in Python (the standard library only) tests itself against the fake, as
 * docs/acp.md shows: the test file there is this one, byte for byte.
 */
class AcpFromPythonTest {
  @TempDir Path dir;

  private static Path source() {
    return FakeProcess.root().resolve("fake-agent/src/test/python/test_acp_client.py");
  }

  @Test
  void thePythonClientsTestsPass() throws Exception {
    Files.copy(source(), dir.resolve("test_acp_client.py"));
    ProcessBuilder pb =
        new ProcessBuilder("python3", "-m", "unittest", "-v", "test_acp_client")
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.environment().keySet().removeIf(k -> k.startsWith("AGENTDOUBLE_"));
    pb.environment().put("CURSOR_AGENT", FakeProcess.launcher().toString());
    pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
    Process p = pb.start();
    CompletableFuture<byte[]> out = FakeProcess.drain(p.getInputStream());
    CompletableFuture<byte[]> err = FakeProcess.drain(p.getErrorStream());
    if (!p.waitFor(240, TimeUnit.SECONDS)) {
      FakeProcess.kill(p);
      throw new AssertionError("python3 -m unittest did not end within 240 s");
    }
    String report = new String(err.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    out.get(10, TimeUnit.SECONDS);
    assertThat(p.exitValue()).as(report).isZero();
    assertThat(report).contains("Ran 3 tests").contains("OK");
  }

  @Test
  void docsShowThisTestFile() throws IOException {
    String docs =
        Files.readString(FakeProcess.root().resolve("docs/acp.md"), StandardCharsets.UTF_8);
    String test = Files.readString(source(), StandardCharsets.UTF_8);
    assertThat(docs).contains("```python\n" + test + "```\n");
    assertThat(List.of(docs.split("\n")))
        .contains("`fake-agent/src/test/python/test_acp_client.py`:");
  }
}
