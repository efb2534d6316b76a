package dev.agentdouble.fake.internal.cursor.acp;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One session of the ACP agent: its folder, mode and model, the programs the client allowed for the
 * session, and its history (what {@code session/load} replays).
 */
final class AcpSession {
  final String id;
  final String cwd;
  String mode = "agent";
  String model;
  final Set<String> alwaysAllowed = new HashSet<>();
  final List<String> history = new ArrayList<>();

  AcpSession(String id, String cwd, String model) {
    this.id = id;
    this.cwd = cwd;
    this.model = model;
  }
}
