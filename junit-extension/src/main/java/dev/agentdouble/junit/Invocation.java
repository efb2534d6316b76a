package dev.agentdouble.junit;

import dev.agentdouble.contract.InvocationRecord;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One run of the fake agent, as the code under test started it.
 *
 * <p>A value: equal when every part is. The extension makes it from what the fake reported; a test
 * that needs one of its own (to hand to code that takes one) builds it with {@link #builder()}, and
 * a copy with one part changed with {@link #toBuilder()}. It is a class and not a record so that it
 * can gain a part without another constructor: the constructors it had are kept, deprecated.
 */
public final class Invocation {
  private final List<String> argv;
  private final String prompt;
  private final String cwd;
  private final String outputFormat;
  private final Optional<String> model;
  private final Optional<String> stdin;
  private final long pid;
  private final Map<String, String> env;
  private final Optional<String> stoppedBy;
  private final List<String> permissionAnswers;
  private final String cli;
  private final Optional<String> session;

  private Invocation(Builder b) {
    this.argv = List.copyOf(b.argv);
    this.prompt = Objects.requireNonNull(b.prompt, "prompt");
    this.cwd = Objects.requireNonNull(b.cwd, "cwd");
    this.outputFormat = Objects.requireNonNull(b.outputFormat, "outputFormat");
    this.model = Objects.requireNonNull(b.model, "model");
    this.stdin = Objects.requireNonNull(b.stdin, "stdin");
    this.pid = b.pid;
    this.env = Collections.unmodifiableMap(new LinkedHashMap<>(b.env));
    this.stoppedBy = Objects.requireNonNull(b.stoppedBy, "stoppedBy");
    this.permissionAnswers = List.copyOf(b.permissionAnswers);
    this.cli = Objects.requireNonNull(b.cli, "cli");
    this.session = Objects.requireNonNull(b.session, "session");
    if (cli.isEmpty()) {
      throw new IllegalArgumentException("an invocation's cli is not empty: set it with cli(..)");
    }
  }

  /** A builder of an invocation: every part empty (pid 0) until set, and the CLI to be set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every part of this invocation, to change some. */
  public Builder toBuilder() {
    return new Builder()
        .argv(argv)
        .prompt(prompt)
        .cwd(cwd)
        .outputFormat(outputFormat)
        .model(model)
        .stdin(stdin)
        .pid(pid)
        .env(env)
        .stoppedBy(stoppedBy)
        .permissionAnswers(permissionAnswers)
        .cli(cli)
        .session(session);
  }

  /**
   * An invocation of every part, in the order the record of an earlier version had them.
   *
   * @deprecated use {@link #builder()}, one call a part ({@code argv(..)}, {@code prompt(..)}, ...,
   *     then {@code build()}); a later part is then a call more, not another constructor
   */
  @Deprecated
  public Invocation(
      List<String> argv,
      String prompt,
      String cwd,
      String outputFormat,
      Optional<String> model,
      Optional<String> stdin,
      long pid,
      Map<String, String> env,
      Optional<String> stoppedBy,
      List<String> permissionAnswers,
      String cli,
      Optional<String> session) {
    this(
        new Builder()
            .argv(argv)
            .prompt(prompt)
            .cwd(cwd)
            .outputFormat(outputFormat)
            .model(model)
            .stdin(stdin)
            .pid(pid)
            .env(env)
            .stoppedBy(stoppedBy)
            .permissionAnswers(permissionAnswers)
            .cli(cli)
            .session(session));
  }

  /**
   * A run of {@code cursor-agent} with no session id, as 0.1.0 made it.
   *
   * @deprecated an invocation has its CLI and its session: use {@link #builder()}, with {@code
   *     .cli("cursor-agent")} for what this made
   */
  @Deprecated
  public Invocation(
      List<String> argv,
      String prompt,
      String cwd,
      String outputFormat,
      Optional<String> model,
      Optional<String> stdin,
      long pid,
      Map<String, String> env,
      Optional<String> stoppedBy,
      List<String> permissionAnswers) {
    this(
        new Builder()
            .argv(argv)
            .prompt(prompt)
            .cwd(cwd)
            .outputFormat(outputFormat)
            .model(model)
            .stdin(stdin)
            .pid(pid)
            .env(env)
            .stoppedBy(stoppedBy)
            .permissionAnswers(permissionAnswers)
            .cli(InvocationRecord.CLI_CURSOR));
  }

  /** The arguments after the program name. */
  public List<String> argv() {
    return argv;
  }

  /** The prompt (from argv, or from stdin when argv has none). */
  public String prompt() {
    return prompt;
  }

  /** The working directory ({@code --workspace} when given). */
  public String cwd() {
    return cwd;
  }

  /** The requested {@code --output-format}, or the profile's default. */
  public String outputFormat() {
    return outputFormat;
  }

  /** The {@code --model}, if given. */
  public Optional<String> model() {
    return model;
  }

  /** What the fake read on stdin, if stdin was not a terminal. */
  public Optional<String> stdin() {
    return stdin;
  }

  /** The fake's process id. */
  public long pid() {
    return pid;
  }

  /**
   * {@code CURSOR_*} variables (values redacted) and those named in {@code
   * AGENTDOUBLE_FORWARD_ENV}.
   */
  public Map<String, String> env() {
    return env;
  }

  /**
   * Why the CLI ended the run before it needed a tape, e.g. {@code trust-gate} (a print run in an
   * untrusted workspace) or {@code resume} (a bad {@code --resume} id); empty for a run a tape
   * answered.
   */
  public Optional<String> stoppedBy() {
    return stoppedBy;
  }

  /**
   * In a turn of an ACP session ({@code outputFormat} {@code acp}), the options the client chose
   * when the agent asked for permission, in order ({@code allow-once}, {@code allow-always}, {@code
   * reject-once}, or {@code cancelled}, {@code error}, {@code invalid}: see {@link
   * FakeAgent#permissionAnswers()}), as far as it had answered when this was read; empty elsewhere.
   */
  public List<String> permissionAnswers() {
    return permissionAnswers;
  }

  /**
   * The CLI the fake played: {@code cursor-agent} (started as {@code cursor-agent} or {@code
   * agent}) or {@code claude}, the word a tape's header says it with.
   */
  public String cli() {
    return cli;
  }

  /**
   * The id of the session the run asked for or was given, the one the fake's output carries in
   * place of the tape's where the tape's is a variable ({@code vars.sessionId}, as in a recorded
   * tape): the id given ({@code --session-id} of claude, {@code --new-session-id} of cursor-agent),
   * the one resumed by id ({@code --resume ID} without {@code --fork-session}), an ACP turn's
   * session, or a fresh one (a new session, a fork); empty for a run that continues the tape's own
   * session ({@code --continue}, cursor-agent's {@code --resume} without an id) and for a run the
   * CLI stopped that asked for none.
   */
  public Optional<String> session() {
    return session;
  }

  /** A one-line summary for failure messages. */
  public String summary() {
    String p = prompt.length() > 60 ? prompt.substring(0, 57) + "..." : prompt;
    return "prompt \""
        + p.replace("\n", "\\n")
        + "\", "
        + outputFormat
        + model.map(m -> ", model " + m).orElse("")
        + ", argv "
        + argv
        + stoppedBy.map(s -> ", stopped by the CLI: " + s).orElse("")
        + (permissionAnswers.isEmpty() ? "" : ", permission answers " + permissionAnswers);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Invocation i
        && argv.equals(i.argv)
        && prompt.equals(i.prompt)
        && cwd.equals(i.cwd)
        && outputFormat.equals(i.outputFormat)
        && model.equals(i.model)
        && stdin.equals(i.stdin)
        && pid == i.pid
        && env.equals(i.env)
        && stoppedBy.equals(i.stoppedBy)
        && permissionAnswers.equals(i.permissionAnswers)
        && cli.equals(i.cli)
        && session.equals(i.session);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        argv,
        prompt,
        cwd,
        outputFormat,
        model,
        stdin,
        pid,
        env,
        stoppedBy,
        permissionAnswers,
        cli,
        session);
  }

  /** Every part, named, as a record writes itself. */
  @Override
  public String toString() {
    return "Invocation[argv="
        + argv
        + ", prompt="
        + prompt
        + ", cwd="
        + cwd
        + ", outputFormat="
        + outputFormat
        + ", model="
        + model
        + ", stdin="
        + stdin
        + ", pid="
        + pid
        + ", env="
        + env
        + ", stoppedBy="
        + stoppedBy
        + ", permissionAnswers="
        + permissionAnswers
        + ", cli="
        + cli
        + ", session="
        + session
        + "]";
  }

  /** Builds an {@link Invocation}, a part at a time. */
  public static final class Builder {
    private List<String> argv = List.of();
    private String prompt = "";
    private String cwd = "";
    private String outputFormat = "";
    private Optional<String> model = Optional.empty();
    private Optional<String> stdin = Optional.empty();
    private long pid = 0;
    private Map<String, String> env = Map.of();
    private Optional<String> stoppedBy = Optional.empty();
    private List<String> permissionAnswers = List.of();
    private String cli = "";
    private Optional<String> session = Optional.empty();

    private Builder() {}

    /** Sets {@link Invocation#argv()}. */
    public Builder argv(List<String> argv) {
      this.argv = argv;
      return this;
    }

    /** Sets {@link Invocation#prompt()}. */
    public Builder prompt(String prompt) {
      this.prompt = prompt;
      return this;
    }

    /** Sets {@link Invocation#cwd()}. */
    public Builder cwd(String cwd) {
      this.cwd = cwd;
      return this;
    }

    /** Sets {@link Invocation#outputFormat()}. */
    public Builder outputFormat(String outputFormat) {
      this.outputFormat = outputFormat;
      return this;
    }

    /** Sets {@link Invocation#model()}. */
    public Builder model(Optional<String> model) {
      this.model = model;
      return this;
    }

    /** Sets {@link Invocation#stdin()}. */
    public Builder stdin(Optional<String> stdin) {
      this.stdin = stdin;
      return this;
    }

    /** Sets {@link Invocation#pid()}. */
    public Builder pid(long pid) {
      this.pid = pid;
      return this;
    }

    /** Sets {@link Invocation#env()}. */
    public Builder env(Map<String, String> env) {
      this.env = env;
      return this;
    }

    /** Sets {@link Invocation#stoppedBy()}. */
    public Builder stoppedBy(Optional<String> stoppedBy) {
      this.stoppedBy = stoppedBy;
      return this;
    }

    /** Sets {@link Invocation#permissionAnswers()}. */
    public Builder permissionAnswers(List<String> permissionAnswers) {
      this.permissionAnswers = permissionAnswers;
      return this;
    }

    /** Sets {@link Invocation#cli()}. */
    public Builder cli(String cli) {
      this.cli = cli;
      return this;
    }

    /** Sets {@link Invocation#session()}. */
    public Builder session(Optional<String> session) {
      this.session = session;
      return this;
    }

    /**
     * The invocation.
     *
     * @throws IllegalArgumentException when its CLI was not set
     */
    public Invocation build() {
      return new Invocation(this);
    }
  }
}
