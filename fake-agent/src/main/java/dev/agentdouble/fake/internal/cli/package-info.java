/**
 * The command line as the CLI reads it: the parser and its errors, the parsed arguments, help
 * texts, the subcommands and the checks a print run passes before it needs a tape, each answered as
 * the profile says.
 */
package dev.agentdouble.fake.internal.cli;
