/**
 * The fake as an ACP agent ({@code agent acp}): JSON-RPC on stdio, a turn for each {@code
 * session/prompt} played through the run pipeline, the ACP rendering of stream-json tapes, ACP
 * tapes replayed in lockstep, permission requests.
 */
package dev.agentdouble.fake.internal.cursor.acp;
