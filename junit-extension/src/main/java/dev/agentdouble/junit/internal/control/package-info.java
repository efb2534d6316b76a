/**
 * The control plane: the WireMock server every fake agent of a JVM asks which tape to replay, the
 * gatekeeper at its door, the claims that hand each invocation one answer in the order of arrival,
 * the stubs of one fake, and what one fake was asked, read from the server's journal. A bottom
 * room: it imports no other room of the extension.
 */
package dev.agentdouble.junit.internal.control;
