package dev.agentdouble.fake.internal.source;

import dev.agentdouble.catalog.CatalogIndex;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.InvocationRecord;
import dev.agentdouble.contract.MatchMiss;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.json.LineReader;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.HeaderCodec;
import dev.agentdouble.tape.Match;
import dev.agentdouble.tape.TapeException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Picks the tape that answers an invocation: {@code AGENTDOUBLE_TAPE} (one file, or {@code
 * builtin:NAME}, a tape of the catalog) or the first tape in {@code AGENTDOUBLE_TAPES} (a folder,
 * by file name) whose {@code match} holds. When none does, the failure names the closest tape and
 * what differed.
 */
public final class TapeSelection {
  /** The outcome: a tape, or why there is none (exit 70). */
  public sealed interface Result permits Selected, Failed {}

  /**
   * A tape, and the timing it is to be replayed with when the control server said (else the fake's
   * own {@code AGENTDOUBLE_TIMING}).
   */
  public record Selected(TapeSource source, Optional<Timing> timing) implements Result {
    public Selected(TapeSource source) {
      this(source, Optional.empty());
    }
  }

  public record Failed(String message) implements Result {}

  /** The prefix of {@code AGENTDOUBLE_TAPE} naming a built-in tape: {@code builtin:NAME}. */
  static final String BUILTIN = FakeEnvironment.BUILTIN;

  static final String HOW_TO_CONFIGURE =
      "set "
          + FakeEnvironment.TAPE
          + "=FILE (one tape), "
          + FakeEnvironment.TAPE
          + "="
          + FakeEnvironment.BUILTIN
          + "NAME (a built-in tape; `agentdouble catalog` lists them), "
          + FakeEnvironment.TAPES
          + "=DIR (a folder of tapes with match rules) or "
          + FakeEnvironment.URL
          + " (a control server, as the JUnit extension runs); see docs/cli.md";

  private TapeSelection() {}

  /**
   * The tape of {@code AGENTDOUBLE_TAPE} or {@code AGENTDOUBLE_TAPES}; a control server ({@code
   * AGENTDOUBLE_URL}) is asked by the run's {@link dev.agentdouble.fake.internal.run.Turn} instead.
   */
  public static Result select(Map<String, String> env, InvocationRecord invocation)
      throws IOException {
    String tape = env.get(FakeEnvironment.TAPE);
    if (tape != null && tape.startsWith(BUILTIN)) {
      return builtin(tape.substring(BUILTIN.length()));
    }
    if (tape != null && !tape.isEmpty()) {
      Path file = Path.of(tape);
      if (!Files.isRegularFile(file)) {
        return new Failed(
            FakeEnvironment.TAPE
                + "="
                + tape
                + (Files.exists(file)
                    ? ": not a regular file (a folder, a FIFO or a device); give a tape file"
                    : ": no such tape file"));
      }
      return new Selected(TapeSource.of(file));
    }
    String folder = env.get(FakeEnvironment.TAPES);
    if (folder != null && !folder.isEmpty()) {
      return fromFolder(Path.of(folder), invocation);
    }
    return new Failed("no tape configured: " + HOW_TO_CONFIGURE);
  }

  /** A built-in tape of the catalog, by name ({@code AGENTDOUBLE_TAPE=builtin:NAME}). */
  private static Result builtin(String name) {
    Optional<CatalogIndex.Item> item = CatalogIndex.find(name);
    if (item.isEmpty()) {
      return new Failed(
          FakeEnvironment.TAPE + "=" + BUILTIN + name + ": " + CatalogIndex.unknown(name));
    }
    return new Selected(TapeSource.builtin(item.get()));
  }

