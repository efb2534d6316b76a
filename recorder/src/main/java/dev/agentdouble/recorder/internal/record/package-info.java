/**
 * {@code agentdouble record}: a real run captured into a tape while it is shown live ({@link
 * dev.agentdouble.recorder.internal.record.RecordCommand}): the output read through pipes and
 * spooled to disk, framed, then normalised, redacted and written.
 */
package dev.agentdouble.recorder.internal.record;
