/**
 * How the recorder works: the commands, streaming capture, framing, redaction and normalisation.
 */
package dev.agentdouble.recorder.internal;
