/**
 * The {@code agentdouble} command line: {@link dev.agentdouble.recorder.AgentDoubleCommand} runs
 * one {@link dev.agentdouble.recorder.command.Command} of the {@link
 * dev.agentdouble.recorder.command.CommandRegistry}, which lists this module's commands and those
 * other modules provide through {@link java.util.ServiceLoader} ({@code serve}, from the JUnit
 * extension), writes the top-level help and gives the exit statuses, named in {@link
 * dev.agentdouble.contract.ExitStatus}.
 */
package dev.agentdouble.recorder.command;
