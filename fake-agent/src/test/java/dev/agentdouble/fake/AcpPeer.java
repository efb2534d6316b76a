package dev.agentdouble.fake;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An ACP client for the tests: runs the launcher as {@code cursor-agent acp} through real pipes,
 * sends requests, collects every line the agent writes, and answers permission requests with a
 * policy. Every wait is bounded.
 */
final class AcpPeer implements AutoCloseable {
  /** Lines of any length: a catalog tape carries a tool output of tens of MiB. */
  private static final ObjectMapper JSON =
      new ObjectMapper(
          JsonFactory.builder()
              .streamReadConstraints(
                  StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
              .build());

  private final Process process;
  private final OutputStream stdin;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final CompletableFuture<byte[]> stderr;
  private final List<String> seen = new ArrayList<>();
  private Function<JsonNode, String> permission = request -> "allow-once";
  private int nextId = 1;

  AcpPeer(Map<String, String> env, String... args) {
    this(FakeProcess.launcher(), env, args.length == 0 ? List.of("acp") : List.of(args));
  }

  /** Runs {@code program} with {@code args}: a shell that execs the launcher, say. */
  AcpPeer(Path program, Map<String, String> env, List<String> args) {
    try {
      process = FakeProcess.builder(program, env, args).start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    stdin = process.getOutputStream();
    stderr = FakeProcess.drain(process.getErrorStream());
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader in =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                  lines.add(line);
                }
              } catch (IOException e) {
                // the process went away
              } finally {
                lines.add("\u0000EOF");
              }
            },
            "acp-peer");
    reader.setDaemon(true);
    reader.start();
  }

  /** How permission requests are answered: the option id for a request. */
  AcpPeer answering(Function<JsonNode, String> policy) {
    this.permission = policy;
    return this;
  }

  /** The agent's process id. */
  long pid() {
    return process.pid();
  }

  /** Writes bytes to the agent's stdin as they are; false when the agent no longer reads it. */
  boolean sendBytes(byte[] bytes) {
    try {
      stdin.write(bytes);
      stdin.flush();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Reads until the agent's next request of {@code method}; returns it, unanswered. */
  JsonNode request(String method) {
    while (true) {
      String line = next();
      if (line.startsWith("{")) {
        JsonNode message = parse(line);
        if (message.path("method").asText().equals(method) && message.has("id")) {
          return message;
        }
      }
    }
  }

  /** Answers the agent's {@code request}: {@code body} is what follows the id, e.g. a result. */
  void reply(JsonNode request, String body) {
    sendLine("{\"jsonrpc\":\"2.0\",\"id\":" + request.get("id") + "," + body + "}");
  }

  void sendLine(String line) {
    try {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends a request; returns its id. */
  int send(String method, String paramsJson) {
    int id = nextId++;
    sendLine(
        "{\"jsonrpc\":\"2.0\",\"id\":"
            + id
            + ",\"method\":\""
            + method
            + "\",\"params\":"
            + paramsJson
            + "}");
    return id;
  }

  void notify(String method, String paramsJson) {
    sendLine("{\"jsonrpc\":\"2.0\",\"method\":\"" + method + "\",\"params\":" + paramsJson + "}");
  }

  /** Sends a request and returns its response, answering permission requests meanwhile. */
  JsonNode call(String method, String paramsJson) {
    return response(send(method, paramsJson));
  }

  /** Reads until the response to {@code id}; permission requests are answered by the policy. */
  JsonNode response(int id) {
    while (true) {
      String line = next();
      if (!line.startsWith("{")) {
        continue; // not a message: kept in seen() for the test to look at
      }
      JsonNode message = parse(line);
      if (message.path("method").asText().equals("session/request_permission")) {
        sendLine(
            "{\"jsonrpc\":\"2.0\",\"id\":"
                + message.get("id")
                + ",\"result\":{\"outcome\":{\"outcome\":\"selected\",\"optionId\":\""
                + permission.apply(message)
                + "\"}}}");
      }
      if (!message.has("method") && message.path("id").asInt(-1) == id) {
        return message;
      }
    }
  }

  /** Reads lines until one satisfies {@code test}; returns it. */
  String until(Predicate<String> test) {
    while (true) {
      String line = next();
      if (test.test(line)) {
        return line;
      }
    }
  }

  /** The next line the agent wrote, within 30 s. */
  String next() {
    try {
      String line = lines.poll(FakeProcess.TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError("no line from the agent within 30 s; seen: " + seen);
      }
      if (line.equals("\u0000EOF")) {
        lines.add(line);
        throw new AssertionError("the agent closed stdout; seen: " + seen + "; stderr: " + err());
      }
      seen.add(line);
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Every line read so far. */
  List<String> seen() {
    return List.copyOf(seen);
  }

  /** The session updates read so far, by kind, e.g. {@code agent_message_chunk}. */
  List<JsonNode> updates(String kind) {
    List<JsonNode> updates = new ArrayList<>();
    for (String line : seen) {
      if (!line.startsWith("{")) {
        continue;
      }
      JsonNode m = parse(line);
      JsonNode update = m.path("params").path("update");
      if (m.path("method").asText().equals("session/update")
          && update.path("sessionUpdate").asText().equals(kind)) {
        updates.add(update);
      }
    }
    return updates;
  }

  /** Initialises, authenticates and opens a session in {@code cwd}; returns the session id. */
  String open(String cwd) {
    call("initialize", "{\"protocolVersion\":1,\"clientCapabilities\":{}}");
    call("authenticate", "{\"methodId\":\"cursor_login\"}");
    JsonNode created = call("session/new", "{\"cwd\":\"" + cwd + "\",\"mcpServers\":[]}");
    return created.path("result").path("sessionId").asText();
  }

  static String prompt(String session, String text) {
    return "{\"sessionId\":\""
        + session
        + "\",\"prompt\":[{\"type\":\"text\",\"text\":\""
        + text
        + "\"}]}";
  }

  /** Closes stdin and waits for the process to end; returns its exit status. */
  int finish() {
    try {
      stdin.close();
      if (!process.waitFor(FakeProcess.TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError("the agent did not end within 30 s after stdin closed");
      }
      return process.exitValue();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Waits for the process to end without closing stdin (it died); returns its exit status. */
  int awaitExit() {
    try {
      if (!process.waitFor(FakeProcess.TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError("the agent did not end within 30 s");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  String err() {
    try {
      return new String(stderr.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
    } catch (Exception e) {
      return "(stderr still open)";
    }
  }

  static JsonNode parse(String line) {
    try {
      return JSON.readTree(line);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + line, e);
    }
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      FakeProcess.kill(process);
    }
  }
}
