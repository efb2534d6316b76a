package dev.agentdouble.junit.internal.extension;

import java.nio.file.Path;

/**
 * Said with the failure of a test that has a fake (as a suppressed exception, so the failure's own
 * message stays as it was): where the fake's folder is kept.
 */
public final class KeptFolder extends Exception {
  private static final long serialVersionUID = 1L;

  public KeptFolder(Path dir) {
    super(
        "the fake agent's folder is kept: " + dir + " (shims, journal, gates)", null, false, false);
  }
}
