package dev.agentdouble.fake.internal;

import dev.agentdouble.fake.internal.claude.ClaudeRun;
import dev.agentdouble.fake.internal.cursor.CursorRun;
import dev.agentdouble.fake.internal.process.Invoked;
import dev.agentdouble.fake.internal.profile.ClaudeProfile;
import dev.agentdouble.fake.internal.run.Journal;
import dev.agentdouble.tape.Frame.Ending;
import java.io.IOException;

/**
 * The CLIs the fake impersonates, each found by the name its program was started as: the one place
 * of the fake's run that names them. Each CLI's front (its profile, its parse, its checks, its
 * faces of a {@code Turn}) lives in rooms of its own ({@code claude/}, {@code cursor/}); what they
 * share, the run pipeline and the process, names none.
 */
final class CliFronts {
  private CliFronts() {}

  /**
   * Runs the invocation as the CLI whose program the process was started as: Claude Code's {@code
   * claude}; the Cursor Agent CLI's {@code agent} and {@code cursor-agent}, and any other name (the
   * first CLI the fake served, as before there were two). A switch, not a table of factories: a
   * lambda on this path would cost the JVM's invoke machinery at every start-up.
   */
  static Ending run(Invoked invoked, Journal journal) throws IOException {
    return switch (invoked.programName()) {
      case ClaudeProfile.CLI -> new ClaudeRun(invoked).run(journal);
      default -> new CursorRun(invoked).run(journal);
    };
  }

  /** What the CLI whose program the process was started as says on SIGINT. */
  static String aborting(String programName) {
    return switch (programName) {
      case ClaudeProfile.CLI -> ClaudeRun.ABORTING;
      default -> CursorRun.ABORTING;
    };
  }
}
