/**
 * Normalisation's machinery: a recorded run's volatile values (session id, folders, times, request
 * and tool call ids) rebased to canonical ones and declared as vars ({@link
 * dev.agentdouble.recorder.internal.normalise.Rebase}). {@link dev.agentdouble.recorder.Normaliser}
 * is its public face.
 */
package dev.agentdouble.recorder.internal.normalise;
