package dev.agentdouble.fake.internal.run;

import dev.agentdouble.contract.ExitStatus;
import dev.agentdouble.tape.Frame;
import dev.agentdouble.tape.Frame.Ending;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * How a run that plays no tape ends, for every CLI the fake impersonates: its journal line written
 * once, the fake's own problem said as {@code agentdouble: ...} with exit 70, a text written whole.
 */
public final class Exits {
  private Exits() {}

  /**
   * Writes the journal line, once; a problem writing it goes to {@code err}. Returns {@code
   * ending}.
   */
  public static Ending end(Journal journal, Ending ending, String error, OutputStream err) {
    String problem = journal.end(ending, error);
    if (problem != null) {
      write(err, problem);
    }
    return ending;
  }

  /** The fake's own problem: {@code agentdouble: message} on {@code err}, exit 70, journalled. */
  public static Ending ownProblem(Journal journal, String message, OutputStream err) {
    write(err, "agentdouble: " + message + "\n");
    return end(journal, new Frame.Exit(0, ExitStatus.OWN_PROBLEM), message, err);
  }

  /** Writes {@code text} as UTF-8 and flushes; a reader that went away is told nothing. */
  public static void write(OutputStream stream, String text) {
    if (text.isEmpty()) {
      return;
    }
    try {
      stream.write(text.getBytes(StandardCharsets.UTF_8));
      stream.flush();
    } catch (IOException e) {
      // the reader went away; nothing else can be told
    }
  }
}
