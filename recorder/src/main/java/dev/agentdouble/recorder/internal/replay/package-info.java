/**
 * The commands that play tapes through the installation's fake agent: {@code agentdouble replay}
 * ({@link dev.agentdouble.recorder.internal.replay.ReplayCommand}) and {@code agentdouble demo}
 * ({@link dev.agentdouble.recorder.internal.replay.DemoCommand}), which replays built-in tapes.
 */
package dev.agentdouble.recorder.internal.replay;
