/**
 * The fake as Claude Code ({@code claude}): a print run ({@code claude -p}) from its command line
 * to its ending, on the one run pipeline ({@code run.Turn}) with a face of its own ({@link
 * dev.agentdouble.fake.internal.claude.ClaudePrint}); Claude Code's checks in the real CLI's order
 * ({@link dev.agentdouble.fake.internal.claude.ClaudeChecks}) with the texts of its profile; the
 * stdin rule ({@link dev.agentdouble.fake.internal.claude.StdinPrompt}).
 */
package dev.agentdouble.fake.internal.claude;
