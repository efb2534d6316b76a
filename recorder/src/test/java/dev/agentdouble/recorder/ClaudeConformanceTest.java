package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentdouble.json.JsonCursor;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The public captures of Claude Code in {@code ../shared/conformance/claude/}, read in place (never
 * copied into the project), through the commands a user types: {@code import --case} raw and
 * normalising, then {@code show}, {@code diff}, {@code drift}, {@code vary}; and the normaliser
 * over each. Skipped, saying why, when the folder is absent.
 */
@Timeout(300)
class ClaudeConformanceTest {
  /** The three excerpts that are not valid JSON as published (INDEX.md). */
  static final Set<String> NOT_JSON =
      Set.of(
          "err-2.1.x-resume-missing-stream-json",
          "interrupt-2.1.270-stdin-excerpt",
          "api-retry-529-2.1.241-excerpt");

  @TempDir Path dir;

  record Case(String name, Path folder, JsonNode json) {
    Path stdout() {
      Path ndjson = folder.resolve("stdout.ndjson");
      return Files.exists(ndjson) ? ndjson : folder.resolve("stdout.txt");
    }

    /** {@code import --case} of this case; {@code --exit 0} where its exit is not known. */
    String[] importArgs(boolean raw, Path tape) {
      List<String> args =
          new ArrayList<>(List.of("import", "--case", folder.toString(), "--out", tape.toString()));
      if (json.get("exit").isNull()) {
        args.addAll(List.of("--exit", "0"));
      }
      if (raw) {
        args.add("--raw");
      }
      return args.toArray(new String[0]);
    }
  }

  static List<Case> cases() {
    return ConformanceTest.read(
        Cli.shared().resolve("conformance").resolve("claude"),
        "Claude conformance tests",
        Case::new);
  }

  @Test
  void theCorpusIsBesideTheProject() {
    assertThat(cases()).hasSizeGreaterThanOrEqualTo(21);
    assertThat(cases().stream().map(Case::name)).containsAll(NOT_JSON);
  }

  Tape imported(Case c, boolean raw) {
    Path tape = dir.resolve(c.name() + (raw ? ".raw" : "") + ".tape.ndjson");
    Cli.Result r = Cli.run(c.importArgs(raw, tape));
    assertThat(r.exit()).as("import of %s: %s", c.name(), r).isZero();
    return Frames.read(tape);
  }

  @TestFactory
  Stream<DynamicTest> everyCaseImportsRawAndNormalisedKeepingItsBytes() {
    return DynamicTest.stream(
        cases().stream(),
        Case::name,
        c -> {
          byte[] captured = Files.readAllBytes(c.stdout());
          for (boolean raw : new boolean[] {true, false}) {
            Tape tape = imported(c, raw);
            assertThat(tape.header().cli()).contains("claude");
            assertThat(Frames.stdout(tape)).isEqualTo(captured);
            Frame end = tape.frames().get(tape.frames().size() - 1);
            int exit = c.json().get("exit").isNull() ? 0 : c.json().get("exit").asInt();
            assertThat(end).isEqualTo(new Frame.Exit(end.t(), exit));
            // Claude Code's prompt is an argument: no user event stands for it
            assertThat(tape.header().vars().prompt()).isEmpty();
          }
          if (NOT_JSON.contains(c.name())) {
            assertThat(imported(c, true).frames()).anyMatch(f -> f instanceof Frame.OutBytes);
          }
        });
  }

  /** The keys whose values normalisation may change in a Claude tape. */
  static final Set<String> VOLATILE =
      Set.of(
          "\"session_id\"",
          "\"uuid\"",
          "\"request_id\"",
          "\"tool_use_id\"",
          "\"parent_tool_use_id\"",
          "\"id\"",
          "\"hook_id\"",
          "\"timestamp\"",
          "\"resetsAt\"",
          "\"cwd\"",
          "\"messaging_socket_path\"");

