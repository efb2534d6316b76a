/**
 * The control client: the invocation posted to a control server (the JUnit extension or {@code
 * serve}) with the run's secret, and the tape it answers ({@code ControlClient}), over a small
 * HTTP/1.1 client of its own ({@code Http1}) that knows nothing of tapes, invocations or the
 * contract.
 */
package dev.agentdouble.fake.internal.control;
