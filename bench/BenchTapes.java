import dev.agentdouble.script.ClaudeScript;
import dev.agentdouble.script.Script;
import dev.agentdouble.script.ToolCall;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Tape;
import dev.agentdouble.tape.Vars;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Writes the benchmark tapes into a folder (bench/out by default), scripted with {@link Script} as
 * every other tape of the project. Deterministic: the same bytes every run. Compiled and run by
 * {@code bench/run} against the recorder's jar, which holds the fixtures.
 *
 * <pre>
 *   startup.tape.ndjson       10 small stream-json events, with vars (as a recorded tape)
 *   claude-startup.tape.ndjson  the same for claude: init, thinking, 7 texts, result, with vars
 *   cds-probe.tape.ndjson     one event at t=0, one at t=400 ms, no vars: keeps the fake alive
 *                             long enough to look at its /proc/PID/maps
 *   big-novars.tape.ndjson    ~100 MB, a 2026 stream-json run whose bulk is big read, edit and
 *                             shell results (100 KB - 1 MB of file content each); no vars
 *   big-vars.tape.ndjson      the same events, with vars sessionId, cwd, prompt, epochMs
 *   small-novars/-vars        ~1 MB, the same event sequence cut short (the same longest line:
 *                             the first big tool result is the largest of the run)
 *   timing.tape.ndjson        1,000 small events 5 ms apart, the first at t=1000 ms
 *   recorder-200mb.stdout     not a tape: the stdout of a ~200 MB run of the same kind as
 *                             big-novars, for the recorder benchmarks to record
 *   recorder-2mb.stdout       the same run cut short at ~2 MB (the same longest line)
 * </pre>
 *
 * <p>Beside each, NAME.expected.json holds the stdout a replay must produce (line and byte count,
 * and the SHA-256 where the replay is byte-identical: tapes without vars).
 */
public final class BenchTapes {
  /** Bump when the tapes change, so bench/run regenerates them. */
  static final String VERSION = "6";

  static final String SESSION = "ebb521c2-404d-4a4e-8c2f-1f8bdb141043";
  static final String CWD = "/Users/dev/src/acme-billing";
  static final String PROMPT = "Refactor the invoice exporter to stream rows instead of building"
      + " the whole CSV in memory.";
  static final long EPOCH_MS = 1_784_819_288_000L;
  static final String DONE = "Done: the exporter now streams rows.";
  static final int MB = 1_000_000;

