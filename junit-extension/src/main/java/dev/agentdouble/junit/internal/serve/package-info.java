/**
 * {@code agentdouble serve}: the control plane on its own for suites not on the JVM, its HTTP API
 * (what the {@code FakeAgent} handle gives a Java test), and the command that registers it with
 * {@code agentdouble} ({@code META-INF/services}). Imports the {@code control} and {@code match}
 * rooms.
 */
package dev.agentdouble.junit.internal.serve;
