/**
 * The command line as the recorder's commands read it: options and operands ({@link
 * dev.agentdouble.recorder.internal.cli.Args}, a {@code --timing} value among them) and the files
 * it names, tapes included ({@link dev.agentdouble.recorder.internal.cli.UserFile}), every problem
 * told as a usage error or a {@code NAME: problem} failure.
 */
package dev.agentdouble.recorder.internal.cli;
