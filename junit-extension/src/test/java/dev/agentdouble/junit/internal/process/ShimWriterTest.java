package dev.agentdouble.junit.internal.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class ShimWriterTest {
  @TempDir Path dir;

  private final ShimWriter writer = new ShimWriter();

  @AfterEach
  void end() {
    writer.close();
  }

  /** Quotes, percent signs, backslashes, newlines and UTF-8 come out as given, owner-only. */
  @Test
  void writesEachFileByteForByteForItsOwnerOnly() throws Exception {
    String script =
        "#!/bin/sh\necho '%s %d \\n it''s' \"$1\" \\\\ `x` $(y)\n# ünïcödé ✓\n\n\tend\n";
    List<Path> files = List.of(dir.resolve("a"), dir.resolve("b c"), dir.resolve("it's"));

    writer.write(files, script);

    for (Path file : files) {
      assertThat(Files.readString(file)).isEqualTo(script);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
    }
  }

  /** A test pays writes to a pipe, not a process: every write goes to the same {@code sh}. */
  @Test
  void oneShWritesEveryFile() throws Exception {
    writer.write(List.of(dir.resolve("first")), "one\n");
    OptionalLong sh = writer.pid();

    for (int i = 0; i < 20; i++) {
      writer.write(List.of(dir.resolve("f" + i)), "more " + i + "\n");
    }

    assertThat(sh).isPresent();
    assertThat(writer.pid()).isEqualTo(sh);
    assertThat(Files.readString(dir.resolve("f19"))).isEqualTo("more 19\n");
  }

  /** An {@code sh} killed under the writer is replaced by the next write, which succeeds. */
  @Test
  void aKilledShIsReplaced() throws Exception {
    writer.write(List.of(dir.resolve("before")), "x\n");
    ProcessHandle sh = ProcessHandle.of(writer.pid().orElseThrow()).orElseThrow();
    sh.destroyForcibly();
    sh.onExit().get(10, TimeUnit.SECONDS);

    writer.write(List.of(dir.resolve("after")), "y\n");

    assertThat(Files.readString(dir.resolve("after"))).isEqualTo("y\n");
    assertThat(writer.pid()).isPresent().isNotEqualTo(OptionalLong.of(sh.pid()));
  }

  /** A file that cannot be written fails with the sh's reason; the writer goes on. */
  @Test
  void aFileThatCannotBeWrittenFailsWithTheReasonAndTheWriterGoesOn() throws Exception {
    Path missing = dir.resolve("no-such-folder/cursor-agent");

    assertThatThrownBy(() -> writer.write(List.of(missing), "x\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cannot write the shim scripts")
        .hasMessageContaining("no-such-folder/cursor-agent");
    writer.write(List.of(dir.resolve("ok")), "fine\n");
    assertThat(Files.readString(dir.resolve("ok"))).isEqualTo("fine\n");
  }

  /** Closed, its {@code sh} has ended, and a later write says why it cannot be done. */
  @Test
  void closingEndsTheSh() throws Exception {
    writer.write(List.of(dir.resolve("a")), "x\n");
    ProcessHandle sh = ProcessHandle.of(writer.pid().orElseThrow()).orElseThrow();

    writer.close();

    sh.onExit().get(10, TimeUnit.SECONDS);
    assertThat(sh.isAlive()).isFalse();
    assertThatThrownBy(() -> writer.write(List.of(dir.resolve("b")), "y\n"))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("closed");
  }
}
