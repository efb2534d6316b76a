package dev.agentdouble.junit.internal.extension;

import dev.agentdouble.contract.Launch;
import dev.agentdouble.junit.AgentTape;
import dev.agentdouble.junit.internal.handle.Recordings;
import dev.agentdouble.junit.internal.handle.TapeFiles;
import dev.agentdouble.junit.internal.process.RealClis;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.TapeReader;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What an {@link AgentTape} asks of a test's fake: replay its recorded tapes, or record the real
 * CLI; decided from the annotation, the configuration parameters ({@code agentdouble.mode}, {@code
 * agentdouble.tapes}, {@code agentdouble.cli}, {@code agentdouble.claude}, {@code agentdouble.ci})
 * and {@code CI}.
 */
public final class AgentTapes {
  private AgentTapes() {}

  /** What the fake does under an {@link AgentTape}. */
  public sealed interface Plan permits Replay, Record {}

  /** Replays {@code tapes}, a test that ran the agent several times in order, the last repeated. */
  public record Replay(List<Tape> tapes) implements Plan {}

  /** Records the runs of the real CLIs, kept as {@code file} when the test passes. */
  public record Record(Path file, RealClis real) implements Plan {}

  /**
   * The plan of the test of {@code context} under {@code tape}; a missing tape or a refused
   * recording fails here.
   */
  public static Plan plan(ExtensionContext context, AgentTape tape) {
    boolean ci =
        "true"
            .equalsIgnoreCase(
                context.getConfigurationParameter("agentdouble.ci").orElse(System.getenv("CI")));
    // configuration parameters: set per run, or as system properties (-Dagentdouble.mode=...)
    AgentTape.Mode mode =
        tape.mode() != AgentTape.Mode.CONFIGURED ? tape.mode() : configuredMode(context, tape, ci);
    Path root =
        Path.of(
            context
                .getConfigurationParameter("agentdouble.tapes")
                .orElse("src/test/resources/agentdouble"));
    Path file =
        root.resolve(context.getRequiredTestClass().getSimpleName())
            .resolve(tape.value() + ".tape.ndjson");
    return switch (mode) {
      case REPLAY -> {
        if (!Files.isRegularFile(file)) {
          throw new ExtensionConfigurationException(
              "@AgentTape(\""
                  + tape.value()
                  + "\"): no tape at "
                  + file.toAbsolutePath()
                  + "; record it with -Dagentdouble.mode=record (outside CI)");
        }
        yield replay(file);
      }
      case AUTO -> Files.isRegularFile(file) ? replay(file) : record(context, ci, tape, file);
      case RECORD -> record(context, ci, tape, file);
      case CONFIGURED -> throw new IllegalStateException("the configured mode is resolved above");
    };
  }

  /** The mode {@code agentdouble.mode} names, else {@code auto} ({@code replay} in CI). */
  private static AgentTape.Mode configuredMode(
      ExtensionContext context, AgentTape tape, boolean ci) {
    String mode =
        context.getConfigurationParameter("agentdouble.mode").orElse(ci ? "replay" : "auto");
    return switch (mode) {
      case "replay" -> AgentTape.Mode.REPLAY;
      case "record" -> AgentTape.Mode.RECORD;
      case "auto" -> AgentTape.Mode.AUTO;
      default ->
          throw new ExtensionConfigurationException(
              "@AgentTape(\""
                  + tape.value()
                  + "\"): agentdouble.mode must be replay, record or auto, was \""
                  + mode
                  + "\"");
    };
  }

  private static Replay replay(Path file) {
    try {
      // a test that ran the agent several times was recorded as NAME, NAME.2, ...: in order
      List<Tape> tapes = new ArrayList<>();
      for (int i = 1; ; i++) {
        Path next = Recordings.files(file, i).get(i - 1);
        if (!Files.isRegularFile(next)) {
          break;
        }
        tapes.add(TapeReader.read(next));
      }
      return new Replay(tapes);
    } catch (IOException e) {
      throw TapeFiles.cannotRead(file, e);
    }
  }

  private static Record record(ExtensionContext context, boolean ci, AgentTape tape, Path file) {
    if (ci) {
      throw new ExtensionConfigurationException(
          "@AgentTape(\""
              + tape.value()
              + "\"): recording "
              + "is refused when CI=true (no real agent calls in CI); record "
              + file
              + " locally and commit it");
    }
    RealClis real =
        new RealClis(
            context
                .getConfigurationParameter("agentdouble.cli")
                .map(Path::of)
                .or(() -> onPath(List.of("cursor-agent", "agent"))),
            context
                .getConfigurationParameter("agentdouble.claude")
                .map(Path::of)
                .or(() -> onPath(List.of(Launch.CLAUDE_SHIM_NAME))));
    if (real.none()) {
      throw new ExtensionConfigurationException(
          "@AgentTape(\""
              + tape.value()
              + "\"): recording needs the real cursor-agent: none on PATH; name it with "
              + "-Dagentdouble.cli=PATH (or the real claude: -Dagentdouble.claude=PATH)");
    }
    return new Record(file, real);
  }

  /** The first of {@code names} on PATH, not a fake's shim. */
  private static Optional<Path> onPath(List<String> names) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String name : names) {
      for (String dir : path.split(File.pathSeparator)) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
        if (Files.isExecutable(candidate) && !candidate.toString().contains("agentdouble-")) {
          return Optional.of(candidate.toAbsolutePath());
        }
      }
    }
    return Optional.empty();
  }
}
