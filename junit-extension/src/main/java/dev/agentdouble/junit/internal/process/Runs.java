package dev.agentdouble.junit.internal.process;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.contract.GateFiles;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.json.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The runs of one fake agent, as processes: the shims append each run's pid to a file; these are
 * ended when the test ends (or times out), and described from the journal and the gates.
 */
public final class Runs {
  private final Path dir;
  private final Path gates;

  /** The runs of the fake whose folder is {@code dir} (its {@code pids} and journal there). */
  public Runs(Path dir, Path gates) {
    this.dir = dir;
    this.gates = gates;
  }

  /** Ends every run still alive (SIGKILL, its children first); returns a note for each. */
  public List<String> endAll() {
    List<String> notes = new ArrayList<>();
    for (long pid : pids()) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isPresent() && process.get().isAlive() && isFake(process.get())) {
        kill(process.get());
        notes.add(
            "fake agent process " + pid + " was still running at the end of the test: killed");
      }
    }
    return notes;
  }

  private static void kill(ProcessHandle process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.onExit().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // said as ended either way: SIGKILL cannot be refused
    }
  }

  /** How many runs have started so far (each shim start counts), first run 0. */
  public int started() {
    return pids().size();
  }

  /**
   * Ends the runs from the {@code from}-th on that are still alive (SIGKILL), so that a consumer
   * blocked reading them sees their end; returns, for each, what it was: its process, the tape it
   * was replaying, for which prompt, how that tape ends, and the last step gate it reached.
   */
  public List<String> end(int from) {
    List<Long> all = pids();
    List<String> ended = new ArrayList<>();
    for (long pid : all.subList(Math.min(from, all.size()), all.size())) {
      Optional<ProcessHandle> process = ProcessHandle.of(pid);
      if (process.isEmpty() || !process.get().isAlive() || !isFake(process.get())) {
        continue;
      }
      String what = describeRun(pid);
      kill(process.get());
      ended.add(what);
    }
    return ended;
  }

  /** One run, from the journal line it wrote before replaying and the gates it reached. */
  private String describeRun(long pid) {
    StringBuilder what = new StringBuilder("process ").append(pid);
    Optional<JsonNode> entry = journalEntry(pid);
    if (entry.isEmpty() || !entry.get().hasNonNull(InvocationRecord.TAPE)) {
      what.append(": before it had a tape (starting, or asking for one)");
    } else {
      JsonNode e = entry.get();
      String tape =
          e.get(InvocationRecord.TAPE)
              .asText()
              .replaceFirst("^" + Pattern.quote(InvocationRecord.CONTROL_TAPE + " "), "");
      what.append(": tape \"")
          .append(tape)
          .append("\" (prompt \"")
          .append(abbreviate(e.path(InvocationRecord.PROMPT).asText("")))
          .append("\"), which ends ");
      if (e.has(InvocationRecord.HANG)) {
        what.append(
            e.path(InvocationRecord.CLOSE_STDOUT).asBoolean()
                ? "in a hang after closing stdout"
                : "in a hang");
      } else if (e.has(InvocationRecord.SIGNAL)) {
        what.append("by ").append(e.get(InvocationRecord.SIGNAL).asText());
      } else {
        what.append("with exit ").append(e.path(InvocationRecord.EXIT).asText("?"));
      }
    }
    lastGate(pid)
        .ifPresent(gate -> what.append("; the last gate it reached: \"").append(gate).append('"'));
    return what.toString();
  }

  private Optional<JsonNode> journalEntry(long pid) {
    Path journal = dir.resolve("journal.ndjson");
    try {
      if (Files.exists(journal)) {
        for (String line : Files.readAllLines(journal, StandardCharsets.UTF_8)) {
          if (!line.isBlank()) {
            JsonNode node = Json.tree(line);
            if (node.path(InvocationRecord.PID).asLong() == pid) {
              return Optional.of(node);
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      // said as "before it had a tape"
    }
    return Optional.empty();
  }

  /** The gate whose {@code NAME.reached} file this run wrote last. */
  private Optional<String> lastGate(long pid) {
    String mark = GateFiles.mark(pid);
    try (var files = Files.list(gates)) {
      return files
          .filter(f -> f.getFileName().toString().endsWith(GateFiles.REACHED))
          .filter(
              f -> {
                try {
                  return Files.readString(f, StandardCharsets.US_ASCII).equals(mark);
                } catch (IOException e) {
                  return false;
                }
              })
          .max(Comparator.comparing(f -> f.toFile().lastModified()))
          .map(
              f ->
                  f.getFileName()
                      .toString()
                      .replaceFirst(Pattern.quote(GateFiles.REACHED) + "$", ""));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 60 ? s : s.substring(0, 57) + "...";
  }

  private static boolean isFake(ProcessHandle process) {
    return process
        .info()
        .commandLine()
        .map(c -> c.contains(FakeAgentRuntime.MAIN) || c.contains(FakeAgentRuntime.RECORDER))
        .orElse(true);
  }

  private List<Long> pids() {
    Path file = dir.resolve("pids");
    List<Long> pids = new ArrayList<>();
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
          if (!line.isBlank()) {
            pids.add(Long.parseLong(line.strip()));
          }
        }
      }
    } catch (IOException | NumberFormatException e) {
      // nothing to kill that can be told
    }
    return pids;
  }
}
