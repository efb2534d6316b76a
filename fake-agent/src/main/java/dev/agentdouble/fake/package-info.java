/**
 * The fake agent: an executable ({@code fake-agent/bin/cursor-agent}) that impersonates the Cursor
 * Agent CLI and replays tapes on real pipes, with real exit codes and signals.
 */
package dev.agentdouble.fake;
