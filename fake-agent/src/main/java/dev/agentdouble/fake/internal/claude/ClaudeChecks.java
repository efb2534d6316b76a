package dev.agentdouble.fake.internal.claude;

import dev.agentdouble.fake.internal.cli.CliArgs;
import dev.agentdouble.fake.internal.cli.Uuids;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.profile.CliCommand;
import dev.agentdouble.fake.internal.profile.CliOption;
import dev.agentdouble.tape.OutputFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a Claude Code print run checks after commander's parse, in the real 2.1.328's order
 * (FINDINGS part d, "Order of checks", each case captured): {@code --session-id} with {@code
 * --continue}/{@code --resume} but no {@code --fork-session}; {@code --session-id} not a UUID;
 * {@code --input-format stream-json} without stream-json output; a value taken only with
 * stream-json output ({@code --prompt-suggestions true}) without it; {@code
 * --include-partial-messages} without it; root with permissions bypassed (after those three:
 * docs/claude-2.1.328-runs.md part p.1); {@code --resume} without a usable value; then, with the
 * input read, no prompt (or only blanks); last, stream-json output without {@code --verbose} (when
 * a session is resumed, after the tape says whether it is there: {@link #verboseAfterResume}). Each
 * refusal is a text of the profile on stderr, exit 1, stdout empty. A resumed session always exists
 * here: the tape plays it.
 */
final class ClaudeChecks {
  /** A check that stops the run: its name (the journal's {@code stoppedBy}) and what it says. */
  record Refusal(String reason, String stderr) {}

  private final ClaudeProfile profile;
  private final CliArgs args;
  private final Map<String, String> env;
  private final OutputFormat format;

  ClaudeChecks(ClaudeProfile profile, CliArgs args, Map<String, String> env, OutputFormat format) {
    this.profile = profile;
    this.args = args;
    this.env = env;
    this.format = format;
  }

  /**
   * The session a run asks for (claude-code.md §8; FINDINGS part d): {@code --session-id}'s, else
   * the one {@code --resume} names, unless forked; empty when it asks for none (a new session, a
   * fork, {@code --continue}'s).
   */
  static Optional<String> askedSession(CliArgs args) {
    Optional<String> given = args.option("session-id");
    if (given.isPresent() || args.has("fork-session")) {
      return given;
    }
    return args.resumeId();
  }

  /**
   * The check the CLI makes of the raw command line before commander parses it, so before any
   * other, even {@code -v} (docs/claude-2.1.328-runs.md part p): an option whose value is a list of
   * named values ({@link CliOption.EachOf}, {@code --setting-sources}), its last value read; null
   * when the run goes on.
   */
  static Refusal beforeParse(CliCommand root, List<String> argv) {
    Refusal refusal = null;
    for (CliOption option : root.options()) {
      if (option.ownCheck().orElse(null) instanceof CliOption.EachOf each) {
        Optional<String> value = lastRaw(root, argv, option.longFlag());
        Optional<String> unknown = value.isEmpty() ? Optional.empty() : each.unknown(value.get());
        if (unknown.isPresent() && refusal == null) {
          refusal = new Refusal(option.name(), each.refusal().replace("{value}", unknown.get()));
        }
      }
    }
    return refusal;
  }

  /**
   * The last value of {@code flag} in {@code argv} as the CLI reads it before the parse: {@code
   * flag=value} or {@code flag value}, up to {@code --}, the values of other options skipped.
   */
  private static Optional<String> lastRaw(CliCommand root, List<String> argv, String flag) {
    String found = null;
    for (int i = 0; i < argv.size(); i++) {
      String arg = argv.get(i);
      if (arg.equals("--")) {
        break;
      }
      if (arg.startsWith(flag + "=")) {
        found = arg.substring(flag.length() + 1);
      } else if (arg.equals(flag) && i + 1 < argv.size()) {
        found = argv.get(++i);
      } else {
        CliOption other = root.findOption(arg);
        if (other != null && other.arity() == CliOption.Arity.REQUIRED && i + 1 < argv.size()) {
          i++;
        }
        while (other != null
            && other.variadic()
            && i + 1 < argv.size()
            && !isOptionLike(argv.get(i + 1))) {
          i++;
        }
      }
    }
    return Optional.ofNullable(found);
  }

  /** The checks made before the input is read; null when the run goes on. */
  Refusal beforeInput() {
    Optional<String> sessionId = args.option("session-id");
    if (sessionId.isPresent()
        && (args.has("continue") || args.has("resume"))
        && !args.has("fork-session")) {
      return refuse("session-id-needs-fork");
    }
    if (sessionId.isPresent() && !Uuids.isUuid(sessionId.get())) {
      return refuse("session-id-invalid");
    }
    if (args.option("input-format").orElse("text").equals("stream-json")
        && format != OutputFormat.STREAM_JSON) {
      return refuse("input-format-needs-stream");
    }
    Refusal streamOnly = streamJsonOnly();
    if (streamOnly != null) {
      return streamOnly;
    }
    if (args.has("include-partial-messages") && format != OutputFormat.STREAM_JSON) {
      return refuse("partial-needs-stream");
    }
    if (bypassesPermissions() && isRoot() && !"1".equals(env.get("IS_SANDBOX"))) {
      return refuse("root-refused");
    }
    if (args.has("resume") && args.resumeId().isEmpty()) {
      return refuse("resume-no-value");
    }
    if (args.resumeId().isPresent() && !Uuids.isUuid(args.resumeId().get())) {
      return new Refusal(
          "resume-not-uuid", profile.message("resume-not-uuid", "value", args.resumeId().get()));
    }
    return null;
  }

  /**
   * A value the CLI takes only with stream-json output ({@link CliOption.StreamJsonOnly}, a true
   * {@code --prompt-suggestions}) in another format: its refusal; null when there is none.
   */
  private Refusal streamJsonOnly() {
    if (format == OutputFormat.STREAM_JSON) {
      return null;
    }
    for (CliOption option : profile.root().options()) {
      Optional<String> value = args.option(option.name());
      if (value.isPresent()
          && option.ownCheck().orElse(null) instanceof CliOption.StreamJsonOnly only
          && option.among(value.get(), only.values())) {
        return new Refusal(option.name(), only.refusal());
      }
    }
    return null;
  }

  /**
   * The checks made with the prompt known: none or only blanks (after the words a variadic option
   * took are said), then stream-json without {@code --verbose}; null when the run goes on.
   */
  Refusal withInput(String prompt, CliCommand root) {
    if (prompt.isEmpty()) {
      return new Refusal("no-input", swallowed(root) + profile.message("no-input"));
    }
    if (prompt.isBlank()) {
      return refuse("only-whitespace");
    }
    if (format == OutputFormat.STREAM_JSON && !args.has("verbose") && !verboseAfterResume()) {
      return refuse("verbose-needed");
    }
    return null;
  }

  /**
   * Whether the verbose check waits for the tape: a print run resuming a session, which the real
   * CLI looks up first (FINDINGS d, order 7: an unknown one prints its result line even without
   * {@code --verbose}); the tape says whether the session is there ({@link ClaudePrint#admit}).
   */
  boolean verboseAfterResume() {
    return args.resumeId().isPresent()
        && !args.option("input-format").orElse("text").equals("stream-json");
  }

  /** The refusal of stream-json output without {@code --verbose}. */
  Refusal verboseNeeded() {
    return refuse("verbose-needed");
  }

  /**
   * What the CLI says of words a variadic option took when the run has no prompt: for each such
   * option given with more than one word, the last one when it has a blank (a prompt, likely).
   */
  private String swallowed(CliCommand root) {
    StringBuilder said = new StringBuilder();
    List<String> argv = args.argv();
    for (int i = 0; i < argv.size() && !argv.get(i).equals("--"); i++) {
      CliOption option = root.findOption(argv.get(i));
      if (option == null || !option.variadic() || option.arity() == CliOption.Arity.NONE) {
        continue;
      }
      int last = i;
      while (last + 1 < argv.size() && !isOptionLike(argv.get(last + 1))) {
        last++;
      }
      if (last - i >= 2 && argv.get(last).indexOf(' ') >= 0) {
        said.append(profile.message("swallowed", "value", argv.get(last), "option", argv.get(i)));
      }
      i = last;
    }
    return said.toString();
  }

  private static boolean isOptionLike(String word) {
    return word.length() > 1 && word.charAt(0) == '-';
  }

  private boolean bypassesPermissions() {
    return args.has("dangerously-skip-permissions")
        || args.has("allow-dangerously-skip-permissions")
        || args.option("permission-mode").orElse("").equals("bypassPermissions");
  }

  /** Whether this process runs as root: the owner of {@code /proc/self} is its user. */
  private static boolean isRoot() {
    try {
      Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return uid instanceof Integer n && n == 0;
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }

  private Refusal refuse(String key) {
    return new Refusal(key, profile.message(key));
  }
}
