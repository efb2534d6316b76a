package dev.agentdouble.fake;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.testing.TestProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
    TestProcess.Result r =
        TestProcess.command("python3", "-m", "unittest", "-v", "test_acp_client")
            .directory(dir)
            .noStdin()
            .withoutEnv("AGENTDOUBLE_")
            .env("CURSOR_AGENT", FakeProcess.launcher().toString())
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .patience(Duration.ofSeconds(240))
            .run();
    String report = r.err();
    assertThat(r.exit()).as(report).isZero();
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