  static final String[] WORDS = ("invoice row writer buffer stream export csv total amount"
      + " currency customer line item tax rate period account ledger entry batch flush close open"
      + " format parse value key map list index count offset limit cursor page result error retry"
      + " timeout config").split(" ");

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "bench/out");
    Files.createDirectories(out);
    writeTape(out, "startup", small(10, 0, 0), true);
    writeTape(out, "claude-startup", claudeSmall(7), true);
    writeTape(out, "cds-probe", probe(), false);
    writeTape(out, "timing", small(1000, 1000, 5), false);
    writeTape(out, "small-novars", run(MB), false);
    writeTape(out, "small-vars", run(MB), true);
    writeTape(out, "big-novars", run(100 * MB), false);
    writeTape(out, "big-vars", run(100 * MB), true);
    writeStdout(out, "recorder-200mb", run(200 * MB));
    writeStdout(out, "recorder-2mb", run(2 * MB));
    Files.writeString(out.resolve("tapes.version"), VERSION + "\n");
  }

  /** A run of the bench's session, cwd, prompt and start time. */
  static Script script() {
    return Script.of(PROMPT).sessionId(SESSION).cwd(CWD).epochMs(EPOCH_MS);
  }

  /** {@code count} small events {@code step} ms apart, the first at {@code t0}. */
  static Tape small(int count, long t0, long step) {
    Random rng = new Random(7);
    String[] deltas = new String[count - 4]; // init, user, the deltas, completed, result
    for (int i = 0; i < deltas.length; i++) {
      deltas[i] = " " + words(rng, 2, 8);
    }
    return script().pause(t0).spacing(step).init().user().thinking(deltas)
        .usage(88300, 1850, 448000, 0).result(DONE).exit(0).build();
  }

  /** A claude run of as many lines as {@link #small}: init, thinking, {@code texts} texts, result. */
  static Tape claudeSmall(int texts) {
    Random rng = new Random(7);
    ClaudeScript run = ClaudeScript.of(PROMPT).sessionId(SESSION).cwd(CWD).epochMs(EPOCH_MS)
        .spacing(0).init().thinking(words(rng, 4, 12), "c2lnbmF0dXJl");
    for (int i = 0; i < texts; i++) {
      run.text(words(rng, 2, 8));
    }
    return run.result().exit(0).build();
  }

  static Tape probe() {
    return script().spacing(0).init().pause(400).result(DONE).exit(0).build();
  }

  /**
   * A run of about {@code budget} bytes: model turns of thinking, a line of text and one big tool
   * call (a read, an edit or a shell call); the first call's result is the largest.
   */
  static Tape run(int budget) {
    Random rng = new Random(20260723);
    List<String> pool = codePool(rng);
    Script run = script().spacing(0).pause(180).init().user();
    long size = 0;
    boolean first = true;
    while (size * 6 / 5 < budget - 100_000) { // the estimate leaves out ~20% (escapes, fields)
      String[] thoughts = new String[2 + rng.nextInt(5)];
      for (int i = 0; i < thoughts.length; i++) {
        run.pause(1 + rng.nextInt(40));
        thoughts[i] = " " + words(rng, 2, 8);
      }
      run.thinking(thoughts).assistant("Looking at `" + word(rng) + "`.");
      String path = "src/" + word(rng) + "/" + word(rng) + ".ts";
      int bytes = first ? 960_000 : 100_000 + rng.nextInt(860_001);
      double kind = rng.nextDouble();
      ToolCall call;
      if (first || kind < 0.55) {
        String text = content(rng, pool, bytes);
        call = ToolCall.read(path, text);
        size += text.length();
      } else if (kind < 0.9) {
        String before = content(rng, pool, 2000);
        String after = content(rng, pool, bytes / 2);
        call = ToolCall.edit(path, before, after);
        size += 3L * after.length() + 2 * before.length(); // args twice, the whole file, the diff
      } else {
        String stdout = content(rng, pool, bytes / 2);
        call = ToolCall.shell("grep -rn " + word(rng) + " src", 0, stdout, "");
        size += 2L * stdout.length(); // stdout and interleavedOutput
      }
      first = false;
      run.pause(2 + rng.nextInt(29)).start("call", call)
          .pause(50 + rng.nextInt(351)).complete("call");
      size += 3000; // the events around the content
    }
    return run.pause(20).assistant(DONE).usage(88300, 1850, 448000, 0).result().exit(0).build();
  }

  // ---- realistic file content: source code with quotes, tabs, backslashes, some non-ASCII

  static List<String> codePool(Random rng) {
    List<String> lines = new ArrayList<>(4000);
    for (int i = 0; i < 4000; i++) {
      double kind = rng.nextDouble();
      String ident = identifier(rng);
      String indent = rng.nextDouble() < 0.3 ? "\t".repeat(rng.nextInt(4))
          : "  ".repeat(rng.nextInt(5));
      String line;
      if (kind < 0.25) {
        line = indent + "const " + ident + " = await " + word(rng) + "(\"" + words(rng, 3, 3)
            + "\", " + rng.nextInt(10000) + ");";
      } else if (kind < 0.45) {
        line = indent + "// " + words(rng, 3, 12);
      } else if (kind < 0.55) {
        line = indent + "re := regexp.MustCompile(`\\d+\\.\\d{2}`) // \"" + ident + "\"";
      } else if (kind < 0.60) {
        line = indent + "label: \"Montant dû — " + ident + " €\",";
      } else if (kind < 0.62) {
        line = "";
      } else {
        line = indent + "if (" + ident + "." + word(rng) + " > " + rng.nextInt(501)
            + ") { return " + word(rng) + "(" + ident + "); }";
      }
      lines.add(line);
    }
    return lines;
  }

  /** About {@code size} characters of lines from the pool, ending with a newline. */
  static String content(Random rng, List<String> pool, int size) {
    StringBuilder text = new StringBuilder(size + 200);
    while (text.length() < size) {
      text.append(pool.get(rng.nextInt(pool.size()))).append('\n');
    }
    text.setLength(size);
    return text.append('\n').toString();
  }

  static String identifier(Random rng) {
    List<String> words = new ArrayList<>(List.of(WORDS));
    Collections.shuffle(words, rng);
    StringBuilder ident = new StringBuilder(words.get(0));
    int n = 1 + rng.nextInt(3);
    for (int i = 1; i < n; i++) {
      ident.append(Character.toUpperCase(words.get(i).charAt(0))).append(words.get(i), 1,
          words.get(i).length());
    }
    return ident.toString();
  }

  static String word(Random rng) {
    return WORDS[rng.nextInt(WORDS.length)];
  }

  static String words(Random rng, int min, int max) {
    int n = min + rng.nextInt(max - min + 1);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < n; i++) {
      text.append(i == 0 ? "" : " ").append(word(rng));
    }
    return text.toString();
  }

  // ---- writing

  /** The tape (without vars unless {@code vars}) and its expected.json. */
  static void writeTape(Path out, String name, Tape scripted, boolean vars) throws IOException {
    Tape tape = vars ? scripted
        : new Tape(scripted.header().toBuilder().vars(Vars.NONE).build(), scripted.frames());
    Path file = out.resolve(name + ".tape.ndjson");
    tape.write(file);
    Stdout stdout = stdout(tape);
    String expected = "{\"stdoutBytes\":" + stdout.bytes + ",\"tapeBytes\":" + Files.size(file)
        + ",\"outFrames\":" + stdout.lines
        + (vars ? "" : ",\"stdoutSha256\":\"" + stdout.sha256() + "\"") + "}";
    Files.writeString(out.resolve(name + ".expected.json"), expected);
  }

  /** Not a tape: the run's stdout, each event a line, and its expected.json. */
  static void writeStdout(Path out, String name, Tape run) throws IOException {
    Stdout stdout;
    try (OutputStream file = Files.newOutputStream(out.resolve(name + ".stdout"))) {
      stdout = new Stdout();
      for (Frame frame : run.frames()) {
        if (frame instanceof Frame.Out line) {
          byte[] bytes = (line.json() + "\n").getBytes(StandardCharsets.UTF_8);
          file.write(bytes);
          stdout.add(bytes);
        }
      }
    }
    Files.writeString(out.resolve(name + ".expected.json"), "{\"stdoutBytes\":" + stdout.bytes
        + ",\"stdoutSha256\":\"" + stdout.sha256() + "\",\"outFrames\":" + stdout.lines + "}");
  }

  static Stdout stdout(Tape tape) {
    Stdout stdout = new Stdout();
    for (Frame frame : tape.frames()) {
      if (frame instanceof Frame.Out line) {
        stdout.add((line.json() + "\n").getBytes(StandardCharsets.UTF_8));
      }
    }
    return stdout;
  }

  /** What a replay writes on stdout: its lines, bytes and digest. */
  static final class Stdout {
    final MessageDigest digest;
    long bytes;
    int lines;

    Stdout() {
      try {
        digest = MessageDigest.getInstance("SHA-256");
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }

    void add(byte[] line) {
      digest.update(line);
      bytes += line.length;
      lines++;
    }

    String sha256() {
      return HexFormat.of().formatHex(digest.digest());
    }
  }
}
