/**
 * What a {@code FakeAgent} handle delegates to, one concern a class: the tapes a test names or
 * records, what answers its fake's invocations, its step gates, how many invocations matched, and
 * what fails the test at the fake's end. Imports the {@code control}, {@code match} and {@code
 * process} rooms.
 */
package dev.agentdouble.junit.internal.handle;
