/**
 * How the fake agent works, in rooms, each a package that states its concept and depends only on
 * the rooms below it: {@code process} (signals, deaths, owner, clocks), {@code profile} (a CLI
 * version as data), {@code source} (where a tape comes from), then {@code cli} (the command line,
 * subcommands and checks) and {@code control} (the control client), then {@code run} (the one run
 * pipeline), then {@code acp} (the ACP agent). Here, above them all: {@link
 * dev.agentdouble.fake.internal.Impersonation}, which reads the command line and runs the answer,
 * the print run or the ACP agent, and {@link dev.agentdouble.fake.internal.Training}, the run that
 * fills the class-data archive.
 */
package dev.agentdouble.fake.internal;
