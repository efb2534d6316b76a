package dev.agentdouble.junit.internal.control;

import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.common.Notifier;
import com.github.tomakehurst.wiremock.common.url.PathParams;
import com.github.tomakehurst.wiremock.core.Admin;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.Extensions;
import com.github.tomakehurst.wiremock.extension.Parameters;
import com.github.tomakehurst.wiremock.extension.ServeEventListener;
import com.github.tomakehurst.wiremock.extension.requestfilter.RequestFilterAction;
import com.github.tomakehurst.wiremock.extension.requestfilter.RequestWrapper;
import com.github.tomakehurst.wiremock.extension.requestfilter.StubRequestFilterV2;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.standalone.MappingsSource;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.stubbing.StubMappings;
import com.github.tomakehurst.wiremock.verification.notmatched.NotMatchedRenderer;
import com.github.tomakehurst.wiremock.verification.notmatched.PlainTextStubNotMatchedRenderer;
import dev.agentdouble.contract.ControlSecret;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The WireMock server every fake agent of this JVM asks which tape to replay. Bound to loopback on
 * a free port; tests keep to their own URL path, so stubs never cross between tests.
 *
 * <p>Loopback is shared with every local user, so the server answers only requests that carry its
 * {@link #secret()} ({@link ControlSecret}): anything else, the admin API included (reading the
 * invocations, adding stubs, shutting down), gets HTTP 401 from the {@link Gatekeeper} on its
 * headers alone, and never reaches WireMock (no stub, no journal). With the secret, WireMock's
 * admin API only reads. The secret is compared in constant time and taken off the request before
 * WireMock journals it. The server's own Java API ({@link #server()}) is not HTTP and needs no
 * secret.
 */
public final class ControlPlane implements AutoCloseable {
  private final WireMockServer server;
  private final String secret;
  private final Arrivals arrivals;
  private final Map<String, Function<String, String>> reports;
  private final Claims claims;

  private ControlPlane(
      WireMockServer server,
      String secret,
      Arrivals arrivals,
      Map<String, Function<String, String>> reports,
      Claims claims) {
    this.server = server;
    this.secret = secret;
    this.arrivals = arrivals;
    this.reports = reports;
    this.claims = claims;
  }

  /** Starts a server on 127.0.0.1 and a free port. */
  public static ControlPlane start() {
    return start(0);
  }

  /**
   * Starts a server on 127.0.0.1 and {@code port} (0: a free one), with a new secret. A port that
   * cannot be bound throws WireMock's {@code FatalStartupException}.
   */
  public static ControlPlane start(int port) {
    return start(port, OptionalInt.empty());
  }

  /**
   * Starts a server on 127.0.0.1 and {@code port} (0: a free one), with a new secret, whose request
   * journal keeps the last {@code journalLimit} requests (all of them when empty), so that a server
   * that runs for a long suite holds a bounded memory.
   */
  public static ControlPlane start(int port, OptionalInt journalLimit) {
    return start(port, journalLimit, request -> Optional.empty());
  }

  /**
   * As {@link #start(int, OptionalInt)}, with an API: a request with the secret that {@code api}
   * answers gets that answer, before any stub sees it.
   */
  public static ControlPlane start(
      int port, OptionalInt journalLimit, Function<Request, Optional<ResponseDefinition>> api) {
    String secret = ControlSecret.generate();
    Arrivals arrivals = new Arrivals();
    Map<String, Function<String, String>> reports = new ConcurrentHashMap<>();
    Claims claims = new Claims();
    WireMockConfiguration options =
        loopback(port)
            .extensions(new StubGuard(api, claims), arrivals)
            .notMatchedRendererFactory(extensions -> new NoTape(reports, extensions));
    journalLimit.ifPresent(options::maxRequestJournalEntries);
    Gatekeeper.guard(options, secret);
    WireMockServer server = new WireMockServer(options);
    server.start();
    return new ControlPlane(server, secret, arrivals, reports, claims);
  }

  /**
   * The options every server of ours starts from: 127.0.0.1 and {@code port} (0: a free one), a few
   * threads, no log, and no stubs loaded from (or saved to) the working folder.
   */
  public static WireMockConfiguration loopback(int port) {
    quietSlf4j();
    return options()
        .bindAddress("127.0.0.1")
        .port(port)
        .containerThreads(16)
        .jettyAcceptors(1)
        .notifier(QUIET)
        .mappingSource(NO_MAPPINGS);
  }

