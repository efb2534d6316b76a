/**
 * A CLI version as data: the built-in profiles (one resource each, read by {@link
 * dev.agentdouble.fake.internal.profile.ProfileResource}) and profile files, the command tree with
 * its options and their arity, the order of checks, the model lists. No code here tells versions
 * apart.
 */
package dev.agentdouble.fake.internal.profile;
