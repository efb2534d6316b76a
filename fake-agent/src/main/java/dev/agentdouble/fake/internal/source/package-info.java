/**
 * Where a run's tape comes from: a file, a tapes folder whose match the invocation meets, a
 * built-in, or the control server's answer ({@link
 * dev.agentdouble.fake.internal.source.TapeSelection}), and the tape's bytes ({@link
 * dev.agentdouble.fake.internal.source.TapeSource}).
 */
package dev.agentdouble.fake.internal.source;
