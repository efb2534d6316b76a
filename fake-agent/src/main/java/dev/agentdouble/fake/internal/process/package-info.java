/**
 * The fake's process: its signals taken as the CLI takes them, its deaths (by a signal, by SIGHUP
 * when its owner ends, by a halt), the owner it watches, its clocks and the buffer each frame is
 * written from. Depends on no other room of the fake.
 */
package dev.agentdouble.fake.internal.process;
