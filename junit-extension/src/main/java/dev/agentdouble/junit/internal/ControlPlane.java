package dev.agentdouble.junit.internal;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.common.Notifier;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.util.OptionalInt;

/**
 * The WireMock server every fake agent of this JVM asks which tape to replay. Bound to loopback on
 * a free port; tests keep to their own URL path, so stubs never cross between tests.
 */
public final class ControlPlane implements AutoCloseable {
  private final WireMockServer server;

  private ControlPlane(WireMockServer server) {
    this.server = server;
  }

  /** Starts a server on 127.0.0.1 and a free port. */
  public static ControlPlane start() {
    return start(0);
  }

  /**
   * Starts a server on 127.0.0.1 and {@code port} (0: a free one). A port that cannot be bound
   * throws WireMock's {@code FatalStartupException}.
   */
  public static ControlPlane start(int port) {
    return start(port, OptionalInt.empty());
  }

  /**
   * Starts a server on 127.0.0.1 and {@code port} (0: a free one) whose request journal keeps the
   * last {@code journalLimit} requests (all of them when empty), so that a server that runs for a
   * long suite holds a bounded memory.
   */
  public static ControlPlane start(int port, OptionalInt journalLimit) {
    WireMockConfiguration options = options()
        .bindAddress("127.0.0.1")
        .port(port)
        .containerThreads(16)
        .jettyAcceptors(1)
        .notifier(QUIET);
    journalLimit.ifPresent(options::maxRequestJournalEntries);
    WireMockServer server = new WireMockServer(options);
    server.start();
    return new ControlPlane(server);
  }

  public WireMockServer server() {
    return server;
  }

  /** The base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  @Override
  public void close() {
    server.stop();
  }

  private static final Notifier QUIET = new Notifier() {
    @Override
    public void info(String message) {}

    @Override
    public void error(String message) {}

    @Override
    public void error(String message, Throwable t) {}
  };
}
