/**
 * The fake as the Cursor Agent CLI ({@code agent}, {@code cursor-agent}): a run from its command
 * line to its ending ({@link dev.agentdouble.fake.internal.cursor.CursorRun}): its profile, the
 * subcommands' answers ({@code Subcommands}), the ACP server ({@code agent acp}), the checks of
 * {@code Checks} in the profile's order, and a print run on the one run pipeline ({@code run.Turn})
 * with a face of its own. The twin of {@code claude}.
 */
package dev.agentdouble.fake.internal.cursor;
