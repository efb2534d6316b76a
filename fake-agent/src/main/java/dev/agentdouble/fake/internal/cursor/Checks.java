package dev.agentdouble.fake.internal.cursor;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.cursor.CursorMessages;
import dev.agentdouble.fake.internal.cli.Answer;
import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.Uuids;
import dev.agentdouble.fake.internal.profile.ModelCatalog;
import dev.agentdouble.fake.internal.profile.Profile;
import dev.agentdouble.fake.internal.profile.RunCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the CLI checks before a print run reaches the server, with the CLI's own texts and exit
 * codes: the account, the API key, {@code --output-format}, the workspace trust gate, the values of
 * {@code --resume}, {@code --new-session-id}, {@code --allowed-tools}, {@code
 * --conversation-history-file}, {@code --system-prompt}, the prompt and the model ({@link
 * dev.agentdouble.fake.internal.profile.ModelCatalog}). Which of them a version makes, and in which
 * order, is its profile's {@code checks} line ({@link Profile.Surface#checks()}). A run that passes
 * every check is replayed from its tape.
 */
public final class Checks {
  /**
   * A run the CLI ends before it needs an answer from the server.
   *
   * @param reason a short code for the journal and the control plane, e.g. {@code trust-gate}
   * @param answer what it writes and how it exits
   */
  public record Stop(String reason, Answer answer) {}

  /** The {@link Stop#reason()} of a {@code --model} the account does not have. */
  public static final String MODEL = "model";

  private final CliArgs args;
  private final Profile profile;
  private final Map<String, String> env;
  private final boolean trustedMachine;

  /** What the CLI keeps between runs: trusted workspaces, session ids taken. */
  private final CliState state;

  private final String workspace;
  private final String prompt;
  private final String cwd;

  /**
   * The checks of one run; {@code trustedMachine} is {@code AGENTDOUBLE_TRUST=trusted} (every
   * workspace already trusted).
   */
  public Checks(
      CliArgs args,
      Profile profile,
      Map<String, String> env,
      boolean trustedMachine,
      String workspace,
      String prompt,
      String cwd) {
    this.args = args;
    this.profile = profile;
    this.env = env;
    this.trustedMachine = trustedMachine;
    this.state = CliState.of(env.get(CliState.ENV));
    this.workspace = workspace;
    this.prompt = prompt;
    this.cwd = cwd;
  }

  /**
   * The first check of the profile's list that stops the run, or null when it goes on to its tape.
   * One at a time, in the profile's order: a check runs only when those before it passed. A {@code
   * --new-session-id} the profile checks is taken once every check has passed.
   */
  public Stop run() throws IOException {
    List<RunCheck> checks = profile.behaviour().surface().checks();
    for (RunCheck check : checks) {
      Stop stop = check(check);
      if (stop != null) {
        return stop;
      }
    }
    takeNewSession();
    return null;
  }

  /**
   * Takes the {@code --new-session-id} the profile checks: done by {@link #run()} when every check
   * passed, or by the caller when a tape declaring the account's models admits the model {@link
   * #run()} refused.
   */
  public void takeNewSession() throws IOException {
    if (profile.behaviour().surface().checks().contains(RunCheck.NEW_SESSION_ID)
        && args.newSessionId().isPresent()) {
      state.takeSession(args.newSessionId().get());
    }
  }

  private Stop check(RunCheck check) throws IOException {
    return switch (check) {
      case AUTH -> auth();
      case API_KEY -> apiKey();
      case OUTPUT_FORMAT -> outputFormat();
      case TRUST_GATE -> trustGate();
      case RESUME -> resume();
      case NEW_SESSION_ID -> newSessionId();
      case ALLOWED_TOOLS -> allowedTools();
      case CONVERSATION_HISTORY_FILE -> conversationHistory();
      case SYSTEM_PROMPT -> systemPromptFile();
      case PROMPT ->
          prompt.isEmpty() ? new Stop("no-prompt", Answer.fail(CursorMessages.NO_PROMPT)) : null;
      case MODEL -> model();
    };
  }

  private boolean keyGiven() {
    return args.apiKey().isPresent()
        || args.has("auth-token")
        || !blank(env.get("CURSOR_API_KEY"))
        || !blank(env.get("CURSOR_AUTH_TOKEN"));
  }

  private Stop auth() {
    if (!profile.loggedIn() && !keyGiven()) {
      return new Stop("auth", Answer.fail(message("auth-required")));
    }
    return null;
  }

  private Stop apiKey() {
    if (!profile.apiKeyValid()
        && (args.apiKey().isPresent() || !blank(env.get("CURSOR_API_KEY")))) {
      return new Stop("api-key", Answer.fail(CursorMessages.INVALID_API_KEY));
    }
    return null;
  }

  /**
   * {@code --output-format} outside its choices, where the profile checks it after the account (a
   * tree whose option has choices refuses it while parsing). Commander's wording; the CLI's own
   * text for this check is not recorded.
   */
  private Stop outputFormat() {
    if (args.option("output-format").isEmpty() || args.outputFormat().isPresent()) {
      return null;
    }
    return new Stop(
        "output-format",
        Answer.fail(
            "error: option '--output-format <format>'"
                + " argument '"
                + args.option("output-format").get()
                + "' is invalid. Allowed choices"
                + " are text, json, stream-json.\n"));
  }

