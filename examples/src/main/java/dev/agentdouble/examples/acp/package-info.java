/**
 * An example ACP client of {@code agent acp} (the Agent Client Protocol, JSON-RPC 2.0 on stdio), as
 * an editor or an orchestrator writes one on the official ACP Java SDK ({@code
 * com.agentclientprotocol:acp-core}): start the agent, log in, open or load a session, prompt it,
 * follow the turn's updates, answer its permission requests, cancel it. Tested against the fake
 * agent in this module's tests.
 */
package dev.agentdouble.examples.acp;
