package dev.agentdouble.junit.internal.process;

import dev.agentdouble.contract.AccountModels;
import dev.agentdouble.contract.ControlSecret;
import dev.agentdouble.contract.FakeEnvironment;
import dev.agentdouble.contract.Timing;
import dev.agentdouble.junit.internal.control.ControlPlane;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How one fake is launched: its shims in {@code bin}, the environment baked into them, and writing
 * them again when that environment changes (trust, models, timing) or record mode starts.
 * Thread-safe.
 */
public final class ShimEnvironment {
  private final Path dir;
  private final Path bin;
  private final FakeAgentRuntime runtime;

  // guarded by this
  private final Map<String, String> env = new LinkedHashMap<>();

  /**
   * Writes the shims of the fake whose folder is {@code dir}, answered at {@code url} of {@code
   * plane} (or from its {@link #queue()}), with its gates in {@code gates}.
   */
  public ShimEnvironment(
      ControlPlane plane,
      String url,
      FakeAgentRuntime runtime,
      Path dir,
      Path gates,
      Timing timing,
      Duration gateTimeout)
      throws IOException {
    this.dir = dir;
    this.bin = dir.resolve("bin");
    this.runtime = runtime;
    env.put(FakeEnvironment.URL, url);
    // a tape the test enqueued is taken from there, without asking the control plane
    env.put(FakeEnvironment.QUEUE, queue().toString());
    // the control plane answers only requests with its secret: another local user's cannot read
    // this test's invocations, add stubs, or shut it down
    env.put(ControlSecret.ENV, plane.secret());
    env.put(FakeEnvironment.TIMING, timing.toString());
    env.put(FakeEnvironment.GATES, gates.toString());
    env.put(FakeEnvironment.GATE_TIMEOUT_MS, Long.toString(gateTimeout.toMillis()));
    env.put(FakeEnvironment.JOURNAL, dir.resolve("journal.ndjson").toString());
    // what the CLI keeps between runs (trusted workspaces, session ids) lasts as long as this fake
    env.put(FakeEnvironment.STATE_DIR, state().toString());
    // a run outlives neither its parent nor this JVM, even one killed outright
    env.put(FakeEnvironment.OWNER_PID, Long.toString(ProcessHandle.current().pid()));
    write();
  }

  /** The folder holding {@code cursor-agent}, {@code agent} and {@code claude}. */
  public Path bin() {
    return bin;
  }

  /** {@code PATH} with {@link #bin()} first, then the fake's configuration. */
  public Map<String, String> environment() {
    Map<String, String> all = new LinkedHashMap<>();
    String path = System.getenv("PATH");
    all.put("PATH", bin + (path == null || path.isEmpty() ? "" : File.pathSeparator + path));
    synchronized (this) {
      all.putAll(env);
    }
    return all;
  }

  /** Later runs find every workspace trusted. */
  public synchronized void trustAll() {
    env.put(FakeEnvironment.TRUST, FakeEnvironment.TRUSTED);
    rewrite();
  }

  /** Later runs play an account whose models are {@code declared}. */
  public synchronized void models(AccountModels declared) {
    env.put(FakeEnvironment.MODELS, declared.toString());
    rewrite();
  }

  /** Later runs replay with {@code timing}. */
  public synchronized void timing(Timing timing) {
    env.put(FakeEnvironment.TIMING, timing.toString());
    rewrite();
  }

  /** As made, with {@code timing}: no trusted workspace, nothing the CLI kept between runs. */
  public synchronized void reset(Timing timing) throws IOException {
    env.remove(FakeEnvironment.TRUST);
    env.remove(FakeEnvironment.MODELS);
    env.put(FakeEnvironment.TIMING, timing.toString());
    WorkFolder.empty(state());
    write();
  }

  /**
   * Record mode: the shims run the real CLIs through the recorder, a tape a run in {@code into}.
   */
  public void record(Path into, RealClis real) throws IOException {
    Shim.writeRecording(bin, runtime, into, real, pids());
  }

  /** Where the fake's enqueued tapes wait: a run takes its tape from there without a request. */
  public Path queue() {
    return dir.resolve("queue");
  }

  private Path state() {
    return dir.resolve("state");
  }

  private Path pids() {
    return dir.resolve("pids");
  }

  private synchronized void write() throws IOException {
    Shim.write(bin, runtime, env, pids());
  }

  private void rewrite() {
    try {
      write();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
