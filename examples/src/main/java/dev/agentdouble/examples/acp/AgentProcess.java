package dev.agentdouble.examples.acp;

import com.agentclientprotocol.sdk.json.AcpJsonMapper;
import com.agentclientprotocol.sdk.json.TypeRef;
import com.agentclientprotocol.sdk.spec.AcpClientTransport;
import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.JSONRPCMessage;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The agent process, as the SDK's transport: one JSON-RPC message per line on its stdin and stdout.
 * Written for this client instead of the SDK's {@code StdioAcpClientTransport}, which stops reading
 * at the first line that is not a message, never tells when the agent died (requests then wait for
 * their timeout), hides the exit code, and logs the agent's stderr line by line.
 *
 * <p>Here a line that is not a message is skipped and counted; messages are handed to the SDK one
 * at a time on the reader thread, so updates reach the client in the order the agent sent them and
 * before the response that follows them; stderr is drained all the time and its tail kept; and
 * {@link #exited()} completes with the exit code once stdout has ended.
 */
final class AgentProcess implements AcpClientTransport {
  static final int STDERR_LIMIT = 64 * 1024;

  /** How long the agent has to exit after its stdin closed, or after its stdout ended. */
  private static final Duration GRACE = Duration.ofSeconds(2);

  private final Process process;
  private final AcpJsonMapper json;
  private final OutputStream stdin;
  private final CompletableFuture<Integer> exited = new CompletableFuture<>();
  private final AtomicInteger skipped = new AtomicInteger();
  private final ByteArrayOutputStream stderrTail = new ByteArrayOutputStream();
  private final Thread stderr;
  private volatile Thread stdout;

  private AgentProcess(Process process, AcpJsonMapper json) {
    this.process = process;
    this.json = json;
    this.stdin = process.getOutputStream();
    this.stderr = daemon("acp-agent-stderr-" + process.pid(), this::drainStderr);
  }

  /** Starts {@code command}; reading its stdout waits for {@link #connect}. */
  static AgentProcess start(
      List<String> command, Map<String, String> environment, AcpJsonMapper json)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().putAll(environment);
    AgentProcess agent = new AgentProcess(builder.start(), json);
    agent.stderr.start();
    return agent;
  }

  long pid() {
    return process.pid();
  }

  /** Completes with the exit code once the agent's stdout ended and the process exited. */
  CompletableFuture<Integer> exited() {
    return exited;
  }

  /** Stdout lines that were not JSON-RPC messages, skipped. */
  int skippedLines() {
    return skipped.get();
  }

  @Override
  public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    return Mono.fromRunnable(
        () -> {
          stdout = daemon("acp-agent-stdout-" + process.pid(), () -> read(handler));
          stdout.start();
        });
  }

  private void read(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        JSONRPCMessage message;
        try {
          message = AcpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException e) {
          skipped.incrementAndGet();
          continue;
        }
        // the SDK's handler is synchronous up to the client's own: one message at a time, in order
        handler.apply(Mono.just(message)).onErrorResume(e -> Mono.empty()).subscribe();
      }
    } catch (IOException e) {
      // the pipe broke because the process was killed: the output ends here
    } finally {
      ended();
    }
  }

  /** Stdout ended: the agent can no longer answer. It gets a moment to exit, then it is killed. */
  private void ended() {
    try {
      if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
        process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS);
      }
      stderr.join(GRACE.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    exited.complete(process.isAlive() ? -1 : process.exitValue());
  }

  @Override
  public Mono<Void> sendMessage(JSONRPCMessage message) {
    return Mono.fromRunnable(
        () -> {
          try {
            byte[] line = json.writeValueAsBytes(message);
            synchronized (stdin) {
              stdin.write(line);
              stdin.write('\n');
              stdin.flush();
            }
          } catch (IOException e) {
            throw new UncheckedIOException("the agent's stdin is closed", e);
          }
        });
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return json.convertValue(data, typeRef);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  /**
   * Closes the agent's stdin, which ends an ACP agent (Cursor exits 0 when its client goes); kills
   * it and whatever it started if it is still running after a moment.
   */
  @Override
  public void close() {
    synchronized (stdin) {
      try {
        stdin.close();
      } catch (IOException e) {
        // already closed: the agent is gone
      }
    }
    try {
      if (!process.waitFor(GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
        kill();
      }
      Thread reader = stdout;
      if (reader != null) {
        reader.join(2 * GRACE.toMillis());
      }
    } catch (InterruptedException e) {
      kill();
      Thread.currentThread().interrupt();
    }
  }

  /** Kills the agent and whatever it started. */
  void kill() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  /** The last 64 KiB of stderr, from the start of a line. */
  String stderr() {
    synchronized (stderrTail) {
      byte[] all = stderrTail.toByteArray();
      int from = Math.max(0, all.length - STDERR_LIMIT);
      if (from > 0) {
        while (from < all.length && all[from++] != '\n') {
          // skip the cut line
        }
      }
      return new String(all, from, all.length - from, StandardCharsets.UTF_8);
    }
  }

  private void drainStderr() {
    byte[] buffer = new byte[8192];
    try (InputStream in = process.getErrorStream()) {
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        synchronized (stderrTail) {
          stderrTail.write(buffer, 0, n);
          if (stderrTail.size() > 2 * STDERR_LIMIT) {
            byte[] all = stderrTail.toByteArray();
            stderrTail.reset();
            stderrTail.write(all, all.length - STDERR_LIMIT - 1, STDERR_LIMIT + 1);
          }
        }
      }
    } catch (IOException e) {
      // the process was killed: stderr ends here
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }
}
