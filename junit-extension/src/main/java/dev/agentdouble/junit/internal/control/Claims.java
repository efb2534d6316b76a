package dev.agentdouble.junit.internal.control;

import com.github.tomakehurst.wiremock.extension.requestfilter.RequestWrapper;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.RequestMethod;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Where the requests that reach the control plane with its secret are numbered in the order they
 * arrive, and the invocations of a fake are each handed what answers them, one at a time.
 *
 * <p>WireMock cannot do the handing out: it matches a request against a scenario's state, then
 * moves the state, in two steps, so requests that arrive together match the same state and take the
 * same queued tape. Here the choice is one synchronized step per fake, made before WireMock matches
 * anything: the request goes on with its number ({@link #ARRIVAL_HEADER}) and the id of the stub
 * that answers it ({@link #CLAIM_HEADER}), a stub that matches that id only. WireMock then answers
 * and journals it as any other, so the journal says which tape each invocation got.
 */
public final class Claims {
  /** The order in which a request arrived: 1, 2, ... for the life of the control plane. */
  static final String ARRIVAL_HEADER = "X-AgentDouble-Arrival";

  /** The id of the stub that answers an invocation, as the fake's claim chose it. */
  static final String CLAIM_HEADER = "X-AgentDouble-Claim";

  private final AtomicLong arrivals = new AtomicLong();
  private final Map<String, Desk> desks = new ConcurrentHashMap<>();

  /** The claim of one fake's invocations; its monitor makes them one at a time. */
  private record Desk(Function<Request, Optional<UUID>> claim) {}

  Claims() {}

  /**
   * Until the returned handle is closed, each POST to {@code path} is given to {@code claim}, one
   * at a time and in the order of arrival; the stub whose id it returns answers that POST, and when
   * it returns none, the stubs that match without a claim (or none) do.
   */
  AutoCloseable register(String path, Function<Request, Optional<UUID>> claim) {
    Desk desk = new Desk(claim);
    if (desks.putIfAbsent(path, desk) != null) {
      throw new IllegalStateException("the invocations to " + path + " are claimed already");
    }
    return () -> desks.remove(path, desk);
  }

  /**
   * {@code request}, on its way to the stubs, with its arrival number and, for an invocation whose
   * path has a claim, the stub that answers it; what the client sent in these headers is dropped.
   */
  Request arrive(Request request) {
    RequestWrapper.Builder unmarked = RequestWrapper.create();
    for (String key : request.getAllHeaderKeys()) {
      if (key.equalsIgnoreCase(ARRIVAL_HEADER) || key.equalsIgnoreCase(CLAIM_HEADER)) {
        unmarked.removeHeader(key);
      }
    }
    Request clean = unmarked.wrap(request);
    RequestWrapper.Builder marked = RequestWrapper.create();
    Desk desk = RequestMethod.POST.equals(request.getMethod()) ? desks.get(request.getUrl()) : null;
    if (desk == null) {
      marked.addHeader(ARRIVAL_HEADER, Long.toString(arrivals.incrementAndGet()));
    } else {
      synchronized (desk) {
        marked.addHeader(ARRIVAL_HEADER, Long.toString(arrivals.incrementAndGet()));
        desk.claim()
            .apply(clean)
            .ifPresent(stub -> marked.addHeader(CLAIM_HEADER, stub.toString()));
      }
    }
    return marked.wrap(clean);
  }

  /**
   * Oldest first: in the order the requests reached the control plane, which for the invocations of
   * one fake is the order their claims were made; a request without a number (none that reached the
   * stubs lacks one) comes after those with one, by the time it was logged.
   */
  public static Comparator<LoggedRequest> inOrderOfArrival() {
    return Comparator.comparingLong(Claims::arrival).thenComparing(LoggedRequest::getLoggedDate);
  }

  private static long arrival(LoggedRequest request) {
    String number = request.getHeader(ARRIVAL_HEADER);
    try {
      return number == null ? Long.MAX_VALUE : Long.parseLong(number);
    } catch (NumberFormatException e) {
      return Long.MAX_VALUE;
    }
  }
}
