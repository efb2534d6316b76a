/** How the extension works: the control plane, shims, work folders, deadlines and {@code serve}. */
package dev.agentdouble.junit.internal;
