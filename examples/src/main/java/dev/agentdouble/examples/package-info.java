/**
 * An example consumer of the Cursor Agent CLI, as users write them, tested against the fake agent
 * in this module's tests.
 */
package dev.agentdouble.examples;
