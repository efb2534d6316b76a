package dev.agentdouble.fake.internal.profile;

import java.util.Objects;

/** A model {@code models} lists: {@code <id> - <name>}. */
public record Model(String id, String name) {
  public Model {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
  }
}
