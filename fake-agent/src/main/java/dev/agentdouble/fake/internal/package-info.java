/**
 * How the fake agent works, in rooms, each a package that states its concept and depends only on
 * the rooms below it: {@code process} (signals, deaths, owner, clocks), {@code profile} (a CLI
 * version as data), {@code source} (where a tape comes from), then {@code cli} (the command line,
 * subcommands and checks) and {@code control} (the control client), then {@code run} (the one run
 * pipeline), then {@code acp} (the ACP agent), then each CLI's front, in a room of its own: {@code
 * claude} (Claude Code) and {@code cursor} (the Cursor Agent CLI). Here, above them all: {@link
 * dev.agentdouble.fake.internal.Impersonation}, the process's run, which hands it to the front of
 * the CLI its program's name says ({@code CliFronts}, the one place that names them), and {@link
 * dev.agentdouble.fake.internal.Training}, the run that fills the class-data archive.
 */
package dev.agentdouble.fake.internal;
