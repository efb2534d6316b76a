/**
 * A recorded frame's bytes as the recorder's passes over a run read them: a frame and its bytes
 * ({@link dev.agentdouble.recorder.internal.scan.Piece}), the strings of a JSON line with their
 * paths ({@link dev.agentdouble.recorder.internal.scan.JsonWalk}), and byte search ({@link
 * dev.agentdouble.recorder.internal.scan.Bytes}). Normalisation and redaction are both such passes.
 */
package dev.agentdouble.recorder.internal.scan;
