/**
 * The commands that read, compare and make tapes without running anything: {@code import}, {@code
 * lint}, {@code show}, {@code diff}, {@code vary}, {@code drift} and {@code catalog}.
 */
package dev.agentdouble.recorder.internal.tapes;
