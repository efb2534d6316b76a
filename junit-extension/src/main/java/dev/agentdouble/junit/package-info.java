/**
 * The JUnit 5 extension: a fake agent per test (scripted, recorded or recording), the tapes that
 * answer its invocations, the journal to verify against, and step gates.
 */
package dev.agentdouble.junit;
