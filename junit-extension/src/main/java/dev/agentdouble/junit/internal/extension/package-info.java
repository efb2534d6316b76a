/**
 * What {@code AgentDoubleExtension} delegates to: the control plane, runtime and work folder a
 * JVM's fakes share, what an {@code @AgentTape} asks for, the fields it injects, the deadlines of a
 * test's runs and the thread that keeps them, and the end of a test's fake. Imports the {@code
 * handle}, {@code process} and {@code control} rooms.
 */
package dev.agentdouble.junit.internal.extension;
