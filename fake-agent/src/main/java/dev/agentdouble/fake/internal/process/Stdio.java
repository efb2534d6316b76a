package dev.agentdouble.fake.internal.process;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * The process's standard streams and whether each end is a terminal, as a run sees them.
 *
 * @param stdinTty whether stdin is a terminal
 * @param stdoutTty whether stdout is a terminal
 */
public record Stdio(
    boolean stdinTty, boolean stdoutTty, InputStream in, OutputStream out, OutputStream err) {}
