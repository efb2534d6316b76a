package dev.agentdouble.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * Runs a {@code @ParameterizedTest} once per variant of a tape: the original, then every {@link
 * dev.agentdouble.variants.Variants variant} (re-chunked, cut mid-line, noisy, ...), each named, so
 * a consumer's parser meets realistic damage in a few lines:
 *
 * <pre>{@code
 * @ParameterizedTest
 * @TapeVariants(resource = "tapes/golden.tape.ndjson", seed = 42)
 * void survives(Tape tape, FakeAgent agent) {
 *   agent.enqueue(tape);
 *   ...
 * }
 * }</pre>
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@ArgumentsSource(TapeVariantsProvider.class)
public @interface TapeVariants {
  /** The tape on the test classpath. */
  String resource();

  /** The seed of the variants that pick places at random. */
  long seed() default 1;

  /** Only these variants (by name); empty: all of them. */
  String[] only() default {};
}