  @TestFactory
  Stream<DynamicTest> normalisingChangesOnlyTheVolatileValuesAndKeepsPairs() {
    return DynamicTest.stream(
        cases().stream(),
        Case::name,
        c -> {
          Tape raw = imported(c, true);
          Tape normalised = Normaliser.normalise(raw, Normaliser.Context.NONE);
          assertThat(normalised.frames()).hasSameSizeAs(raw.frames());
          Map<String, String> seen = new HashMap<>();
          String cwd = initCwd(raw);
          for (int i = 0; i < raw.frames().size(); i++) {
            Frame before = raw.frames().get(i);
            Frame after = normalised.frames().get(i);
            if (!(before instanceof Frame.Out out)) {
              assertThat(after).isEqualTo(before);
              continue;
            }
            String now = ((Frame.Out) after).json();
            assertThat(NormaliserConformanceTest.skeleton(now))
                .isEqualTo(NormaliserConformanceTest.skeleton(out.json()));
            var was = NormaliserConformanceTest.tokens(out.json());
            var is = NormaliserConformanceTest.tokens(now);
            for (int k = 0; k < was.size(); k++) {
              var w = was.get(k);
              var n = is.get(k);
              if (w.raw().equals(n.raw())) {
                continue;
              }
              String where = c.name() + " frame " + i + " " + w.keyRaw() + ": " + w.raw();
              assertThat(
                      VOLATILE.contains(w.keyRaw())
                          || w.keyRaw().endsWith("_uuid\"")
                          || w.keyRaw().equals("\"auto\"")
                          || w.keyRaw().isEmpty() // an item of a compaction's uuids
                          || (w.type() == JsonCursor.Token.STRING && w.text().startsWith(cwd))
                          || (w.type() == JsonCursor.Token.STRING
                              && n.text().equals(cwdAsPath(w.text(), cwd))))
                  .as("only volatile values change: %s", where)
                  .isTrue();
              // one value, one stand-in, wherever it is (a tool_use and its result)
              String earlier = seen.putIfAbsent(w.text(), n.text());
              assertThat(earlier == null || earlier.equals(n.text()))
                  .as("the same stand-in for %s", where)
                  .isTrue();
            }
          }
          assertThat(Normaliser.normalise(normalised, Normaliser.Context.NONE).toBytes())
              .as("normalising %s twice", c.name())
              .isEqualTo(normalised.toBytes());
        });
  }

  /**
   * {@code text} with {@code cwd} made the canonical one where it stands as a path, as the fake's
   * rule finds it in a Claude tape (docs/tape-format.md, §4): after the start, a space, {@code '}
   * or {@code (}, before the end, {@code /}, a space, {@code '} or {@code )}.
   */
  static String cwdAsPath(String text, String cwd) {
    return text.replaceAll(
        "(\\A|[ '(])" + Pattern.quote(cwd) + "(?=\\z|[/ ')])",
        "$1" + Matcher.quoteReplacement(Normaliser.CWD));
  }

  /** The cwd of the tape's first {@code system/init}, or a string no value starts with. */
  static String initCwd(Tape tape) throws IOException {
    for (Frame f : tape.frames()) {
      if (f instanceof Frame.Out out) {
        JsonNode line = ConformanceTest.JSON.readTree(out.json());
        if (line.path("subtype").asText().equals("init") && line.hasNonNull("cwd")) {
          return line.get("cwd").asText();
        }
      }
    }
    return "\u0000";
  }

  @Test
  void showDiffDriftAndVaryWorkOnClaudeTapesOrSayWhatTheyDoNotMake() {
    List<Case> cases = cases();
    Case a = cases.stream().filter(c -> c.name().startsWith("hcn-2.1.233")).findFirst().get();
    Case b = cases.stream().filter(c -> c.name().startsWith("hcn-2.1.274")).findFirst().get();
    Path tapeA = dir.resolve("a.tape.ndjson");
    Path tapeB = dir.resolve("b.tape.ndjson");
    assertThat(Cli.run(a.importArgs(true, tapeA)).exit()).isZero();
    assertThat(Cli.run(b.importArgs(true, tapeB)).exit()).isZero();

    Cli.Result show = Cli.run("show", tapeA.toString());
    assertThat(show.exit()).as("%s", show).isZero();
    assertThat(new String(show.stdout())).contains("claude 2.1.233", "system/init", "result/");

    Cli.Result diff = Cli.run("diff", tapeA.toString(), tapeB.toString());
    assertThat(new String(diff.stdout())).contains("cliVersion: \"2.1.233\" -> \"2.1.274\"");

    Cli.Result drift = Cli.run("drift", tapeA.toString(), tapeB.toString());
    assertThat(drift.exit()).as("%s", drift).isIn(0, 1);
    assertThat(new String(drift.stdout())).contains("rate_limit_info.unifiedWindows");

    Path varied = dir.resolve("v.tape.ndjson");
    Cli.Result rechunk =
        Cli.run("vary", tapeA.toString(), "--variant", "rechunk", "--out", varied.toString());
    assertThat(rechunk.exit()).as("%s", rechunk).isZero();
    assertThat(Frames.stdout(Frames.read(varied))).isEqualTo(Frames.stdout(Frames.read(tapeA)));

    Cli.Result partial =
        Cli.run(
            "vary", tapeA.toString(), "--variant", "partial-output", "--out", varied.toString());
    assertThat(partial.exit()).isEqualTo(1);
    assertThat(partial.err())
        .isEqualTo(
            "agentdouble: "
                + tapeA
                + ": partial-output is not made for a claude tape: it is the Cursor CLI's"
                + " --stream-partial-output form; Claude Code's partial messages are stream_event"
                + " lines (--include-partial-messages), recorded as they come\n");
  }
}
