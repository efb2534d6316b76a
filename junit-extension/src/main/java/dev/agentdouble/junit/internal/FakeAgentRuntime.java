package dev.agentdouble.junit.internal;

import dev.agentdouble.contract.Launch;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * How to start the fake agent from this JVM: its {@code java}, the classpath of the fake agent and
 * what it needs, found on the test classpath (nothing to install), and a class-data sharing archive
 * made once per JVM so each invocation starts fast.
 */
public final class FakeAgentRuntime {
  /** The fake agent's main class. */
  public static final String MAIN = Launch.FAKE_MAIN;

  /** The recorder's main class (record mode). */
  public static final String RECORDER = Launch.RECORDER_MAIN;

  static final String[] CLASSES = {
    MAIN,
    RECORDER,
    "dev.agentdouble.tape.Tape",
    "com.fasterxml.jackson.core.JsonFactory",
    "com.fasterxml.jackson.databind.ObjectMapper",
    "com.fasterxml.jackson.annotation.JsonProperty"
  };

  private final Path java;
  private final String classpath;
  private final Path archive;

  private FakeAgentRuntime(Path java, String classpath, Path archive) {
    this.java = java;
    this.classpath = classpath;
    this.archive = archive;
  }

  /** Finds the classpath; makes the CDS archive in {@code workDir} (best effort). */
  public static FakeAgentRuntime create(Path workDir) {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Set<String> entries = new LinkedHashSet<>();
    ClassLoader loader = FakeAgentRuntime.class.getClassLoader();
    for (String name : CLASSES) {
      try {
        CodeSource source =
            Class.forName(name, false, loader).getProtectionDomain().getCodeSource();
        entries.add(Path.of(source.getLocation().toURI()).toString());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(
            "the fake agent needs "
                + name
                + " on the test classpath; "
                + "add the test dependency dev.agentdouble:agentdouble-junit, which brings it",
            e);
      } catch (URISyntaxException | NullPointerException e) {
        throw new IllegalStateException("cannot locate " + name + " on the test classpath", e);
      }
    }
    String classpath = String.join(File.pathSeparator, entries);
    Path archive = workDir.resolve("fake-agent.jsa");
    if (!makeArchive(java, classpath, archive)) {
      archive = null;
    }
    return new FakeAgentRuntime(java, classpath, archive);
  }

  private static boolean makeArchive(Path java, String classpath, Path archive) {
    Path tmp = archive.resolveSibling(archive.getFileName() + ".tmp");
    try {
      List<String> command =
          new ArrayList<>(List.of(java.toString(), "-XX:ArchiveClassesAtExit=" + tmp));
      command.addAll(Launch.ARCHIVE_JVM_OPTIONS);
      command.addAll(List.of("-cp", classpath, Launch.TRAINING_MAIN));
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      if (p.exitValue() != 0 || !Files.exists(tmp)) {
        return false;
      }
      Files.move(tmp, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public Path java() {
    return java;
  }

  public String classpath() {
    return classpath;
  }

  /** The CDS archive, when one could be made. */
  public Optional<Path> archive() {
    return Optional.ofNullable(archive);
  }
}