  private static Result fromFolder(Path dir, InvocationRecord invocation) throws IOException {
    if (!Files.isDirectory(dir)) {
      return new Failed(FakeEnvironment.TAPES + "=" + dir + ": no such folder");
    }
    List<Path> tapes = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
      for (Path file : files) {
        if (file.getFileName().toString().endsWith(".tape.ndjson")) {
          tapes.add(file);
        }
      }
    }
    Collections.sort(tapes);
    for (Path tape : tapes) {
      // opening a FIFO would wait for a writer, a device would never end: only files are read
      if (!Files.isRegularFile(tape)) {
        return new Failed(
            FakeEnvironment.TAPES
                + "="
                + dir
                + ": "
                + tape.getFileName()
                + " is not a regular file (a folder, a FIFO or a device); a tapes folder holds tape"
                + " files: move it away, or rename it to end in something else than .tape.ndjson");
      }
    }
    if (tapes.isEmpty()) {
      return new Failed(
          FakeEnvironment.TAPES + "=" + dir + ": no *.tape.ndjson files in the folder");
    }
    // closest: the most conditions met, then the fewest missed, then the first by name
    Path closest = null;
    List<String> closestMisses = null;
    int closestMet = -1;
    for (Path tape : tapes) {
      // the tape that matches is replayed from the open file its header was read from
      TapeSource source = TapeSource.of(tape);
      Match match;
      try {
        match = header(source).match().orElse(Match.ANY);
      } catch (IOException | RuntimeException e) {
        source.close();
        throw e;
      }
      List<String> misses = misses(match, invocation);
      if (misses.isEmpty()) {
        return new Selected(source);
      }
      source.close();
      int met = MatchMiss.conditions(match) - misses.size();
      if (met > closestMet || (met == closestMet && misses.size() < closestMisses.size())) {
        closest = tape;
        closestMisses = misses;
        closestMet = met;
      }
    }
    StringBuilder sb = new StringBuilder();
    sb.append("no tape in ")
        .append(dir)
        .append(" matches this invocation (")
        .append(tapes.size())
        .append(tapes.size() == 1 ? " tape" : " tapes")
        .append(")\n");
    sb.append("  closest: ").append(closest.getFileName()).append('\n');
    for (String miss : closestMisses) {
      sb.append("    ").append(miss).append('\n');
    }
    sb.append("  invocation: prompt ")
        .append(quote(invocation.prompt()))
        .append(", output format ")
        .append(invocation.outputFormat())
        .append(", model ")
        .append(invocation.model().isPresent() ? quote(invocation.model().get()) : "(none)")
        .append(", argv ")
        .append(invocation.argv());
    return new Failed(sb.toString());
  }

  /** The conditions of {@code match} that {@code invocation} fails, each said in a short line. */
  public static List<String> misses(Match match, InvocationRecord invocation) {
    List<String> misses = new ArrayList<>();
    for (MatchMiss miss : MatchMiss.of(match, invocation)) {
      misses.add(
          switch (miss.condition()) {
            case PROMPT ->
                "prompt /" + miss.wanted() + "/ did not match " + quote(invocation.prompt());
            case ARGV -> "argv has no " + quote(miss.wanted());
            case OUTPUT_FORMAT ->
                "output format is " + invocation.outputFormat() + ", tape wants " + miss.wanted();
            case MODEL ->
                "model is "
                    + (invocation.model().isPresent()
                        ? quote(invocation.model().get())
                        : "not given")
                    + ", tape wants "
                    + quote(miss.wanted());
          });
    }
    return misses;
  }

  private static Header header(TapeSource tape) throws IOException {
    try (InputStream in = tape.open()) {
      LineReader lines = new LineReader(in);
      if (!lines.next()) {
        throw new TapeException(
            tape.name(), 1, "empty file: a tape starts with a header line {\"tape\":1,...}");
      }
      return HeaderCodec.parse(tape.name(), lines.buffer(), lines.offset(), lines.length());
    }
  }

  private static String quote(String s) {
    String shown = s.length() > 60 ? s.substring(0, 57) + "..." : s;
    return '"' + shown.replace("\n", "\\n") + '"';
  }
}
