package dev.agentdouble.fake.internal.profile;

import dev.agentdouble.json.JsonText;
import dev.agentdouble.render.Renderer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One version of Claude Code's surface, as data: a resource of this package, {@code
 * claude-<name>.txt}, read by {@link ProfileResource}'s interpreter (its lines, its command tree, a
 * {@code base} laid under it by {@link ProfileOverlay}); {@code claude-profiles.txt} names the
 * default. Keys at the top: {@code cli claude}; {@code version} (what {@code -v} prints); {@code
 * help} (a resource of this package holding {@code --help} verbatim); {@code stdin-wait-ms} (how
 * long a print run waits for the first byte of a stdin pipe); {@code json-result-leaves-out} and
 * {@code json-verbose-init-leaves-out} (what json leaves out of the stream's lines); {@code
 * initialize} (a resource of this package holding the {@code control_response} line a stdin session
 * answers an {@code initialize} request with, verbatim but for its {@code {request_id}}, {@code
 * {pid}} and {@code {home}}); {@code message <key> <text>}; {@code text-note <start> <note>} (in
 * text format, {@code note} on stderr before a stderr line that starts with {@code start}: {@link
 * Renderer.ClaudeOptions.TextNote}); {@code command claude}, the command tree (options with their
 * arity, choices and value rules; {@code hidden} options; {@code opaque} subcommands).
 *
 * @param name the profile's name, e.g. {@code 2.1.328}
 * @param version the line {@code --version} prints, e.g. {@code 2.1.328 (Claude Code)}
 * @param help what {@code --help} prints, verbatim
 * @param root the root command
 * @param messages the texts by key
 * @param stdinWaitMs how long a print run waits for a stdin pipe's first byte before going on
 *     without it
 * @param jsonResultLeavesOut keys of the stream's result that json leaves out
 * @param jsonVerboseInitLeavesOut capabilities of the stream's init that json's array leaves out
 * @param initializeResource the resource holding the answer to {@code initialize}; read when a
 *     session is asked, not by every run
 * @param textNotes what text format writes on stderr before some stderr lines of the stream
 */
