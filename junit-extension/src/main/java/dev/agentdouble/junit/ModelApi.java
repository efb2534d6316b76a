package dev.agentdouble.junit;

import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.model.ModelServer;
import dev.agentdouble.junit.internal.model.ModelTapes;
import dev.agentdouble.junit.internal.process.WorkFolder;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A scripted Anthropic Messages API for the real Claude Code: a Claude tape's model turns (its
 * assistant messages, and the API errors its {@code api_retry} lines and error result tell of)
 * answer the CLI's requests in order, on 127.0.0.1, so that the real {@code claude} runs whole
 * turns, its own tools included, with no account and no network.
 *
 * <p>Give the CLI {@link #environment()}; read what it asked with {@link #requests()}. A JUnit
 * handle: as a {@code @RegisterExtension} field it is closed after each test (an instance field) or
 * after the class (a static one); elsewhere, close it yourself.
 *
 * <pre>{@code
 * @RegisterExtension final ModelApi model = ModelApi.serving("builtin:claude-tool-bash");
 *
 * @Test
 * void myAdapterRunsTheRealCli() throws Exception {
 *   ProcessBuilder claude = model.claude(Path.of("/usr/local/bin/claude"),
 *       List.of("-p", "--output-format", "stream-json", "--verbose", "Run echo hi"));
 *   ...
 *   assertThat(model.requests()).hasSize(2);
 * }
 * }</pre>
 */
public final class ModelApi implements AutoCloseable, AfterEachCallback, AfterAllCallback {
  /** The start of its folder's name, in the system's temporary folder. */
  static final String FOLDER_PREFIX = "agentdouble-model-";

  private final ModelServer server;
  private final Path home;
  private final Path work;
  private boolean closed;

  private ModelApi(ModelServer server, Path home, Path work) {
    this.server = server;
    this.home = home;
    this.work = work;
  }

  /**
   * Serves {@code tape}, a Claude Code stream-json tape (a file, or {@code builtin:NAME}), with no
   * delays.
   *
   * @throws IllegalArgumentException naming the tape and what is wrong with it
   */
  public static ModelApi serving(String tape) {
    return serving(tape, Timing.FAST);
  }

  /** As {@link #serving(String)}, each answer waiting as {@code timing} says. */
  public static ModelApi serving(String tape, Timing timing) {
    Objects.requireNonNull(tape, "tape");
    Objects.requireNonNull(timing, "timing");
    ModelServer server = ModelServer.start(ModelTapes.script(tape, timing), 0, Integer.MAX_VALUE);
    try {
      // owned by this JVM, as the extension's work folder is: a JVM killed while it holds this
      // server leaves the folder behind, and the next start (of either) deletes it
      Path root = WorkFolder.create(FOLDER_PREFIX);
      return new ModelApi(
          server,
          Files.createDirectory(root.resolve("home")),
          Files.createDirectory(root.resolve("work")));
    } catch (IOException | RuntimeException e) {
      server.close();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
  }

  /** {@code ANTHROPIC_BASE_URL}: e.g. {@code http://127.0.0.1:41234}. */
  public String baseUrl() {
    return server.baseUrl();
  }

  /** {@code ANTHROPIC_API_KEY}: requests without it get the API's 401. New for each server. */
  public String apiKey() {
    return server.key();
  }

  /**
   * What to give the CLI: {@code ANTHROPIC_BASE_URL}, {@code ANTHROPIC_API_KEY}, {@code
   * DISABLE_TELEMETRY=1} and {@code CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1} (so it asks nothing
   * else), and {@code HOME} and {@code TMPDIR} of a folder of its own, so that it reads no login
   * and no settings of yours and leaves nothing behind (deleted on {@link #close()}).
   */
  public Map<String, String> environment() {
    Map<String, String> env = new LinkedHashMap<>();
    env.put(ModelTapes.BASE_URL, baseUrl());
    env.put(ModelTapes.API_KEY, apiKey());
    env.put("DISABLE_TELEMETRY", "1");
    env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    env.put("HOME", home.toString());
    env.put("TMPDIR", home.toString());
    return env;
  }

  /**
   * The real CLI at {@code executable} with {@code args}, ready to start: in a working folder of
   * its own ({@link #workFolder()}), with only {@code PATH} of this process's environment and
   * {@link #environment()}.
   */
  public ProcessBuilder claude(Path executable, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(executable.toString());
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).directory(work.toFile());
    Map<String, String> env = builder.environment();
    String path = env.get("PATH");
    env.clear();
    if (path != null) {
      env.put("PATH", path);
    }
    env.putAll(environment());
    return builder;
  }

  /** The working folder {@link #claude} runs in: empty at first, deleted on {@link #close()}. */
  public Path workFolder() {
    return work;
  }

  /**
   * The {@code claude} installed here: the system property {@code agentdouble.claude}, else {@code
   * claude} on {@code PATH}.
   */
  public static Optional<Path> installedClaude() {
    String configured = System.getProperty("agentdouble.claude");
    if (configured != null && !configured.isBlank()) {
      return Optional.of(Path.of(configured));
    }
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir, "claude");
      if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /** The requests the CLI made, oldest first, without the API key. */
  public List<ModelRequest> requests() {
    return server.requests();
  }

  /**
   * How many model requests came after the tape's answers ran out, each answered HTTP 400 naming
   * the tape: the CLI was asked something else than the tape's run was. The real CLI asks again in
   * a few other shapes before it gives up, so one turn past the tape counts several.
   */
  public int requestsPastTheTape() {
    return server.pastTheScript();
  }

  /** Stops the server and deletes its folders. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.close();
    delete(home.getParent());
  }

  /** Closes it after the test when a field of the test instance holds it (not a static one). */
  @Override
  public void afterEach(ExtensionContext context) {
    for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
      for (Class<?> type = instance.getClass(); type != null; type = type.getSuperclass()) {
        for (Field field : type.getDeclaredFields()) {
          if (!Modifier.isStatic(field.getModifiers()) && holdsThis(field, instance)) {
            close();
            return;
          }
        }
      }
    }
  }

  private boolean holdsThis(Field field, Object instance) {
    if (!ModelApi.class.isAssignableFrom(field.getType()) || !field.trySetAccessible()) {
      return false;
    }
    try {
      return field.get(instance) == this;
    } catch (IllegalAccessException e) {
      return false;
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  private static void delete(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
