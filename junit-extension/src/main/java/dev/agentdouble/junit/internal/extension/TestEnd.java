package dev.agentdouble.junit.internal.extension;

import dev.agentdouble.junit.internal.process.Janitor;
import dev.agentdouble.junit.internal.process.WorkFolder;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The end of a test's fake as the test sees it: its notes said, its folder kept when the test
 * failed (else deleted, by the janitor), its problems thrown.
 */
public final class TestEnd {
  private TestEnd() {}

  /**
   * Says {@code notes}, keeps {@code folder} or has {@code janitor} delete it, and fails the test
   * of {@code context} with {@code problems}, if any.
   */
  public static void settle(
      ExtensionContext context,
      Path folder,
      List<String> notes,
      List<String> problems,
      Janitor janitor) {
    for (String note : notes) {
      say(context, note);
    }
    if (context.getExecutionException().isPresent() || !problems.isEmpty()) {
      WorkFolder.keep(
          folder,
          "kept because "
              + context.getDisplayName()
              + " ("
              + context.getUniqueId()
              + ") failed; delete it when done");
      say(context, "the fake agent's folder is kept: " + folder);
    } else {
      janitor.delete(folder);
    }
    if (!problems.isEmpty()) {
      AssertionError failure = new AssertionError("fake agent: " + String.join("\n", problems));
      failure.addSuppressed(new KeptFolder(folder));
      throw failure;
    }
  }

  private static void say(ExtensionContext context, String what) {
    context.publishReportEntry("agentdouble", what);
    System.err.println("agentdouble: " + context.getDisplayName() + ": " + what);
  }
}
