/**
 * Redaction's machinery: the secrets of a run's environment and command line ({@link
 * dev.agentdouble.recorder.internal.secrets.SecretScan}, {@link
 * dev.agentdouble.recorder.internal.secrets.ArgvSecrets}), finding and replacing them in every form
 * a JSON writer gives them ({@link dev.agentdouble.recorder.internal.secrets.Secrets}), across the
 * frames a pipe read cut them into ({@link
 * dev.agentdouble.recorder.internal.secrets.SplitSecrets}). {@link
 * dev.agentdouble.recorder.Redactor} is its public face.
 */
package dev.agentdouble.recorder.internal.secrets;
