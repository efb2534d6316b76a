package dev.agentdouble.recorder.internal.tapes;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.json.Json;
import dev.agentdouble.recorder.command.CommandFailure;
import dev.agentdouble.recorder.internal.cli.UserFile;
import dev.agentdouble.tape.OutputFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A captured run laid out as a folder of a conformance corpus: {@code stdout.ndjson} (or {@code
 * stdout.txt}), {@code stderr.txt} when known, and {@code case.json}, of which {@code exit} (a code
 * from 0 to 255, or {@code null} when the capture's publisher did not say), {@code cliVersion},
 * {@code outputFormat} and {@code argv} (the command line as it was run, the program first) are
 * read; any other key is a note for people.
 *
 * @param exit the run's exit code; empty when {@code case.json} says {@code null}
 * @param commandLine the program and its arguments; empty when {@code case.json} has no {@code
 *     argv}
 */
record CaseFolder(
    byte[] stdout,
    byte[] stderr,
    Optional<Integer> exit,
    Optional<OutputFormat> outputFormat,
    Optional<String> cliVersion,
    List<String> commandLine) {

  CaseFolder {
    commandLine = List.copyOf(commandLine);
  }

  /** The case in the folder {@code name}, as the user wrote it. */
  static CaseFolder read(String name) {
    Path dir = Path.of(name);
    if (!Files.isDirectory(dir)) {
      throw new CommandFailure(
          name + ": " + (Files.exists(dir) ? "not a folder" : "no such folder") + FIX);
    }
    String caseJson = dir.resolve("case.json").toString();
    JsonNode info;
    try {
      info = Json.mapper().readTree(UserFile.read(caseJson));
    } catch (IOException e) {
      // bytes in memory: only a parse error
      throw new CommandFailure(
          caseJson
              + ": not valid JSON: "
              + (e instanceof JacksonException j ? j.getOriginalMessage() : e.getMessage()));
    }
    if (info == null || !info.isObject()) {
      throw new CommandFailure(caseJson + ": not a JSON object");
    }
    String stdout = dir.resolve("stdout.ndjson").toString();
    if (!Files.exists(Path.of(stdout)) && Files.exists(dir.resolve("stdout.txt"))) {
      stdout = dir.resolve("stdout.txt").toString();
    }
    String stderr = dir.resolve("stderr.txt").toString();
    return new CaseFolder(
        UserFile.read(stdout),
        Files.exists(Path.of(stderr)) ? UserFile.read(stderr) : new byte[0],
        exit(caseJson, info.get("exit")),
        text(caseJson, info, "outputFormat").map(f -> outputFormat(caseJson, f)),
        text(caseJson, info, "cliVersion"),
        commandLine(caseJson, info.get("argv")));
  }

  private static final String FIX =
      "; give the folder of a captured run (case.json, stdout.ndjson, stderr.txt)";

  private static Optional<Integer> exit(String caseJson, JsonNode exit) {
    if (exit != null && exit.isNull()) {
      return Optional.empty();
    }
    if (exit == null || !exit.canConvertToInt() || exit.asInt() < 0 || exit.asInt() > 255) {
      throw new CommandFailure(
          caseJson
              + ": \"exit\" must be the run's exit code, from 0 to 255, was "
              + (exit == null ? "missing" : exit.toString()));
    }
    return Optional.of(exit.asInt());
  }

  private static Optional<String> text(String caseJson, JsonNode info, String key) {
    JsonNode value = info.get(key);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    if (!value.isTextual()) {
      throw new CommandFailure(caseJson + ": \"" + key + "\" must be a string, was " + value);
    }
    return Optional.of(value.asText());
  }

  private static OutputFormat outputFormat(String caseJson, String name) {
    return OutputFormat.fromTapeName(name)
        .orElseThrow(
            () ->
                new CommandFailure(
                    caseJson
                        + ": \"outputFormat\" must be text, json, stream-json or acp, was '"
                        + name
                        + "'"));
  }

  private static List<String> commandLine(String caseJson, JsonNode argv) {
    if (argv == null || argv.isNull()) {
      return List.of();
    }
    List<String> words = new ArrayList<>();
    if (argv.isArray()) {
      for (JsonNode word : argv) {
        if (!word.isTextual()) {
          words = null;
          break;
        }
        words.add(word.asText());
      }
    }
    if (words == null || !argv.isArray() || words.isEmpty()) {
      throw new CommandFailure(
          caseJson
              + ": \"argv\" must be the command line as it was run, an array of strings, "
              + "the program first (\"cursor-agent\", \"-p\", ...), was "
              + argv);
    }
    return words;
  }
}
