/**
 * The control client: the invocation posted to a control server (the JUnit extension or {@code
 * serve}) with the run's secret, over a small HTTP/1.1 client of its own, and the tape it answers.
 */
package dev.agentdouble.fake.internal.control;