  /**
   * The workspace trust gate: a print run in a workspace not trusted yet stops unless it passes
   * {@code --trust} (which trusts the workspace from then on), {@code -f} or {@code --yolo} (this
   * run only). Evaluated lazily: these checks are only made when the gate is on.
   */
  private Stop trustGate() throws IOException {
    if (!profile.behaviour().trustGate()) {
      return null;
    }
    if (args.force() || trustedMachine) {
      return null; // decided without a look at the file system
    }
    String physical = physical(workspace);
    if (args.trust()) {
      state.trust(physical);
      return null;
    }
    if (state.trusted(physical)) {
      return null;
    }
    return new Stop("trust-gate", Answer.fail(trustRequired(physical)));
  }

  /**
   * The trust gate of a run whose tape says its workspace is not trusted (header {@code
   * "trust":"untrusted"}): whatever {@code AGENTDOUBLE_TRUST}, the state folder or the profile say,
   * only {@code --trust} (which trusts the workspace from then on), {@code -f} or {@code --yolo}
   * pass it, as they pass the real gate; otherwise the box names the workspace's physical path.
   */
  public Stop untrustedWorkspace() throws IOException {
    if (args.force()) {
      return null;
    }
    String physical = physical(workspace);
    if (args.trust()) {
      state.trust(physical);
      return null;
    }
    return new Stop("trust-gate", Answer.fail(trustRequired(physical)));
  }

  /** The profile's trust box, naming the workspace at {@code physical}. */
  private String trustRequired(String physical) {
    return message("trust-required").replace("{workspace}", physical);
  }

  private String message(String key) {
    return profile.behaviour().surface().message(key);
  }

  /** The workspace's physical absolute path, links resolved, as the CLI shows it. */
  private String physical(String path) {
    Path p = Path.of(cwd).resolve(path);
    try {
      return p.toRealPath().toString();
    } catch (IOException | SecurityException e) {
      return p.toAbsolutePath().normalize().toString();
    }
  }

  private Stop resume() {
    if (args.resumeId().isEmpty()) {
      return null;
    }
    String id = args.resumeId().get();
    if (Uuids.isUuid(id) || isPreviousChat(id)) {
      return null; // an unknown valid UUID starts a new session under that id
    }
    return new Stop("resume", Answer.fail(CursorMessages.resumeNotUuid(id)));
  }

  private Stop newSessionId() throws IOException {
    if (args.newSessionId().isEmpty()) {
      return null;
    }
    String id = args.newSessionId().get();
    if (!Uuids.isUuidV4(id)) {
      return new Stop("new-session-id", Answer.fail(CursorMessages.newSessionIdNotUuidV4(id)));
    }
    if (state.sessionTaken(id)) {
      return new Stop("new-session-id", Answer.fail(CursorMessages.sessionIdInUse(id)));
    }
    return null; // taken once every check has passed
  }

  private Stop allowedTools() {
    List<String> invalid = new ArrayList<>();
    for (String tool : args.commaSeparated("allowed-tools")) {
      if (!CursorMessages.TOOL_NAMES.contains(tool) && !invalid.contains(tool)) {
        invalid.add(tool);
      }
    }
    if (invalid.isEmpty()) {
      return null;
    }
    return new Stop(
        "allowed-tools",
        new Answer("", CursorMessages.invalidAllowedTools(invalid), ExitStatus.OK));
  }

  /**
   * {@code --conversation-history-file FILE}: a missing file is reported and nothing runs (exit 0);
   * contents that are not JSON of a {@code ConversationHistory} are refused (exit 1).
   */
  private Stop conversationHistory() throws IOException {
    if (args.option("conversation-history-file").isEmpty()) {
      return null;
    }
    String file = args.option("conversation-history-file").get();
    Path path = Path.of(cwd).resolve(file);
    if (!Files.isRegularFile(path)) {
      return new Stop(
          "conversation-history-file",
          new Answer("", CursorMessages.conversationHistoryMissing(file), ExitStatus.OK));
    }
    // read as Node's readFileSync(file, "utf8") reads it: bytes that are not UTF-8 become U+FFFD
    String contents = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
    Optional<String> problem = ConversationHistory.problem(contents);
    if (problem.isEmpty()) {
      return null;
    }
    return new Stop(
        "conversation-history-file",
        Answer.fail(CursorMessages.conversationHistoryInvalid(problem.get())));
  }

  private Stop systemPromptFile() throws IOException {
    if (args.option("system-prompt").isEmpty()) {
      return null;
    }
    Path file = Path.of(cwd).resolve(args.option("system-prompt").get()).normalize();
    if (!Files.isRegularFile(file)) {
      return new Stop(
          "system-prompt", Answer.fail(CursorMessages.systemPromptFileNotFound(file.toString())));
    }
    if (Files.size(file) == 0) {
      return new Stop(
          "system-prompt", Answer.fail(CursorMessages.systemPromptFileEmpty(file.toString())));
    }
    return null; // read and accepted locally; what the server makes of it is the tape's
  }

  /**
   * A {@code --model} the account does not have: neither a listed id (in any letter case) nor a
   * variant string the server lists. Nothing on stdout; the listed ids on stderr; exit 1.
   */
  private Stop model() {
    return model(profile.catalog());
  }

  /**
   * The stop of a {@code --model} that {@code catalog} (the account's models) does not have, with
   * its ids in the refusal; null when the run names no model or the catalog has it.
   */
  public Stop model(ModelCatalog catalog) {
    if (args.model().isEmpty() || catalog.resolve(args.model().get()).isPresent()) {
      return null;
    }
    return new Stop(
        MODEL, Answer.fail(CursorMessages.cannotUseModel(args.model().get(), catalog.ids())));
  }

  /** {@code -1}, {@code -2}: the Nth previous chat of the workspace. */
  private static boolean isPreviousChat(String id) {
    if (id.length() < 2 || id.charAt(0) != '-') {
      return false;
    }
    for (int i = 1; i < id.length(); i++) {
      if (id.charAt(i) < '0' || id.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
