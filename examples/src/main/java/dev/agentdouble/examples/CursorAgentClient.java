package dev.agentdouble.examples;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs the Cursor Agent CLI headless: {@code cursor-agent -p --output-format stream-json --trust
 * [--model M] [--force] -- PROMPT}, with stdin closed, and reads what it says.
 *
 * <pre>{@code
 * CursorAgentClient client = CursorAgentClient.builder(Path.of("cursor-agent")).force(true).build();
 * Run run = client.run("Fix the failing test");
 * }</pre>
 */
public final class CursorAgentClient {
  private final Path executable;
  private final Optional<String> model;
  private final boolean force;
  private final boolean trustWorkspace;
  private final Optional<Path> workspace;
  private final Duration timeout;
  private final Duration retryDelay;
  private final Map<String, String> environment;

  private CursorAgentClient(Builder b) {
    this.executable = b.executable;
    this.model = b.model;
    this.force = b.force;
    this.trustWorkspace = b.trustWorkspace;
    this.workspace = b.workspace;
    this.timeout = b.timeout;
    this.retryDelay = b.retryDelay;
    this.environment = Map.copyOf(b.environment);
  }

  /** A client of the CLI at {@code executable}. */
  public static Builder builder(Path executable) {
    return new Builder(executable);
  }

  /** Configures a {@link CursorAgentClient}. */
  public static final class Builder {
    private final Path executable;
    private Optional<String> model = Optional.empty();
    private boolean force;
    private boolean trustWorkspace = true;
    private Optional<Path> workspace = Optional.empty();
    private Duration timeout = Duration.ofMinutes(10);
    private Duration retryDelay = Duration.ofSeconds(1);
    private final Map<String, String> environment = new LinkedHashMap<>();

    private Builder(Path executable) {
      this.executable = executable;
    }

    /** {@code --model M}. */
    public Builder model(String model) {
      this.model = Optional.of(model);
      return this;
    }

    /** {@code --force}: let the agent run commands and write files without asking. */
    public Builder force(boolean force) {
      this.force = force;
      return this;
    }

    /**
     * {@code --trust} (the default): trust the workspace. Since 2026.09 a headless run in a
     * workspace nobody has trusted yet (every workspace of a fresh CI machine) stops at the trust
     * gate with exit 1; {@code false} leaves that to whoever set the machine up.
     */
    public Builder trustWorkspace(boolean trust) {
      this.trustWorkspace = trust;
      return this;
    }

    /** {@code --workspace DIR}. */
    public Builder workspace(Path workspace) {
      this.workspace = Optional.of(workspace);
      return this;
    }

    /** How long a run may take before the CLI is killed (default 10 minutes). */
    public Builder timeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** How long {@link CursorAgentClient#runWithRetries} waits between attempts (default 1 s). */
    public Builder retryDelay(Duration delay) {
      this.retryDelay = delay;
      return this;
    }

    /** An environment variable for the CLI, e.g. {@code CURSOR_API_KEY}. */
    public Builder environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    public CursorAgentClient build() {
      return new CursorAgentClient(this);
    }
  }

  /** Starts a {@code stream-json} run; its events go to {@code listener} as they arrive. */
  public AgentRun start(String prompt, Consumer<AgentEvent> listener) {
    try {
      return new AgentRun(command("stream-json", prompt), environment, timeout, listener);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + executable, e);
    }
  }

  /** Starts a {@code stream-json} run; watch it with {@link AgentRun#events()}. */
  public AgentRun start(String prompt) {
    return start(prompt, event -> {});
  }

  /** Runs the agent to the end, passing each event to {@code listener} as it arrives. */
  public Run run(String prompt, Consumer<AgentEvent> listener) throws InterruptedException {
    try (AgentRun run = start(prompt, listener)) {
      return run.await();
    }
  }

  /** Runs the agent to the end. */
  public Run run(String prompt) throws InterruptedException {
    return run(prompt, event -> {});
  }

  /** Runs the agent, again after a failure that may be passing, at most {@code attempts} times. */
  public Run runWithRetries(String prompt, int attempts) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return run(prompt);
      } catch (AgentException e) {
        if (attempt >= attempts || !e.retryable()) {
          throw e;
        }
        Thread.sleep(retryDelay.toMillis());
      }
    }
  }

  /** Runs with {@code --output-format json}: one result object at the end, nothing before. */
  public JsonResult json(String prompt) throws InterruptedException {
    StringBuilder out = new StringBuilder();
    CliProcess.Outcome outcome = finish(command("json", prompt), out);
    Optional<JsonNode> result =
        stdout(out)
            .lines()
            .filter(l -> !l.isBlank())
            .reduce((first, second) -> second)
            .flatMap(StreamJson::object)
            .filter(o -> o.path("type").asText("").equals("result"));
    if (outcome.exitCode() == 0 && result.isPresent()) {
      JsonNode r = result.get();
      if (r.path("is_error").asBoolean(false)) {
        throw new AgentException(
            AgentException.Kind.FAILED,
            "cursor-agent reported an error: " + r.path("result").asText(""),
            0,
            outcome.stderr(),
            List.of());
      }
      return new JsonResult(
          r.path("result").asText(""),
          r.path("session_id").asText(""),
          r.path("duration_ms").asLong(0));
    }
    throw failure(outcome);
  }

  /** Runs with {@code --output-format text} and returns what the CLI printed. */
  public String text(String prompt) throws InterruptedException {
    StringBuilder out = new StringBuilder();
    CliProcess.Outcome outcome = finish(command("text", prompt), out);
    if (outcome.exitCode() == 0) {
      return stdout(out);
    }
    throw failure(outcome);
  }

  private CliProcess.Outcome finish(List<String> command, StringBuilder out)
      throws InterruptedException {
    CliProcess process;
    try {
      process =
          CliProcess.start(
              command,
              environment,
              timeout,
              line -> {
                synchronized (out) {
                  out.append(line).append('\n');
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + executable, e);
    }
    try {
      return process.await(() -> false);
    } finally {
      process.kill();
    }
  }

  private static String stdout(StringBuilder out) {
    synchronized (out) {
      return out.toString();
    }
  }

  private AgentException failure(CliProcess.Outcome outcome) {
    if (outcome.timedOut()) {
      return AgentException.timedOut(timeout, outcome.exitCode(), outcome.stderr(), List.of());
    }
    if (outcome.exitCode() > 128) {
      return AgentException.killed(outcome.exitCode(), outcome.stderr(), List.of());
    }
    if (outcome.exitCode() != 0) {
      return AgentException.failed(outcome.exitCode(), outcome.stderr(), List.of());
    }
    return AgentException.noResult(outcome.exitCode(), outcome.stderr(), List.of());
  }

  /** The command line of one run: the prompt after {@code --}, so a leading dash stays text. */
  List<String> command(String format, String prompt) {
    if (prompt.isBlank()) {
      throw new IllegalArgumentException("prompt must not be blank");
    }
    List<String> command =
        new ArrayList<>(List.of(executable.toString(), "-p", "--output-format", format));
    if (trustWorkspace) {
      command.add("--trust");
    }
    model.ifPresent(m -> command.addAll(List.of("--model", m)));
    if (force) {
      command.add("--force");
    }
    workspace.ifPresent(w -> command.addAll(List.of("--workspace", w.toString())));
    command.add("--");
    command.add(prompt);
    return command;
  }
}
