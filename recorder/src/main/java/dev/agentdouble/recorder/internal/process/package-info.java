/**
 * The child processes the recorder stands in front of: the installation's fake agent run as a child
 * ({@link dev.agentdouble.recorder.internal.process.FakeRun}) and the signals forwarded to a child
 * meanwhile ({@link dev.agentdouble.recorder.internal.process.ForwardedSignals}).
 */
package dev.agentdouble.recorder.internal.process;
