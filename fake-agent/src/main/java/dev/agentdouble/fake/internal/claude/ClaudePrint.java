package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.process.ByteBuf;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.run.Exits;
import dev.agentdouble.fake.internal.run.Gates;
import dev.agentdouble.fake.internal.run.LiveValues;
import dev.agentdouble.fake.internal.run.Player;
import dev.agentdouble.fake.internal.run.Turn;
import dev.agentdouble.fake.internal.source.TapeSource;
import dev.agentdouble.files.PrivateFolder;
import dev.agentdouble.json.JsonText;
import dev.agentdouble.render.Renderer;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import dev.agentdouble.tape.FrameLine;
import dev.agentdouble.tape.Header;
import dev.agentdouble.tape.OutputFormat;
import dev.agentdouble.tape.TapeScanner;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Claude Code's print mode as a face of a {@link Turn}: a stream-json tape played as stream-json
 * (its partial lines left out unless asked), or derived into json or text as the real CLI derives
 * them ({@link Renderer#claude}); the live session id in place of the tape's; the tape's ending. A
 * stdin loop of {@code --input-format stream-json} runs one turn with this face per user message.
 */
public final class ClaudePrint implements Turn.Face {
  /** The flag a tape recorded with partial messages has on its argv. */
  static final String PARTIAL = "--include-partial-messages";

  private static final byte[] STREAM_EVENT =
      "\"type\":\"stream_event\"".getBytes(StandardCharsets.UTF_8);

  /** Where the messaging socket's folder is looked for, in this order. */
  private static final String[] SOCKET_FOLDER_NAMES = {"XDG_RUNTIME_DIR", "TMPDIR", "TMP", "TEMP"};

  /** The longest messaging socket path Claude Code keeps (its constant, 103 bytes). */
  static final int SOCKET_PATH_BYTES = 103;

  private static final byte[] INIT =
      "\"type\":\"system\",\"subtype\":\"init\"".getBytes(StandardCharsets.UTF_8);

  private final ClaudeProfile profile;
  private final CliArgs args;
  private final FakeEnvironment settings;
  private final OutputFormat format;
  private final String cwd;
  private final Optional<String> home;
  private final String messagingSocket;
  private final OutputStream stdout;
  private final OutputStream stderr;
  private final long originNanos;
  private long liveEpochMs;

  /**
   * A face writing to {@code stdout} and {@code stderr} the run {@code args} ask in {@code format};
   * {@code messagingSocket} is the run's own ({@link #messagingSocket}).
   */
  public ClaudePrint(
      ClaudeProfile profile,
      CliArgs args,
      FakeEnvironment settings,
      OutputFormat format,
      String cwd,
      Optional<String> home,
      String messagingSocket,
      OutputStream stdout,
      OutputStream stderr,
      long originNanos) {
    this.profile = profile;
    this.args = args;
    this.settings = settings;
    this.format = format;
    this.cwd = cwd;
    this.home = home;
    this.messagingSocket = messagingSocket;
    this.stdout = stdout;
    this.stderr = stderr;
    this.originNanos = originNanos;
  }

  /**
   * Print mode skips the workspace trust dialog (claude --help, -p). A stream-json run without
   * {@code --verbose} gets here only when it resumes a session ({@link
   * ClaudeChecks#verboseAfterResume}): a tape that starts no session (no {@code system/init} line:
   * the session was not found) plays as recorded, as the real CLI prints that result line without
   * {@code --verbose}; any other tape is a session found, which the verbose rule then refuses.
   */
  @Override
  public Ending admit(Turn turn) throws IOException {
    if (format != OutputFormat.STREAM_JSON || args.has("verbose") || !startsASession(turn)) {
      return null;
    }
    Exits.write(stderr, profile.message("verbose-needed"));
    turn.journal().stoppedBy = "verbose-needed";
    return turn.report(new Frame.Exit(0, ExitStatus.CLI_FAILED), null);
  }

  /** Whether the tape prints Claude Code's {@code system/init} line, which opens a session. */
  private static boolean startsASession(Turn turn) throws IOException {
    return Player.outHolds(turn.source(), turn.checked(), INIT);
  }

  @Override
  public Ending transform(Turn turn) throws IOException {
    Header header = turn.header();
    boolean partial = args.has("include-partial-messages");
    if (header.format() != format && header.format() != OutputFormat.STREAM_JSON) {
      return turn.unrenderable("--output-format stream-json --verbose");
    }
    if (header.format() == OutputFormat.STREAM_JSON) {
      boolean holdsPartial = format == OutputFormat.STREAM_JSON && holdsPartial(header, turn);
      if (format == OutputFormat.STREAM_JSON && partial && !holdsPartial) {
        return turn.failed(
            turn.source().name()
                + ": recorded without "
                + PARTIAL
                + ", asked with it; record the run with "
                + PARTIAL
                + ", or ask without it",
            true);
      }
      if (format != OutputFormat.STREAM_JSON || (holdsPartial && !partial)) {
        Renderer renderer =
            Renderer.claude(
                format,
                new Renderer.ClaudeOptions(
                    args.has("verbose"),
                    partial,
                    profile.jsonResultLeavesOut(),
                    profile.jsonVerboseInitLeavesOut(),
                    profile.textNotes()));
        turn.transform(Player.Transform.rendering(renderer));
        if (format != OutputFormat.STREAM_JSON) {
          turn.journal().renderedFrom = header.format().cliName();
        } else {
          turn.journal().derived = "without-partial-messages";
        }
      }
    }
    liveEpochMs =
        settings
            .epochMs()
            .orElse(System.currentTimeMillis() - (System.nanoTime() - originNanos) / 1_000_000L);
    return null;
  }

  @Override
  public LiveValues live(Turn turn) {
    Optional<String> decided = turn.invocation().session(); // the one asked for, or fresh
    String sessionId = decided.isPresent() ? decided.get() : sessionId(turn.header());
    turn.journal().sessionId = sessionId;
    return new LiveValues(
        Optional.of(sessionId),
        Optional.of(cwd),
        home,
        Optional.of(turn.invocation().prompt()),
        OptionalLong.of(liveEpochMs),
        Optional.empty(),
        Optional.empty(),
        Optional.of(projectRoot(cwd)),
        Optional.of(messagingSocket));
  }

  /**
   * Where Claude Code says its messaging socket is ({@code messaging_socket_path} of its init
   * line): {@code cc-socks/<pid>.sock} in {@code XDG_RUNTIME_DIR} where that is set and not empty,
   * else in its folder for temporary files, the first of {@code TMPDIR}, {@code TMP} and {@code
   * TEMP} that is set and not empty, else {@code /tmp}; made absolute against the working folder
   * and normalised. A path of more than {@value #SOCKET_PATH_BYTES} bytes (a socket's address holds
   * no more) gives way to {@code /tmp/cc-socks-<uid>/<pid>.sock} ({@code $PREFIX/tmp} under
   * Termux). Runs of the real 2.1.328: docs/claude-2.1.328-runs.md, parts k and n.
   */
  public static String messagingSocket(Map<String, String> env, long pid) {
    String folder = "/tmp";
    for (String name : SOCKET_FOLDER_NAMES) {
      String value = env.get(name);
      if (value != null && !value.isEmpty()) {
        folder = value;
        break;
      }
    }
    String sock = pid + ".sock";
    String socket = Path.of(folder, "cc-socks", sock).toAbsolutePath().normalize().toString();
    if (socket.getBytes(StandardCharsets.UTF_8).length <= SOCKET_PATH_BYTES) {
      return socket;
    }
    String termux = env.get("TERMUX_VERSION");
    String prefix = env.get("PREFIX");
    boolean inTermux = termux != null && !termux.isEmpty() && prefix != null && !prefix.isEmpty();
    String tmp = inTermux ? prefix + "/tmp" : "/tmp";
    int uid = PrivateFolder.user().orElse(0);
    return Path.of(tmp, "cc-socks-" + uid, sock).normalize().toString();
  }

  /**
   * The folder Claude Code names a run's project folder after (its {@code memory_paths.auto}): the
   * root of the git repository {@code cwd} is in, the main one's for a linked work tree, else
   * {@code cwd} itself (docs/claude-2.1.328-runs.md, part j).
   */
  static String projectRoot(String cwd) {
    for (Path dir = Path.of(cwd); dir != null; dir = dir.getParent()) {
      Path git = dir.resolve(".git");
      if (Files.isDirectory(git)) {
        return dir.toString();
      }
      if (Files.isRegularFile(git)) {
        Path common = commonGitDir(dir, git);
        return common == null || common.getParent() == null
            ? dir.toString()
            : common.getParent().toString();
      }
    }
    return cwd;
  }

  /**
   * The repository's own git folder for a work tree whose {@code .git} is a file ({@code gitdir:
   * <folder>}, whose {@code commondir} names the shared one); null when there is none or it cannot
   * be read.
   */
  private static Path commonGitDir(Path dir, Path dotGit) {
    try {
      String link = Files.readString(dotGit, StandardCharsets.UTF_8).trim();
      if (!link.startsWith("gitdir:")) {
        return null;
      }
      Path gitDir = dir.resolve(link.substring("gitdir:".length()).trim()).normalize();
      Path commonFile = gitDir.resolve("commondir");
      if (!Files.isRegularFile(commonFile)) {
        return null; // not a linked work tree (a submodule's, say): the folder holding the link
      }
      String common = Files.readString(commonFile, StandardCharsets.UTF_8).trim();
      return gitDir.resolve(common).normalize();
    } catch (IOException | RuntimeException e) {
      return null; // an unreadable link: the folder holding it stands for the repository
    }
  }

  @Override
  public Ending play(Turn turn) throws IOException, Gates.NotReleased {
    // in the journal before the replay: a test reads it while the fake plays, hangs or dies
    turn.report(turn.checked().ending(), null);
    return turn.play(stdout, stderr);
  }

  @Override
  public void writeErr(String text) {
    Exits.write(stderr, text);
  }

  @Override
  public void refuse(String problem) {
    Exits.write(stderr, "agentdouble: " + problem + "\n");
  }

  /**
   * The live session id of a run that asked for none ({@link ClaudeChecks#askedSession}: no {@code
   * --session-id}, no {@code --resume ID} but with {@code --fork-session}): the tape's own for
   * {@code --continue} unless forked, else a new one (claude-code.md §8; runs part d).
   */
  private String sessionId(Header header) {
    Optional<String> recorded = header.vars().sessionId();
    if (args.has("continue") && !args.has("fork-session") && recorded.isPresent()) {
      return recorded.get();
    }
    return Turn.freshUuid();
  }

  /**
   * Whether the tape holds partial messages: recorded with {@value #PARTIAL}, or a {@code
   * stream_event} line in it (a capture imported without its command line).
   */
  static boolean holdsPartial(Header header, Turn turn) throws IOException {
    if (header.argv().contains(PARTIAL)) {
      return true;
    }
    return Player.outHolds(turn.source(), turn.checked(), STREAM_EVENT);
  }

  /**
   * The tape's {@code system/init} line as this turn prints it, the live values in place and a
   * newline after it, for a turn stopped before it played its first frame: read before the turn
   * plays (an interrupt closes the tape's file); empty when the tape's first stdout line is not an
   * init (its session was not found).
   */
  Optional<String> initLine(Turn turn) throws IOException {
    TapeSource source = turn.source();
    try (InputStream in = source.open()) {
      TapeScanner scanner = new TapeScanner(source.name(), in);
      while (scanner.next()) {
        FrameLine f = scanner.frame();
        if (!f.kind.stdout()) {
          continue;
        }
        if (f.kind == FrameLine.Kind.OUT
            && Player.contains(scanner.buffer(), f.valueStart, f.valueEnd, INIT)) {
          byte[] compact =
              JsonText.compact(scanner.buffer(), f.valueStart, f.valueEnd - f.valueStart);
          ByteBuf line = new ByteBuf();
          turn.substitution().apply(compact, 0, compact.length, line);
          line.append((byte) '\n');
          return Optional.of(new String(line.data, 0, line.size, StandardCharsets.UTF_8));
        }
        break;
      }
    }
    return Optional.empty();
  }
}
