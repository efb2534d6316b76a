/**
 * One run pipeline, {@link dev.agentdouble.fake.internal.run.Turn}: select, validate, transform,
 * substitute, play and report, for a print run and for every ACP prompt alike; the player, the
 * substitution of live values, the replay cache, the step gates and the journal.
 */
package dev.agentdouble.fake.internal.run;
