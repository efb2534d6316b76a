package dev.agentdouble.fake;

import static dev.agentdouble.fake.FakeProcess.env;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every setting of docs/cli.md's environment table with a value the fake cannot use: exit 70, one
 * line on stderr saying what is wrong and what the variable takes, nothing on stdout, whatever the
 * run would otherwise have been.
 */
@Timeout(60)
class BadSettingsTest {
  private static final String TAPE = "builtin:documented-minimal";

  private static void assertOwnProblem(FakeProcess.Result r, String message) {
    assertThat(r.exit()).as(r.err()).isEqualTo(70);
    assertThat(r.out()).isEmpty();
    assertThat(r.err())
        .startsWith("agentdouble: ")
        .contains(message)
        .endsWith("\n")
        .doesNotContain("Exception", "\tat ");
    assertThat(r.err().lines()).hasSize(1);
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      AGENTDOUBLE_TIMING          | slow                    | AGENTDOUBLE_TIMING=slow: use fast, recorded, scale:F or max-gap:MS
      AGENTDOUBLE_TIMING          | scale:-1                | AGENTDOUBLE_TIMING=scale:-1: scale needs a factor >= 0
      AGENTDOUBLE_TIMING          | scale:1e309             | AGENTDOUBLE_TIMING=scale:1e309: scale needs a factor >= 0
      AGENTDOUBLE_TIMING          | max-gap:-5              | AGENTDOUBLE_TIMING=max-gap:-5: max-gap needs whole milliseconds >= 0
      AGENTDOUBLE_TEXT_STYLE      | bogus                   | AGENTDOUBLE_TEXT_STYLE=bogus: use actions or final
      AGENTDOUBLE_EPOCH_MS        | soon                    | AGENTDOUBLE_EPOCH_MS=soon: use epoch milliseconds from 0 to 253402300799999
      AGENTDOUBLE_EPOCH_MS        | -1                      | AGENTDOUBLE_EPOCH_MS=-1: use epoch milliseconds
      AGENTDOUBLE_EPOCH_MS        | 9223372036854775807     | AGENTDOUBLE_EPOCH_MS=9223372036854775807: use epoch milliseconds
      AGENTDOUBLE_GATE_TIMEOUT_MS | abc                     | AGENTDOUBLE_GATE_TIMEOUT_MS=abc: use whole milliseconds, e.g. 30000
      AGENTDOUBLE_GATE_TIMEOUT_MS | -5                      | AGENTDOUBLE_GATE_TIMEOUT_MS=-5: use whole milliseconds
      AGENTDOUBLE_GATE_TIMEOUT_MS | 99999999999999999999    | AGENTDOUBLE_GATE_TIMEOUT_MS=99999999999999999999: use whole milliseconds
      AGENTDOUBLE_TRUST           | yes                     | AGENTDOUBLE_TRUST=yes: use trusted (every workspace already trusted) or untrusted
      AGENTDOUBLE_PROFILE         | /no/such/profile.json   | /no/such/profile.json: no such file
      AGENTDOUBLE_URL             | ftp://127.0.0.1/x       | AGENTDOUBLE_URL=ftp://127.0.0.1/x: use an http:// URL of the control server
      AGENTDOUBLE_URL             | http://[bad             | AGENTDOUBLE_URL=http://[bad: not a usable URL
      """)
  void aBadValueEndsEveryRunWithExit70AndOneLine(String name, String value, String message) {
    for (String[] argv :
        new String[][] {
          {"-p", "--output-format", "stream-json", "say hi"}, {"--version"}, {"status"}
        }) {
      Map<String, String> env = env("AGENTDOUBLE_TAPE", TAPE, "AGENTDOUBLE_TIMING", "fast");
      env.put(name, value);

      assertOwnProblem(FakeProcess.run(env, argv), message);
    }
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      AGENTDOUBLE_TAPE   | /no/such.tape.ndjson   | AGENTDOUBLE_TAPE=/no/such.tape.ndjson: no such tape file
      AGENTDOUBLE_TAPE   | builtin:no-such-tape   | AGENTDOUBLE_TAPE=builtin:no-such-tape: no built-in tape named "no-such-tape"
      AGENTDOUBLE_TAPES  | /no/such/folder        | AGENTDOUBLE_TAPES=/no/such/folder: no such folder
      AGENTDOUBLE_URL    | http://127.0.0.1:1/x   | cannot reach the control server at http://127.0.0.1:1/x: connection refused
      """)
  void aTapeThatCannotBeFoundEndsARunWithExit70AndOneLine(
      String name, String value, String message) {
    Map<String, String> env = env("AGENTDOUBLE_TIMING", "fast");
    env.put(name, value);

    assertOwnProblem(
        FakeProcess.run(env, "-p", "--output-format", "stream-json", "say hi"), message);
  }
}