  /**
   * WireMock's own copy of SLF4J, with no provider on a user's test classpath, would warn about it
   * on stderr; nothing of WireMock's is logged anyway (its notifier is quiet).
   */
  private static void quietSlf4j() {
    if (System.getProperty(SLF4J_VERBOSITY) == null) {
      System.setProperty(SLF4J_VERBOSITY, "ERROR");
    }
  }

  private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

  /**
   * Says why an invocation POSTed to {@code path} got no tape, in the fake's own terms (its prompt,
   * argv, model, format, cwd, and the closest stub), instead of WireMock's near-miss table: {@code
   * report} gets the invocation JSON and returns the text the fake prints.
   */
  public AutoCloseable onNoTape(String path, Function<String, String> report) {
    reports.put(path, report);
    return () -> reports.remove(path);
  }

  /** The 404 answer to a request no stub answers: our report where one is registered. */
  private static final class NoTape extends NotMatchedRenderer {
    private final Map<String, Function<String, String>> reports;
    private final NotMatchedRenderer wireMocks;

    NoTape(Map<String, Function<String, String>> reports, Extensions extensions) {
      this.reports = reports;
      this.wireMocks = new PlainTextStubNotMatchedRenderer(extensions);
    }

    @Override
    protected ResponseDefinition render(Admin admin, ServeEvent event) {
      String url = event.getRequest().getUrl();
      Function<String, String> report = reports.get(url);
      if (report == null) {
        return wireMocks.execute(admin, event, PathParams.empty());
      }
      String text;
      try {
        text = report.apply(event.getRequest().getBodyAsString());
      } catch (RuntimeException e) {
        text = "no stub and no queued tape answers this invocation (" + e + ")";
      }
      return ResponseDefinitionBuilder.responseDefinition()
          .withStatus(404)
          .withHeader("Content-Type", "text/plain; charset=utf-8")
          .withBody(text + "\n")
          .build();
    }
  }

  /**
   * Hands each invocation POSTed to {@code path} (the URL, exactly) to {@code claim}, one at a time
   * and in the order they arrive, before any stub sees it, until the returned handle is closed: the
   * stub whose id it returns answers the invocation (see {@link Claims} and {@link Stubs}).
   */
  public AutoCloseable onInvocation(String path, Function<Request, Optional<UUID>> claim) {
    return claims.register(path, claim);
  }

  /**
   * Calls {@code listener} with the body of every POST whose URL path matches {@code path} (a
   * regular expression), as the server answers it, until the returned handle is closed: waits are
   * fed by this, never by polling the journal.
   */
  public AutoCloseable onPost(String path, Consumer<String> listener) {
    Object key = new Object();
    arrivals.listeners.put(key, new Arrivals.Listener(Pattern.compile(path), listener));
    return () -> arrivals.listeners.remove(key);
  }

