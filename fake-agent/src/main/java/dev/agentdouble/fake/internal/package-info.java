/**
 * How the fake agent works: command-line parsing and checks in the CLI's order, profiles, tape
 * selection, replay, the journal, gates, signals and its owner's lifetime.
 */
package dev.agentdouble.fake.internal;
