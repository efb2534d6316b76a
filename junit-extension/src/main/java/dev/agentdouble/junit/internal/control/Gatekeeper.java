package dev.agentdouble.junit.internal.control;

import com.github.tomakehurst.wiremock.core.Options;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.http.AdminRequestHandler;
import com.github.tomakehurst.wiremock.http.HttpServer;
import com.github.tomakehurst.wiremock.http.HttpServerFactory;
import com.github.tomakehurst.wiremock.http.StubRequestHandler;
import com.github.tomakehurst.wiremock.jetty11.Jetty11HttpServer;
import com.github.tomakehurst.wiremock.jetty11.NotFoundHandler;
import dev.agentdouble.contract.ControlSecret;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import wiremock.jakarta.servlet.ServletException;
import wiremock.jakarta.servlet.http.HttpServletRequest;
import wiremock.jakarta.servlet.http.HttpServletResponse;
import wiremock.org.eclipse.jetty.http.HttpFields;
import wiremock.org.eclipse.jetty.http.HttpHeader;
import wiremock.org.eclipse.jetty.http.HttpHeaderValue;
import wiremock.org.eclipse.jetty.http.HttpStatus;
import wiremock.org.eclipse.jetty.server.ConnectionLimit;
import wiremock.org.eclipse.jetty.server.Connector;
import wiremock.org.eclipse.jetty.server.Handler;
import wiremock.org.eclipse.jetty.server.HttpConnectionFactory;
import wiremock.org.eclipse.jetty.server.Request;
import wiremock.org.eclipse.jetty.server.handler.ContextHandler;
import wiremock.org.eclipse.jetty.server.handler.ErrorHandler;
import wiremock.org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * The door of the control plane's server: each request is judged on its request line and headers,
 * in Jetty, before WireMock sees it. Without the secret it is answered 401 at once: its body is
 * never read (nor waited for) and it never enters WireMock's request journal, so it costs no
 * memory, no thread beyond the moment of the answer, and no place in the journal's limit. With the
 * secret, a body must announce its length ({@value #MAX_BODY_BYTES} bytes at most) and WireMock's
 * admin API only reads. Every error the server answers, Jetty's and WireMock's own, is one line of
 * ours, never a stack trace.
 *
 * <p>A request is judged as soon as its head is read, not once the first bytes of its body come. A
 * request with the secret whose body comes slowly holds a thread while it waits; each of up to
 * {@value #MAX_CONNECTIONS} connections at once can have one, so it holds up no other client.
 * {@code OPTIONS *}, a question about the server, is answered here (200 with {@code Allow}).
 *
 * <p>It needs no stub: nothing done to WireMock's stubs or journal (a reset) changes what it
 * refuses.
 */
public final class Gatekeeper extends HandlerWrapper {
  /** What a request without the secret gets, with HTTP 401. */
  static final String REFUSED_MESSAGE =
      "agentdouble: this control server answers only requests "
          + "with its secret in the "
          + ControlSecret.HEADER
          + " header (the fake sends "
          + ControlSecret.ENV
          + ")\n";

  /** The largest request body read: 64 MiB (an invocation with its stdin, a tape to enqueue). */
  static final long MAX_BODY_BYTES = 64L * 1024 * 1024;

  /** The largest request line and headers read (Jetty answers 431 beyond). */
  static final int MAX_HEAD_BYTES = 32 * 1024;

  /**
   * How long a connection may stay silent, in the middle of a request or between two, before it is
   * closed.
   */
  static final long IDLE_TIMEOUT_MS = 10_000;

  /**
   * The most connections served at once; a connection beyond waits to be accepted. Each has a
   * thread of its own when it needs one ({@link #THREADS}), so a client that stops half-way through
   * its body, which holds a thread until it sends more or its idle timeout, holds up no other.
   */
  static final int MAX_CONNECTIONS = 128;

  /**
   * The server's threads at most: one per connection, and a few for Jetty's acceptor, selectors and
   * reserved threads. Made when needed; those idle for a minute end.
   */
  static final int THREADS = MAX_CONNECTIONS + 16;

  /** What {@code OPTIONS *} is told the server answers, with HTTP 200. */
  static final String ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

  private static final String ADMIN = "/__admin";

  /** The admin requests that POST a query but change nothing. */
  private static final Set<String> ADMIN_QUERIES =
      Set.of(
          "/requests/count",
          "/requests/find",
          "/near-misses/request",
          "/near-misses/request-pattern",
          "/mappings/find-by-metadata");

  /**
   * Who passes the door and what the others are told: {@code admits} is given the request's headers
   * (a header's value by its name, null when absent); a request it refuses gets HTTP 401 with
   * {@code refusal} as a body of {@code contentType}.
   */
  public record Door(
      Predicate<Function<String, String>> admits, String contentType, String refusal) {}

  /** The control plane's door: the {@link ControlSecret#HEADER} header holds {@code secret}. */
  static Door controlDoor(String secret) {
    return new Door(
        headers -> ControlSecret.matches(secret, headers.apply(ControlSecret.HEADER)),
        PLAIN_TEXT,
        REFUSED_MESSAGE);
  }

  private static final String PLAIN_TEXT = "text/plain; charset=utf-8";

  private final Door door;

  private Gatekeeper(Door door) {
    this.door = door;
  }

  /**
   * {@code options} with a server whose every request passes this door first: answered only with
   * {@code secret}, bounded in size and in time, HTTP/1.1 only (no cleartext HTTP/2, whose bodies
   * need not announce a length).
   */
  static WireMockConfiguration guard(WireMockConfiguration options, String secret) {
    return guard(options, controlDoor(secret));
  }

  /**
   * {@code options} with a server whose every request passes {@code door} first, bounded in size
   * and in time, HTTP/1.1 only, with {@value #THREADS} threads at most (whatever {@code options}
   * said).
   */
  public static WireMockConfiguration guard(WireMockConfiguration options, Door door) {
    return guard(options, door, IDLE_TIMEOUT_MS);
  }

  /** {@link #guard(WireMockConfiguration, Door)} with an idle timeout of {@code idleTimeoutMs}. */
  static WireMockConfiguration guard(WireMockConfiguration options, Door door, long idleTimeoutMs) {
    return options
        .httpServerFactory(new Factory(door))
        .http2PlainDisabled(true)
        .jettyHeaderRequestSize(MAX_HEAD_BYTES)
        .jettyIdleTimeout(idleTimeoutMs)
        .containerThreads(THREADS);
  }

  @Override
  public void handle(
      String target, Request base, HttpServletRequest request, HttpServletResponse response)
      throws IOException, ServletException {
    Refusal refusal = refusal(target, base);
    if (refusal == null && "*".equals(target)) {
      // OPTIONS * (Jetty answers 400 to any other method on *): a question about the server, not
      // a resource, answered as RFC 9110 9.3.7 has it, here, since no stub has * for a path
      base.setHandled(true);
      response.setStatus(HttpStatus.OK_200);
      response.setHeader(HttpHeader.ALLOW.asString(), ALLOWED_METHODS);
      response.setContentLength(0);
      return;
    }
    if (refusal == null) {
      super.handle(target, base, request, response);
      return;
    }
    base.setHandled(true);
    response.setStatus(refusal.status());
    // the body the client may still send is not waited for: the connection ends with the answer
    response.setHeader(HttpHeader.CONNECTION.asString(), HttpHeaderValue.CLOSE.asString());
    response.setContentType(refusal.contentType());
    byte[] body = refusal.message().getBytes(StandardCharsets.UTF_8);
    response.setContentLength(body.length);
    response.getOutputStream().write(body);
  }

  /** An answer given at the door: its status, its body's type and its body. */
  private record Refusal(int status, String contentType, String message) {
    Refusal(int status, String message) {
      this(status, PLAIN_TEXT, message);
    }
  }

  /** Why {@code base} (whose decoded path is {@code target}) is refused, or null if it is not. */
  private Refusal refusal(String target, Request base) {
    if (!door.admits().test(base::getHeader)) {
      return new Refusal(ControlSecret.REFUSED, door.contentType(), door.refusal());
    }
    if (base.getHeader(HttpHeader.TRANSFER_ENCODING.asString()) != null) {
      return new Refusal(
          HttpStatus.LENGTH_REQUIRED_411,
          "agentdouble: a request body needs a Content-Length here (chunked bodies are not"
              + " read); send the body whole\n");
    }
    long length = base.getContentLengthLong();
    if (length > MAX_BODY_BYTES) {
      return new Refusal(
          HttpStatus.PAYLOAD_TOO_LARGE_413,
          "agentdouble: a request body of "
              + length
              + " bytes is over this control server's limit of "
              + MAX_BODY_BYTES
              + " bytes ("
              + (MAX_BODY_BYTES >> 20)
              + " MiB)\n");
    }
    if (target != null && (target.equals(ADMIN) || target.startsWith(ADMIN + "/"))) {
      String method = base.getMethod();
      boolean reads =
          "GET".equals(method)
              || ("POST".equals(method)
                  && ADMIN_QUERIES.contains(target.substring(ADMIN.length())));
      if (!reads) {
        return new Refusal(
            HttpStatus.FORBIDDEN_403,
            "agentdouble: "
                + method
                + " "
                + target
                + ": refused; WireMock's admin API only reads on this control server (GET); what"
                + " it serves is set through the JUnit extension or agentdouble serve's own API\n");
      }
    }
    return null;
  }

  /** The one line every error answer of the server is: its status, never what went wrong inside. */
  static String failed(int status) {
    return "agentdouble: the control server could not answer this request (HTTP "
        + status
        + " "
        + HttpStatus.getMessage(status)
        + ")\n";
  }

  /** WireMock's Jetty server, with the {@link Gatekeeper} in front and {@link Plain} errors. */
  private record Factory(Door door) implements HttpServerFactory {
    @Override
    public HttpServer buildHttpServer(
        Options options, AdminRequestHandler admin, StubRequestHandler stubs) {
      return new Guarded(options, admin, stubs, new Gatekeeper(door));
    }
  }

  private static final class Guarded extends Jetty11HttpServer {
    Guarded(Options options, AdminRequestHandler admin, StubRequestHandler stubs, Gatekeeper gate) {
      super(options, admin, stubs);
      gate.setHandler(jettyServer.getHandler());
      jettyServer.setHandler(gate);
      jettyServer.setErrorHandler(new Plain(null));
      jettyServer.addBean(new ConnectionLimit(MAX_CONNECTIONS, jettyServer));
      // each request is judged once its head is read: Jetty would otherwise wait for the first
      // bytes of a body it announces (until the idle timeout when none come) before the door sees
      // it, and a body over the limit or without the secret would be answered only then
      for (Connector connector : jettyServer.getConnectors()) {
        HttpConnectionFactory http = connector.getConnectionFactory(HttpConnectionFactory.class);
        if (http != null) {
          http.getHttpConfiguration().setDelayDispatchUntilContent(false);
        }
      }
      for (Handler handler : jettyServer.getChildHandlersByClass(ContextHandler.class)) {
        ContextHandler context = (ContextHandler) handler;
        ErrorHandler own = context.getErrorHandler();
        context.setErrorHandler(
            new Plain(own instanceof NotFoundHandler notFound ? notFound : null));
      }
    }
  }

  /**
   * Jetty's error answers (a request it cannot parse, an exception thrown while answering, even an
   * {@code OutOfMemoryError}) as {@link #failed(int)}, instead of its page with the exception and
   * its stack trace. The stubs' 404 goes on to WireMock's {@code notFound}, which sends the report
   * of an invocation no stub answered (already rendered, by {@code ControlPlane.NoTape}).
   */
  private static final class Plain extends ErrorHandler {
    private final NotFoundHandler notFound;

    Plain(NotFoundHandler notFound) {
      this.notFound = notFound;
      setShowStacks(false);
      setShowServlet(false);
    }

    @Override
    public boolean errorPageForMethod(String method) {
      return true;
    }

    @Override
    public void handle(
        String target, Request base, HttpServletRequest request, HttpServletResponse response)
        throws IOException, ServletException {
      if (notFound != null && response.getStatus() == HttpStatus.NOT_FOUND_404) {
        notFound.handle(target, base, request, response);
      } else {
        super.handle(target, base, request, response);
      }
    }

    @Override
    protected void generateAcceptableResponse(
        Request base,
        HttpServletRequest request,
        HttpServletResponse response,
        int code,
        String message)
        throws IOException {
      byte[] body = failed(code).getBytes(StandardCharsets.UTF_8);
      response.setContentType("text/plain; charset=utf-8");
      response.setContentLength(body.length);
      response.getOutputStream().write(body);
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
      fields.put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
      return ByteBuffer.wrap(failed(status).getBytes(StandardCharsets.UTF_8));
    }
  }
}
