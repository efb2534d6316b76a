package dev.agentdouble.junit;

import dev.agentdouble.contract.InvocationRecord;
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
 * can gain a part without another constructor (the constructors it had are kept, deprecated): the
 * fake's {@link InvocationRecord} and the permission answers of its ACP turn.
 */
public final class Invocation {
  private final InvocationRecord record;
  private final List<String> permissionAnswers;

  private Invocation(InvocationRecord record, List<String> permissionAnswers) {
    this.record = record;
    this.permissionAnswers = List.copyOf(permissionAnswers);
  }

  /** A builder of an invocation: every part empty (pid 0) until set, and the CLI to be set. */
  public static Builder builder() {
    return new Builder(InvocationRecord.builder());
  }

  /** A builder holding every part of this invocation, to change some. */
  public Builder toBuilder() {
    return new Builder(record.toBuilder()).permissionAnswers(permissionAnswers);
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
        new InvocationRecord(
            argv, prompt, cwd, outputFormat, model, stdin, pid, env, stoppedBy, cli, session),
        permissionAnswers);
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
        new InvocationRecord(argv, prompt, cwd, outputFormat, model, stdin, pid, env, stoppedBy),
        permissionAnswers);
  }

  /** The arguments after the program name. */
  public List<String> argv() {
    return record.argv();
  }

  /** The prompt (from argv, or from stdin when argv has none). */
  public String prompt() {
    return record.prompt();
  }

  /** The working directory ({@code --workspace} when given). */
  public String cwd() {
    return record.cwd();
  }

  /** The requested {@code --output-format}, or the profile's default. */
  public String outputFormat() {
    return record.outputFormat();
  }

  /** The {@code --model}, if given. */
  public Optional<String> model() {
    return record.model();
  }

  /** What the fake read on stdin, if stdin was not a terminal. */
  public Optional<String> stdin() {
    return record.stdin();
  }

  /** The fake's process id. */
  public long pid() {
    return record.pid();
  }

  /**
   * {@code CURSOR_*} variables (values redacted) and those named in {@code
   * AGENTDOUBLE_FORWARD_ENV}.
   */
  public Map<String, String> env() {
    return record.env();
  }

  /**
   * Why the CLI ended the run before it needed a tape, e.g. {@code trust-gate} (a print run in an
   * untrusted workspace) or {@code resume} (a bad {@code --resume} id); empty for a run a tape
   * answered.
   */
  public Optional<String> stoppedBy() {
    return record.stoppedBy();
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
    return record.cli();
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
    return record.session();
  }

  /** A one-line summary for failure messages. */
  public String summary() {
    String p = prompt().length() > 60 ? prompt().substring(0, 57) + "..." : prompt();
    return "prompt \""
        + p.replace("\n", "\\n")
        + "\", "
        + outputFormat()
        + model().map(m -> ", model " + m).orElse("")
        + ", argv "
        + argv()
        + stoppedBy().map(s -> ", stopped by the CLI: " + s).orElse("")
        + (permissionAnswers.isEmpty() ? "" : ", permission answers " + permissionAnswers);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Invocation i
        && record.equals(i.record)
        && permissionAnswers.equals(i.permissionAnswers);
  }

  @Override
  public int hashCode() {
    return Objects.hash(record, permissionAnswers);
  }

  /** Every part, named, as a record writes itself. */
  @Override
  public String toString() {
    return "Invocation[argv="
        + argv()
        + ", prompt="
        + prompt()
        + ", cwd="
        + cwd()
        + ", outputFormat="
        + outputFormat()
        + ", model="
        + model()
        + ", stdin="
        + stdin()
        + ", pid="
        + pid()
        + ", env="
        + env()
        + ", stoppedBy="
        + stoppedBy()
        + ", permissionAnswers="
        + permissionAnswers
        + ", cli="
        + cli()
        + ", session="
        + session()
        + "]";
  }

  /** Builds an {@link Invocation}, a part at a time. */
  public static final class Builder {
    private final InvocationRecord.Builder record;
    private List<String> permissionAnswers = List.of();

    private Builder(InvocationRecord.Builder record) {
      this.record = record;
    }

    /** Sets {@link Invocation#argv()}. */
    public Builder argv(List<String> argv) {
      record.argv(argv);
      return this;
    }

    /** Sets {@link Invocation#prompt()}. */
    public Builder prompt(String prompt) {
      record.prompt(prompt);
      return this;
    }

    /** Sets {@link Invocation#cwd()}. */
    public Builder cwd(String cwd) {
      record.cwd(cwd);
      return this;
    }

    /** Sets {@link Invocation#outputFormat()}. */
    public Builder outputFormat(String outputFormat) {
      record.outputFormat(outputFormat);
      return this;
    }

    /** Sets {@link Invocation#model()}. */
    public Builder model(Optional<String> model) {
      record.model(model);
      return this;
    }

    /** Sets {@link Invocation#stdin()}. */
    public Builder stdin(Optional<String> stdin) {
      record.stdin(stdin);
      return this;
    }

    /** Sets {@link Invocation#pid()}. */
    public Builder pid(long pid) {
      record.pid(pid);
      return this;
    }

    /** Sets {@link Invocation#env()}. */
    public Builder env(Map<String, String> env) {
      record.env(env);
      return this;
    }

    /** Sets {@link Invocation#stoppedBy()}. */
    public Builder stoppedBy(Optional<String> stoppedBy) {
      record.stoppedBy(stoppedBy);
      return this;
    }

    /** Sets {@link Invocation#permissionAnswers()}. */
    public Builder permissionAnswers(List<String> permissionAnswers) {
      this.permissionAnswers = Objects.requireNonNull(permissionAnswers, "permissionAnswers");
      return this;
    }

    /** Sets {@link Invocation#cli()}. */
    public Builder cli(String cli) {
      record.cli(cli);
      return this;
    }

    /** Sets {@link Invocation#session()}. */
    public Builder session(Optional<String> session) {
      record.session(session);
      return this;
    }

    /**
     * The invocation.
     *
     * @throws IllegalArgumentException when its CLI was not set
     */
    public Invocation build() {
      return new Invocation(record.build(), permissionAnswers);
    }
  }
}
