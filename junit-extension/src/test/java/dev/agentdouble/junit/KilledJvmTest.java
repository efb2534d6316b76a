package dev.agentdouble.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.agentdouble.script.Script;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * A test JVM killed outright (SIGKILL) in the middle of a test: the run of the fake it was reading,
 * started through a shell that outlives the JVM, ends anyway (the shim names the JVM as its owner);
 * the JVM could not clean its work folder, and the next start of the extension deletes it, all but
 * the folder it kept for a failed test.
 */
@Timeout(120)
class KilledJvmTest {
  /** Run by {@link #main} in a JVM of its own: a failed test, then one that blocks on a fake. */
  @ExtendWith(AgentDoubleExtension.class)
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  static class Fixture {
    @Test
    @Order(1)
    void fails(FakeAgent agent) {
      System.out.println("FAILED " + agent.directory());
      throw new AssertionError("on purpose");
    }

    @Test
    @Order(2)
    void blocks(FakeAgent agent) throws Exception {
      agent.enqueue(Script.of("say hi").init().hang().build());
      // a shell stays the run's parent ("; :" keeps it from exec-ing): when this JVM is killed,
      // only the owner the shim names ties the run to it
      Process sh =
          new ProcessBuilder(
                  "sh",
                  "-c",
                  "\"$0\" \"$@\"; :",
                  agent.executable().toString(),
                  "-p",
                  "--trust",
                  "--output-format",
                  "stream-json",
                  "say hi")
              .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
              .redirectError(ProcessBuilder.Redirect.DISCARD)
              .start();
      new BufferedReader(new InputStreamReader(sh.getInputStream(), StandardCharsets.UTF_8))
          .readLine();
      long fake = sh.children().findFirst().orElseThrow().pid();
      System.out.println("BLOCKED " + agent.directory() + " " + fake + " " + sh.pid());
      System.out.flush();
      new CountDownLatch(1).await(); // until killed
    }
  }

  public static void main(String[] args) {
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
        .configurationParameter("agentdouble.deadline", "off")
        .selectors(selectClass(Fixture.class))
        .execute();
  }

  @ExtendWith(AgentDoubleExtension.class)
  static class NextStart {
    @Test
    void usesAFake(FakeAgent agent) {
      assertThat(agent.directory()).isDirectory();
    }
  }

  @Test
  void theRunOfAKilledJvmEndsAndItsFolderIsCleanedOnTheNextStart() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process jvm =
        new ProcessBuilder(
                java,
                // this JVM's temp folder: the next start, here, cleans the work folders there
                "-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"),
                "-cp",
                System.getProperty("java.class.path"),
                KilledJvmTest.class.getName())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      Map<String, String> said =
          CompletableFuture.supplyAsync(() -> readUntilBlocked(jvm)).get(90, TimeUnit.SECONDS);
      Path failed = Path.of(said.get("FAILED"));
      List<String> blocked = List.of(said.get("BLOCKED").split(" "));
      Path blocking = Path.of(blocked.get(0));
      ProcessHandle fake = ProcessHandle.of(Long.parseLong(blocked.get(1))).orElseThrow();
      ProcessHandle sh = ProcessHandle.of(Long.parseLong(blocked.get(2))).orElseThrow();
      Path work = blocking.getParent();

      Process kill = new ProcessBuilder("kill", "-KILL", Long.toString(jvm.pid())).start();
      assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
      long killed = System.nanoTime();

      assertThat(fake.onExit().get(30, TimeUnit.SECONDS).isAlive()).as("the run").isFalse();
      System.out.println(
          "orphan exit (test JVM killed, run's parent alive): "
              + (System.nanoTime() - killed) / 1_000_000
              + " ms");
      assertThat(sh.onExit().get(30, TimeUnit.SECONDS).isAlive()).as("its shell").isFalse();
      // the killed JVM left its work folder; the next start (here, or of any test running in this
      // JVM meanwhile) cleans it
      EngineTestKit.engine("junit-jupiter")
          .selectors(selectClass(NextStart.class))
          .execute()
          .testEvents()
          .assertStatistics(stats -> stats.succeeded(1));

      assertThat(blocking).as("the blocked test's folder").doesNotExist();
      assertThat(work.resolve("fake-agent.jsa")).doesNotExist();
      assertThat(work.resolve("owner")).doesNotExist();
      assertThat(failed.resolve("bin/cursor-agent")).as("the failed test's folder, kept").exists();
      assertThat(Files.readString(failed.resolve("KEPT.txt")))
          .startsWith("kept because fails(FakeAgent) (");
    } finally {
      jvm.destroyForcibly();
    }
  }

  private static Map<String, String> readUntilBlocked(Process jvm) {
    Map<String, String> said = new HashMap<>();
    try {
      BufferedReader out =
          new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        int space = line.indexOf(' ');
        if (space > 0) {
          said.put(line.substring(0, space), line.substring(space + 1));
        }
        if (line.startsWith("BLOCKED ")) {
          return said;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new AssertionError("the JVM ended before its test blocked: " + said);
  }
}
