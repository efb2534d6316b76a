/**
 * A fake agent as processes on this machine: how it is started (the fake's runtime and its
 * class-data sharing archive, its shims and the environment baked into them), the JVM's work folder
 * it runs in, and its runs, ended when their test ends. Imports the {@code control} room (the
 * plane's URL and secret go into the shims).
 */
package dev.agentdouble.junit.internal.process;
