package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.junit.internal.process.WorkFolder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A test JVM killed outright (SIGKILL) while it holds a {@link ModelApi}: its folder ({@code
 * agentdouble-model-*}, the CLI's home and working folder) cannot be deleted by it, and the next
 * start deletes it, as it does the extension's other folders; never the folder of a JVM still
 * alive.
 */
@Timeout(120)
class ModelApiKilledJvmTest {
  /**
   * Run in a JVM of its own: holds a model API, says where its folder is, and waits to be killed.
   */
  public static void main(String[] args) throws Exception {
    ModelApi model = ModelApi.serving("builtin:claude-answer");
    System.out.println("HOLDING " + model.workFolder());
    System.out.flush();
    new CountDownLatch(1).await(); // until killed
  }

  @Test
  void theFolderOfAKilledJvmIsDeletedOnTheNextStartAndALiveOnesIsKept() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process jvm =
        new ProcessBuilder(
                java,
                // the same temp folder as this JVM's, where the next start looks
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                ModelApiKilledJvmTest.class.getName())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    Path folder = null;
    try {
      String said = CompletableFuture.supplyAsync(() -> firstLine(jvm)).get(90, TimeUnit.SECONDS);
      assertThat(said).startsWith("HOLDING ");
      folder = Path.of(said.substring("HOLDING ".length())).getParent();
      assertThat(folder.getFileName().toString()).startsWith(ModelApi.FOLDER_PREFIX);

      // a start while that JVM is alive leaves its folder alone
      try (ModelApi meanwhile = ModelApi.serving("builtin:claude-answer")) {
        assertThat(meanwhile.workFolder()).isDirectory();
      }
      assertThat(folder).as("a live JVM's folder").isDirectory();

      Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(jvm.pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(folder).as("the killed JVM's folder, left behind").isDirectory();

      try (ModelApi next = ModelApi.serving("builtin:claude-answer")) {
        assertThat(folder).as("the killed JVM's folder, after the next start").doesNotExist();
        assertThat(next.workFolder()).isDirectory();
      }
    } finally {
      jvm.destroyForcibly();
      jvm.waitFor(30, TimeUnit.SECONDS);
      if (folder != null && Files.exists(folder)) {
        WorkFolder.delete(folder);
      }
    }
  }

  private static String firstLine(Process jvm) {
    try {
      return new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