  /**
   * Serves one invocation as a fake sends it (a plain socket, HTTP/1.1, the secret, a JSON body,
   * {@code Connection: close}) to a stub of its own, then removes that stub and that request from
   * the journal: WireMock's first request in a JVM loads and compiles its whole request path
   * (Jetty, the gatekeeper, the filters, matching, the journal), 0.8–0.9 s on a loaded 2-core
   * machine against 5–12 ms for the next (bench/README.md); warmed as the plane starts, it is not
   * paid by the first test's first invocation. Returns whether the stub answered; a warm-up that
   * fails changes nothing else.
   */
  public boolean warmUp() {
    String path = "/agentdouble/warm-up/invocations";
    StubMapping stub =
        server.stubFor(
            WireMock.post(WireMock.urlEqualTo(path)).willReturn(WireMock.ok(WARM_UP_ANSWER)));
    try (Socket socket = new Socket()) {
      socket.connect(
          new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 10_000);
      socket.setSoTimeout(30_000);
      byte[] body = "{\"argv\":[\"-p\",\"hi\"],\"prompt\":\"hi\"}".getBytes(UTF_8);
      String head =
          "POST "
              + path
              + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              + "Content-Length: "
              + body.length
              + "\r\n"
              + ControlSecret.HEADER
              + ": "
              + secret
              + "\r\nConnection: close\r\n\r\n";
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(UTF_8));
      out.write(body);
      out.flush();
      String answer = new String(socket.getInputStream().readAllBytes(), UTF_8);
      warm = answer.startsWith("HTTP/1.1 200") && answer.endsWith(WARM_UP_ANSWER);
    } catch (IOException e) {
      warm = false; // the first invocation pays it instead
    } finally {
      server.removeStubMapping(stub);
      server.removeServeEventsMatching(
          RequestPatternBuilder.newRequestPattern().withUrl(path).build());
    }
    return warm;
  }

  private static final String WARM_UP_ANSWER = "warm";

  /** Whether {@link #warmUp} got its answer. */
  private volatile boolean warm;

  /** Whether this plane's request path was warmed ({@link #warmUp}). */
  public boolean warm() {
    return warm;
  }

  public WireMockServer server() {
    return server;
  }

  /** The base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  /**
   * What the fake agents must send in {@link ControlSecret#HEADER}: their {@link
   * ControlSecret#ENV}.
   */
  public String secret() {
    return secret;
  }

  @Override
  public void close() {
    server.stop();
  }

  /**
   * Requests to stubs, all with the secret (the {@link Gatekeeper} let no other through): they go
   * on without it, to the API if it answers them, else to the stubs, numbered and, a fake's
   * invocation, claimed ({@link Claims}).
   */
  private record StubGuard(Function<Request, Optional<ResponseDefinition>> api, Claims claims)
      implements StubRequestFilterV2 {
    @Override
    public RequestFilterAction filter(Request request, ServeEvent serveEvent) {
      // header names are case-insensitive, and WireMock's removeHeader is not
      RequestWrapper.Builder wrapped = RequestWrapper.create();
      for (String key : request.getAllHeaderKeys()) {
        if (key.equalsIgnoreCase(ControlSecret.HEADER)) {
          wrapped.removeHeader(key);
        }
      }
      Optional<ResponseDefinition> answer = api.apply(request);
      if (answer.isPresent()) {
        return RequestFilterAction.stopWith(answer.get());
      }
      return RequestFilterAction.continueWith(claims.arrive(wrapped.wrap(request)));
    }

    @Override
    public String getName() {
      return "agentdouble-secret-stubs";
    }
  }

  /**
   * Where WireMock loads stubs from as it starts (and would save them to): nowhere. Its default is
   * {@code src/test/resources/mappings} in the working folder, where a user's own WireMock stubs
   * live; loaded here, they would answer the fakes.
   */
  @SuppressWarnings("removal") // remove(StubMapping) must be implemented while it exists
  private static final MappingsSource NO_MAPPINGS =
      new MappingsSource() {
        @Override
        public void loadMappingsInto(StubMappings stubMappings) {}

        @Override
        public void save(List<StubMapping> stubMappings) {}

        @Override
        public void save(StubMapping stubMapping) {}

        @Override
        public void remove(StubMapping stubMapping) {}

        @Override
        public void removeAll() {}
      };

  private static final Notifier QUIET =
      new Notifier() {
        @Override
        public void info(String message) {}

        @Override
        public void error(String message) {}

        @Override
        public void error(String message, Throwable t) {}
      };

  /** Passes each answered request on to the listeners whose path it matches. */
  private static final class Arrivals implements ServeEventListener {
    record Listener(Pattern path, Consumer<String> body) {}

    final Map<Object, Listener> listeners = new ConcurrentHashMap<>();

    @Override
    public String getName() {
      return "agentdouble-arrivals";
    }

    @Override
    public void beforeResponseSent(ServeEvent event, Parameters parameters) {
      Request request = event.getRequest();
      if (!"POST".equals(request.getMethod().getName())) {
        return;
      }
      String path = request.getUrl();
      int query = path.indexOf('?');
      String bare = query < 0 ? path : path.substring(0, query);
      for (Listener listener : listeners.values()) {
        if (listener.path().matcher(bare).matches()) {
          listener.body().accept(request.getBodyAsString());
        }
      }
    }
  }
}
