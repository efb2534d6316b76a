/**
 * The recorder: the {@code agentdouble} command, which captures real runs into tapes,
 * byte-faithful, with secrets redacted and volatile values normalised, and the other tape commands.
 */
package dev.agentdouble.recorder;
