/**
 * {@code agentdouble shim} ({@link dev.agentdouble.recorder.internal.shim.ShimCommand}): the {@code
 * cursor-agent} and {@code agent} scripts that record or replay every invocation, for software that
 * finds the CLI on {@code PATH}.
 */
package dev.agentdouble.recorder.internal.shim;