public record ClaudeProfile(
    String name,
    String version,
    String help,
    CliCommand root,
    Map<String, String> messages,
    long stdinWaitMs,
    List<String> jsonResultLeavesOut,
    List<String> jsonVerboseInitLeavesOut,
    String initializeResource,
    List<Renderer.ClaudeOptions.TextNote> textNotes) {

  /** The CLI a Claude profile says it describes ({@code cli claude}), and the program's name. */
  public static final String CLI = "claude";

  static final String PREFIX = "claude-";
  static final String SUFFIX = ".txt";
  private static final String INDEX = "claude-profiles.txt";

  public ClaudeProfile {
    messages = Map.copyOf(messages);
    jsonResultLeavesOut = List.copyOf(jsonResultLeavesOut);
    jsonVerboseInitLeavesOut = List.copyOf(jsonVerboseInitLeavesOut);
    textNotes = List.copyOf(textNotes);
  }

  /** The text {@code key} names; {@code {name}} in it stands for each of {@code values}' pairs. */
  public String message(String key, String... values) {
    String text = messages.get(key);
    if (text == null) {
      throw new IllegalStateException("profile " + name + " has no message " + key);
    }
    for (int i = 0; i + 1 < values.length; i += 2) {
      text = text.replace("{" + values[i] + "}", values[i + 1]);
    }
    return text;
  }

  /**
   * The line a stdin session answers an {@code initialize} control request with (FINDINGS f.3,
   * g.4): the real CLI's, under {@code requestId} (a JSON string, as the client wrote it), with
   * this process's {@code pid} and the folder of output styles under {@code home}.
   */
  public String initializeResponse(String requestId, long pid, String home) {
    String quoted = JsonText.quote(home);
    return PackageResource.text(initializeResource)
        .replace("{request_id}", requestId)
        .replace("{pid}", Long.toString(pid))
        .replace("{home}", quoted.substring(1, quoted.length() - 1));
  }

  /** The surface {@link dev.agentdouble.fake.internal.cli.CliParser} parses a command line with. */
  public Profile.Surface surface() {
    CliCommand none =
        new CliCommand("acp", Optional.empty(), "", List.of(), List.of(), List.of(), true);
    return new Profile.Surface(
        name, root, none, List.of(), false, List.of(), Optional.empty(), false, messages);
  }

  /**
   * The help a print run shows ({@code claude -p -h}): commander lists no command there, so the
   * usage line has no {@code [command]} and the {@code Commands:} part is left out.
   */
  public String printHelp() {
    String text = help.replaceFirst(" \\[command\\]", "");
    int commands = text.indexOf("\n\nCommands:\n");
    return commands < 0 ? text : text.substring(0, commands + 1);
  }

  /** The name of the built-in profile in the resource {@code file} ({@value #PREFIX}NAME.txt). */
  static String stem(String file) {
    return file.substring(PREFIX.length(), file.length() - SUFFIX.length());
  }

  /** The names of the built-in Claude profiles, the newest last. */
  public static List<String> names() {
    List<String> names = new ArrayList<>();
    for (String file : PackageResource.list(PREFIX, SUFFIX)) {
      String name = file.substring(PREFIX.length(), file.length() - SUFFIX.length());
      if (!("claude-" + name + SUFFIX).equals(INDEX) && !name.startsWith("help-")) {
        names.add(name);
      }
    }
    return names;
  }

  /** The default, as {@code claude-profiles.txt} names it. */
  public static ClaudeProfile byDefault() {
    return builtIn(defaultName()).orElseThrow();
  }

  /** The name of the default profile, as {@code claude-profiles.txt} gives it. */
  static String defaultName() {
    for (ProfileLine n : ProfileResource.lines(INDEX).orElseThrow()) {
      if (n.key().equals("default")) {
        return n.value();
      }
    }
    throw new IllegalStateException(INDEX + ": no \"default\" line");
  }

  /** The built-in Claude profile {@code name}; empty when there is none. */
  public static Optional<ClaudeProfile> builtIn(String name) {
    if (!name.startsWith("help-")) {
      // as the build read it: a run interprets no line (issue 34's start-up)
      ClaudeProfile made = PackageResource.profile(PREFIX + name + SUFFIX, ClaudeProfile.class);
      if (made != null) {
        return Optional.of(made);
      }
    }
    return Optional.ofNullable(interpreted(name));
  }

  /** The built-in Claude profile {@code name} as the interpreter reads it; null when none. */
  static ClaudeProfile interpreted(String name) {
    Optional<List<ProfileLine>> top = top(name);
    if (top.isEmpty()) {
      return null;
    }
    List<ProfileLine> lines = top.get();
    for (ProfileLine n : lines) {
      if (n.key().equals(ProfileOverlay.BASE)) {
        lines = ProfileOverlay.resolve(name, lines, Bases.BASES);
        break;
      }
    }
    return read(name, PREFIX + name + SUFFIX, lines);
  }

  /**
   * The profile {@code env}'s {@code AGENTDOUBLE_PROFILE} names for {@code claude}: the default
   * when unset; a Cursor profile, or anything else, is refused with the names it may be.
   */
  public static ClaudeProfile load(Map<String, String> env) throws ProfileException {
    String value = env.get(Profile.ENV);
    if (value == null || value.isEmpty()) {
      return byDefault();
    }
    Optional<ClaudeProfile> builtIn = builtIn(value);
    if (builtIn.isPresent()) {
      return builtIn.get();
    }
    String whose =
        ProfileResource.load(value).isPresent()
            ? "is a profile of cursor-agent, not of claude"
            : "is no profile of claude";
    throw new ProfileException(
        Profile.ENV + "=" + value,
        whose
            + "; claude takes "
            + String.join(", ", names())
            + ", or none for "
            + defaultName()
            + " (the default)");
  }

  /** Whether {@code name} is a built-in Claude profile (for cursor-agent's message). */
  static boolean isBuiltIn(String name) {
    return top(name).isPresent();
  }

  private static Optional<List<ProfileLine>> top(String name) {
    if (!ProfileResource.isName(name) || name.startsWith("help-")) {
      return Optional.empty();
    }
    String file = PREFIX + name + SUFFIX;
    if (file.equals(INDEX)) {
      return Optional.empty();
    }
    return ProfileResource.lines(file);
  }

  /** The built-in Claude profiles as bases. */
  private static final class Bases implements ProfileOverlay.Bases {
    static final ProfileOverlay.Bases BASES = new Bases();

    @Override
    public Optional<List<ProfileLine>> top(String name) {
      return ClaudeProfile.top(name);
    }

    @Override
    public List<String> names() {
      return ClaudeProfile.names();
    }
  }

  private static final List<String> KEYS =
      List.of(
          "cli",
          "version",
          "help",
          "stdin-wait-ms",
          "json-result-leaves-out",
          "json-verbose-init-leaves-out",
          "initialize",
          "command");

  private static ClaudeProfile read(String name, String source, List<ProfileLine> top) {
    Map<String, ProfileLine> one = new HashMap<>();
    Map<String, String> messages = new HashMap<>();
    List<Renderer.ClaudeOptions.TextNote> textNotes = new ArrayList<>();
    for (ProfileLine n : top) {
      if (n.key().equals("message")) {
        int space = n.value().indexOf(' ');
        if (space < 0) {
          throw n.problem("a message is \"message <key> <text>\"");
        }
        messages.put(n.value().substring(0, space), n.value().substring(space + 1));
      } else if (n.key().equals("text-note")) {
        int space = n.value().indexOf(' ');
        if (space <= 0 || space == n.value().length() - 1) {
          throw n.problem("a text note is \"text-note <start of a stderr line> <note>\"");
        }
        textNotes.add(
            new Renderer.ClaudeOptions.TextNote(
                n.value().substring(0, space), n.value().substring(space + 1)));
      } else if (!KEYS.contains(n.key())) {
        throw n.problem("unknown key \"" + n.key() + "\"; a Claude profile has " + KEYS);
      } else if (one.put(n.key(), n) != null) {
        throw n.problem("\"" + n.key() + "\" given twice");
      }
    }
    ProfileLine cli = ProfileResource.required(source, one, "cli");
    if (!cli.value().equals(CLI)) {
      throw cli.problem("\"cli\" must be " + CLI);
    }
    ProfileLine wait = ProfileResource.required(source, one, "stdin-wait-ms");
    long waitMs;
    try {
      waitMs = Long.parseLong(wait.value());
    } catch (NumberFormatException e) {
      throw wait.problem("\"stdin-wait-ms\" must be a whole number of milliseconds");
    }
    String helpFile = ProfileResource.required(source, one, "help").value();
    return new ClaudeProfile(
        name,
        ProfileResource.required(source, one, "version").value(),
        PackageResource.text(helpFile),
        ProfileResource.command(ProfileResource.required(source, one, "command")),
        messages,
        waitMs,
        optionalWords(one, "json-result-leaves-out"),
        optionalWords(one, "json-verbose-init-leaves-out"),
        ProfileResource.required(source, one, "initialize").value(),
        textNotes);
  }

  private static List<String> optionalWords(Map<String, ProfileLine> one, String key) {
    ProfileLine n = one.get(key);
    return n == null ? List.of() : ProfileResource.words(n);
  }
}
