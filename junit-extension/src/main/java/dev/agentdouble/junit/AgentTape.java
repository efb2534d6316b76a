package dev.agentdouble.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A recorded tape answers every invocation of this test's fake agent (VCR style). The file is
 * {@code src/test/resources/agentdouble/<TestClass>/<name>.tape.ndjson} unless the configuration
 * parameter (or system property) {@code agentdouble.tapes} names another root.
 *
 * <p>The mode comes from {@link #mode()} or the configuration parameter (or system property)
 * {@code agentdouble.mode}: {@code
 * replay} (the tape must exist), {@code record} (always re-record), {@code auto} (record when
 * missing). With {@code CI=true} the default is {@code replay} and recording is refused.
 * Recording runs the real CLI ({@code cursor-agent} on PATH, or the configuration parameter
 * {@code agentdouble.cli}) through {@code agentdouble record}; a passed test keeps its runs as
 * {@code <name>.tape.ndjson}, {@code <name>.2.tape.ndjson}, ... (redacted and normalised).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface AgentTape {
  /** The tape's name, without {@code .tape.ndjson}. */
  String value();

  /** {@code replay}, {@code record} or {@code auto}; empty: the system property or the default. */
  String mode() default "";
}
