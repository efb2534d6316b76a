package dev.agentdouble.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A recorded tape answers every invocation of this test's fake agent (VCR style). The file is
 * {@code src/test/resources/agentdouble/<TestClass>/<name>.tape.ndjson} unless the configuration
 * parameter (or system property) {@code agentdouble.tapes} names another root.
 *
 * <p>The mode comes from {@link #mode()}, else the configuration parameter (or system property)
 * {@code agentdouble.mode}: {@link Mode#REPLAY} (the tape must exist), {@link Mode#RECORD} (always
 * re-record), {@link Mode#AUTO} (record when missing). With {@code CI=true} the default is {@code
 * replay} and recording is refused. Recording runs the real CLI ({@code cursor-agent} on PATH, or
 * the configuration parameter {@code agentdouble.cli}) through {@code agentdouble record}; a passed
 * test keeps its runs as {@code <name>.tape.ndjson}, {@code <name>.2.tape.ndjson}, ... (redacted
 * and normalised).
 *
 * <p>The annotation registers {@link AgentDoubleExtension} itself: a test class needs nothing else
 * to be handed a {@link FakeAgent}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@ExtendWith(AgentDoubleExtension.class)
public @interface AgentTape {
  /** What the tape is for: replayed, recorded, or recorded when missing. */
  enum Mode {
    /**
     * The configuration parameter {@code agentdouble.mode}, else {@link #AUTO} ({@link #REPLAY}
     * when {@code CI=true}).
     */
    CONFIGURED,
    /** The tape must exist; it answers every invocation. */
    REPLAY,
    /** The real CLI runs and the tape is recorded again. */
    RECORD,
    /** Replays the tape when it exists, else records it. */
    AUTO
  }

  /** The tape's name, without {@code .tape.ndjson}. */
  String value();

  /** The mode; {@link Mode#CONFIGURED}: the configuration parameter, else the default. */
  Mode mode() default Mode.CONFIGURED;
}
