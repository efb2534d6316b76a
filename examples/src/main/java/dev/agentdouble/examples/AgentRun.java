package dev.agentdouble.examples;

import dev.agentdouble.examples.AgentEvent.Result;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@code stream-json} run in progress. Events reach the listener (on a reader thread) as the CLI
 * writes them; {@link #events()} shows those seen so far; {@link #await()} gives the outcome.
 * Closing it kills the CLI if it is still running.
 */
public final class AgentRun implements AutoCloseable {
  private final Duration timeout;
  private final Consumer<AgentEvent> listener;
  private final List<AgentEvent> events = new ArrayList<>();
  private final AtomicInteger skipped = new AtomicInteger();
  private volatile RuntimeException listenerFailure;
  private final CliProcess process;

  AgentRun(
      List<String> command,
      Map<String, String> environment,
      Duration timeout,
      Consumer<AgentEvent> listener)
      throws IOException {
    this.timeout = timeout;
    this.listener = listener;
    this.process = CliProcess.start(command, environment, timeout, this::line);
  }

  private void line(String line) {
    if (line.isBlank()) {
      return;
    }
    Optional<AgentEvent> event = StreamJson.object(line).map(StreamJson::event);
    if (event.isEmpty()) {
      skipped.incrementAndGet();
      return;
    }
    synchronized (events) {
      events.add(event.get());
    }
    if (listenerFailure == null) {
      try {
        listener.accept(event.get());
      } catch (RuntimeException e) {
        listenerFailure = e;
      }
    }
  }

  /** The events seen so far, in order. */
  public List<AgentEvent> events() {
    synchronized (events) {
      return List.copyOf(events);
    }
  }

  /** Stdout lines so far that were not JSON objects (skipped). */
  public int skippedLines() {
    return skipped.get();
  }

  /** The CLI's process id. */
  public long pid() {
    return process.pid();
  }

  /**
   * Waits for the run to end (at most the client's timeout, counted from the start) and returns it.
   *
   * @throws AgentException when the run failed, died, timed out or ended without a result
   * @throws RuntimeException what the listener threw, once the run has ended
   */
  public Run await() throws InterruptedException {
    CliProcess.Outcome outcome = process.await(() -> result().isPresent());
    if (listenerFailure != null) {
      throw listenerFailure;
    }
    List<AgentEvent> seen = events();
    Optional<Result> result = result();
    int exit = outcome.exitCode();
    if (outcome.timedOut()) {
      throw AgentException.timedOut(timeout, exit, outcome.stderr(), seen);
    }
    if (result.isPresent() && (exit == 0 || outcome.lingered())) {
      if (result.get().isError()) {
        throw new AgentException(
            AgentException.Kind.FAILED,
            "cursor-agent reported an error: " + result.get().text(),
            exit,
            outcome.stderr(),
            seen);
      }
      return Run.of(seen, result.get(), exit, outcome.stderr(), skipped.get());
    }
    if (exit > 128) {
      throw AgentException.killed(exit, outcome.stderr(), seen);
    }
    if (exit != 0) {
      throw AgentException.failed(exit, outcome.stderr(), seen);
    }
    throw AgentException.noResult(exit, outcome.stderr(), seen);
  }

  private Optional<Result> result() {
    synchronized (events) {
      for (int i = events.size() - 1; i >= 0; i--) {
        if (events.get(i) instanceof Result r) {
          return Optional.of(r);
        }
      }
      return Optional.empty();
    }
  }

  /** Kills the CLI if it is still running. */
  @Override
  public void close() {
    process.kill();
  }
}
