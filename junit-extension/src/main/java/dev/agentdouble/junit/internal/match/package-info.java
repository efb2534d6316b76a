/**
 * How a match on an invocation is said and judged: the conditions an {@code InvocationPattern}, a
 * stub of serve's HTTP API or a tape of serve's folder sets, their words (one table for Java and
 * HTTP), their one translation to WireMock, and the report of the candidate an unanswered
 * invocation missed least. A bottom room: it imports no other room of the extension.
 */
package dev.agentdouble.junit.internal.match;
