/**
 * The scripted model API: a Claude Code tape read as what the model said ({@link
 * dev.agentdouble.junit.internal.model.ModelScript}, each of its turns a {@link
 * dev.agentdouble.junit.internal.model.ModelTurn}), served as Anthropic's Messages API by a
 * WireMock server ({@link dev.agentdouble.junit.internal.model.ModelServer}, its errors {@link
 * dev.agentdouble.junit.internal.model.ApiErrors}), so that the real CLI runs whole turns, its
 * tools included, with no account and no network.
 */
package dev.agentdouble.junit.internal.model;
