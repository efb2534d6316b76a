package dev.agentdouble.recorder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentdouble.cursor.CursorMessages;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
class DemoTest {

  @Test
  void showsEveryOutputFormatAndAFailingRunThenExits0() {
    Cli.Result r = Cli.runInstalled("demo", "--timing", "fast");

    assertThat(r.exit()).as("%s", r).isZero();
    String out = r.out();
    assertThat(out)
        .startsWith(
            "AgentDouble demo: the fake agent ("
                + Cli.root().resolve("fake-agent/bin/cursor-agent")
                + ")");
    int streamJson =
        out.indexOf(
            "$ cursor-agent -p --trust --output-format stream-json "
                + "'What does cart.ts export?'");
    int json =
        out.indexOf("$ cursor-agent -p --trust --output-format json 'What does cart.ts export?'");
    int text =
        out.indexOf("$ cursor-agent -p --trust --output-format text 'What does cart.ts export?'");
    int failure =
        out.indexOf(
            "$ cursor-agent -p --trust --output-format stream-json "
                + "'Refactor the checkout flow'");
    assertThat(streamJson).isNotNegative();
    assertThat(json).isGreaterThan(streamJson);
    assertThat(text).isGreaterThan(json);
    assertThat(failure).isGreaterThan(text);

    // stream-json: events, one per line, ending with the result
    assertThat(out.substring(streamJson, json))
        .contains(
            "{\"type\":\"system\",\"subtype\":\"init\"",
            "\"type\":\"tool_call\"",
            "{\"type\":\"result\",\"subtype\":\"success\"")
        .endsWith("[exit 0]\n\n");
    // json: the one result object
    assertThat(out.substring(json, text).lines().toList())
        .satisfiesExactly(
            command -> assertThat(command).startsWith("$ cursor-agent"),
            result ->
                assertThat(result)
                    .startsWith("{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,"),
            exit -> assertThat(exit).isEqualTo("[exit 0]"),
            blank -> assertThat(blank).isEmpty());
    // text, as the 2026.10 CLI prints it: the final answer only, no JSON, no action lines
    assertThat(out.substring(text, failure))
        .contains("exports the `Item` interface")
        .doesNotContain("{\"type\"", "Read file");
    // the failure: reconnects, the error on stderr, exit 1
    assertThat(out.substring(failure))
        .contains(
            "\"type\":\"connection\"",
            "[exit 1]",
            "Next: agentdouble show TAPE, agentdouble replay TAPE, and docs/cli.md.");
    assertThat(r.err()).isEqualTo(CursorMessages.RETRIES_EXHAUSTED);
  }

  @Test
  void withoutAnInstallationItSaysHowToRun() {
    // AgentDoubleCommand.run without the agentdouble.home property the launcher sets
    Assumptions.assumeTrue(System.getProperty("agentdouble.home") == null);

    Cli.Result r = Cli.run("demo", "--timing", "fast");

    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .startsWith("agentdouble: the installation's folder is unknown")
        .contains("./agentdouble");
  }
}
